import Foundation

/// A photo the person chose, identified stably across the app, plus where its bytes come from.
nonisolated public struct SelectedPhoto: Identifiable, Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        case file(URL)
        /// Bytes already in memory: an upload, a downloaded space photo, a test fixture.
        case data(Data)
    }

    public let id: UUID
    /// A human name, used for file names in the pack (`NAME.sticker.png`).
    public let name: String
    public let source: Source

    public init(id: UUID = UUID(), name: String, source: Source) {
        self.id = id
        self.name = name
        self.source = source
    }

    /// A photo read from a file; named after the file without its extension.
    public init(file url: URL) {
        self.init(name: url.deletingPathExtension().lastPathComponent, source: .file(url))
    }
}
