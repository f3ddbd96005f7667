import Foundation
import Raster
import Testing

/// Reads text back with tesseract (Debian's tesseract-ocr; CI installs it). Tesseract does not see
/// alpha: the image is composited on a background first. A meme caption (light letters, dark stroke)
/// is read best composited on its stroke's colour and inverted — dark letters on white, the stroke
/// merged into the page — since tesseract takes a stroke touching the next letter's for ink
/// ("SENSEVAGAIN"); on mid-grey it misreads about one word in ten of a long caption.
public enum OCR {
    public static let tesseract = ["/usr/bin/tesseract", "/usr/local/bin/tesseract"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The text tesseract reads in `image`, in `language` (eng, rus); when tesseract or the
    /// language is not installed the test fails in CI and is skipped elsewhere.
    public static func read(_ image: Image, language: String = "eng", background: RGBA8 = RGBA8(r: 128, g: 128, b: 128),
                            inverted: Bool = false) throws -> String {
        let binary = try NeededResource.require(tesseract, "tesseract", reason: "not installed (apt-get install tesseract-ocr)")
        let languages = try run(binary, ["--list-langs"])
        _ = try NeededResource.require(languages.contains("\n\(language)") ? true : nil, "tesseract's \(language) data",
                                       reason: "not installed (apt-get install tesseract-ocr-\(language))")
        var flat = Image(width: image.width, height: image.height, fill: background)
        let page = [Int(background.r), Int(background.g), Int(background.b)]
        for i in 0..<(image.width * image.height) {
            let a = Int(image.pixels[i * 4 + 3])
            for c in 0..<3 {
                let value = (Int(image.pixels[i * 4 + c]) * a + page[c] * (255 - a) + 127) / 255
                flat.pixels[i * 4 + c] = UInt8(inverted ? 255 - value : value)
            }
        }
        let file = FileManager.default.temporaryDirectory.appending(path: "ocr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try ImageEncoder.png(flat).write(to: file)
        return try run(binary, [file.path, "-", "--psm", "6", "-l", language])
    }

    /// Upper-cased, letters and digits only, runs of anything else as one space: what is compared.
    public static func normalized(_ text: String) -> String {
        String(text.uppercased().map { $0.isLetter || $0.isNumber ? $0 : " " })
            .split(separator: " ").joined(separator: " ").replacingOccurrences(of: "0", with: "O")
    }

    private static func run(_ binary: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
