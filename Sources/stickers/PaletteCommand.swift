import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerKit

/// `stickers palette IMAGE [-n N] [--format text|json|css|gpl|ase] [-o FILE]`
struct PaletteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "palette",
        abstract: "Print or save the dominant colours of a photo, heaviest first.",
        discussion: """
            Formats: text (#RRGGBB  42.0% per line), json ({"colors":[{"hex":"#RRGGBB","weight":0.42}]}),
            css (custom properties), gpl (GIMP palette), ase (Adobe Swatch Exchange).
            Exit status: 64 bad arguments, 65 not a usable image, 74 cannot read or write a file.
            """
    )

    @Argument(help: "The photo (JPEG or PNG).")
    var image: String

    @Option(name: [.customShort("n"), .customLong("colors")], help: "How many colours, 3…10.")
    var count: Int = 5

    @Option(help: "Output format: text, json, css, gpl or ase.")
    var format: PaletteFormat = .text

    @Option(name: .shortAndLong, help: "Write to FILE (atomically) instead of standard output.")
    var output: String?

    func validate() throws {
        guard ColorExtractor.supportedCounts.contains(count) else {
            throw ValidationError("-n must be between \(ColorExtractor.supportedCounts.lowerBound) and \(ColorExtractor.supportedCounts.upperBound), not \(count)")
        }
    }

    @MainActor func run() async throws {
        AllocatorTuning.keepFreedMemoryForReuse()
        let url = URL(fileURLWithPath: image)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: image, isDirectory: &isFolder), isFolder.boolValue {
            throw fail("\(image) is a folder, not an image file", ExitStatus.ioError)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw fail("cannot read \(image): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        let scheme: PhotoColorScheme
        do { scheme = try ColorExtractor().extractColors(fromImageData: data, count: count) } catch {
            throw fail("\(image) is not a usable image: \(error.reason)", ExitStatus.dataError)
        }
        guard !scheme.colors.isEmpty else {
            throw fail("\(image) has no visible pixels (it is fully transparent)", ExitStatus.dataError)
        }
        let encoded = format.encode(scheme, name: url.deletingPathExtension().lastPathComponent)
        guard let output else {
            FileHandle.standardOutput.write(encoded)
            return
        }
        do { try AtomicFileWriter.write(encoded, to: URL(fileURLWithPath: output)) } catch {
            throw fail("cannot write \(output): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
    }
}

extension PaletteFormat: ExpressibleByArgument {}

