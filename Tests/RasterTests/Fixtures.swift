import Foundation

/// Reads a committed fixture next to this file (the folder is excluded from the target, so it is
/// found through the source path rather than a resource bundle).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }
}
