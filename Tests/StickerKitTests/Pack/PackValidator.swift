import Foundation

/// Runs scripts/validate_sticker_pack.py: the packs checked by Pillow (its own libwebp) and
/// Python's zipfile, independently of the writer. Installs Pillow with pip when it is missing.
enum PackValidator {
    struct Result: Decodable {
        struct Pack: Decodable {
            struct Sticker: Decodable { let file: String; let width: Int; let height: Int; let bytes: Int; let fringe: Double? }
            let file: String
            let stickers: [Sticker]
        }
        let ok: Bool
        let errors: [String]
        let packs: [Pack]
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "scripts/validate_sticker_pack.py")

    static func validate(_ platform: String, _ files: [URL], fringe: Bool = false) throws -> Result {
        try ensurePillow()
        let (status, output, errors) = try run(["python3", script.path, platform] + (fringe ? ["--fringe"] : []) + files.map(\.path))
        guard status == 0 || status == 1 else {
            throw ValidatorError(message: "validator exited \(status): \(errors)")
        }
        return try JSONDecoder().decode(Result.self, from: Data(output.utf8))
    }

    /// Pillow once per test process (pip is quiet when it is already there).
    private static func ensurePillow() throws {
        if try run(["python3", "-c", "import PIL.WebPImagePlugin, PIL.features; assert PIL.features.check('webp')"]).status == 0 { return }
        var install = try run(["python3", "-m", "pip", "install", "-q", "Pillow"])
        if install.status != 0 {  // Debian's "externally managed" Python asks for this flag
            install = try run(["python3", "-m", "pip", "install", "-q", "--break-system-packages", "Pillow"])
        }
        guard install.status == 0 else { throw ValidatorError(message: "cannot install Pillow: \(install.errors)") }
    }

    struct ValidatorError: Error, CustomStringConvertible { let message: String; var description: String { message } }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both to the end before waiting: a full pipe would otherwise block the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
