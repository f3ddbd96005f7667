import ErrorReasons
import Foundation

/// Where a pack is built for a download: written (atomically, by the pack's own writer) into a
/// private folder, read back, and the folder removed. The web app gives its own folders (named so
/// that what a killed server left behind can be found and removed: `ScratchFolder`).
nonisolated public struct PackFolders: Sendable {
    /// A new, not yet created folder for one pack.
    public var newFolder: @Sendable () -> URL
    /// Awaited before each pack is built. Nothing by default; tests hold packs in progress with it
    /// (to prove a limit on packs built at once without depending on timing).
    public var willBuild: @Sendable () async -> Void

    public init(newFolder: @escaping @Sendable () -> URL, willBuild: @escaping @Sendable () async -> Void = {}) {
        self.newFolder = newFolder
        self.willBuild = willBuild
    }

    /// Folders in the system's temporary directory.
    public static let temporary = PackFolders(newFolder: {
        FileManager.default.temporaryDirectory.appending(path: "stickers-pack-\(UUID().uuidString)", directoryHint: .isDirectory)
    })

    /// The bytes of the file `write` makes at the URL it is given, named `name`. A `ServiceError`
    /// it throws passes through; any other failure is the cause in words ("no space left on
    /// device").
    func build(_ name: String, _ write: (URL) async throws -> Void) async throws(ServiceError) -> Data {
        await willBuild()
        let folder = newFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(name)
            try await write(file)
            return try Data(contentsOf: file)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw .notKept("the pack could not be written: \(ErrorReason.of(error))")
        }
    }
}
