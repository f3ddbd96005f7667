import Foundation
import Testing
import TestSupport

/// The built `stickers` executable, run as a script would run it: arguments in, exit status,
/// standard output and standard error out. Like swift-argument-parser's example tests, it is found
/// beside the test bundle in the build products folder (`swift build`/`swift test` build it).
enum Stickers {
    static let productsFolder: URL = {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // Linux: the runner is `…/debug/StickersPackageTests.xctest`; macOS: inside the bundle.
        var folder = runner.deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appending(path: "stickers").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    static var executable: URL { productsFolder.appending(path: "stickers") }

    /// The package's root (for the Samples).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func sample(_ name: String) -> String { packageRoot.appending(path: "Samples/\(name)").path }

    struct Outcome: CustomStringConvertible {
        /// The exit status, or 128 + the signal for a process killed by one (as a shell says it).
        var status: Int32
        var stdout: Data
        var stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: stdout) as? [String: Any] }
        var description: String { "exit \(status); stderr: \(stderr); stdout: \(output.prefix(400))" }
    }

    /// The processed-photo cache every run of this test process shares (unless a test gives its
    /// own): tests still see entries made by earlier runs, as a user would.
    static let runCache = FileManager.default.temporaryDirectory.appending(path: "stickers-cli-cache-\(getpid())")

    /// Runs `stickers ARGUMENTS` to its end. `environment` adds to (or, with nil, removes from)
    /// this process's environment; `started` runs once the process is running, with the file
    /// its standard error goes to (its standard output goes to `out` beside it).
    static func run(_ arguments: [String], environment: [String: String?] = [:], in folder: URL? = nil,
                    started: (@Sendable (Process, URL) async throws -> Void)? = nil) async throws -> Outcome {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path),
                     "the stickers executable is not built at \(executable.path): run `swift build` first")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Files, not pipes: a chatty process never blocks on a full pipe.
        let scratch = FileManager.default.temporaryDirectory.appending(path: "stickers-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var env = ProcessInfo.processInfo.environment
        // `make` records its packs in the library: a test's own, never the user's, unless it says.
        env["STICKERS_DATA_DIR"] = scratch.appending(path: "library").path
        // And a processed-photo cache of this test run's, never the user's: other programs (older
        // builds, other checkouts) sharing that one must not make a test pass or fail.
        env["STICKERS_CACHE_DIR"] = runCache.path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let folder { process.currentDirectoryURL = folder }
        let out = scratch.appending(path: "out"), err = scratch.appending(path: "err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.yield(); ended.continuation.finish() }
        try process.run()
        do {
            try await started?(process, err)
        } catch {
            process.terminate()
            throw error
        }
        for await _ in ended.stream {}
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(status: status, stdout: try Data(contentsOf: out),
                       stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// The cut-out model's path, fetched once like the product does (`stickers model fetch`);
    /// when it cannot be had the test fails in CI and is skipped elsewhere.
    static func model() async throws -> String {
        let fetched = try await ModelFetch.shared.outcome()
        return try NeededResource.require(fetched.status == 0 ? fetched.output.split(separator: "\n").last.map(String.init) : nil,
                                          "the cut-out model", reason: fetched.stderr)
    }
}

/// One `stickers model fetch` for all tests.
private actor ModelFetch {
    static let shared = ModelFetch()
    private var fetching: Task<Stickers.Outcome, any Error>?
    func outcome() async throws -> Stickers.Outcome {
        if fetching == nil { fetching = Task { try await Stickers.run(["model", "fetch"]) } }
        return try await fetching!.value  // set just above
    }
}

/// A fresh temporary folder, removed by `cleanUp`.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "stickers-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func contents(of folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}
