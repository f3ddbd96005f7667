import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerKit

/// `stickers palette IMAGE [-n N] [--mood MOOD] [--format FORMAT] [-o FILE] [--contrast]`
struct PaletteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "palette",
        abstract: "Print or save the dominant colours of a photo, heaviest first.",
        discussion: """
            Formats: text (#RRGGBB  42.0% per line), json ({"colors":[{"hex":"#RRGGBB","weight":0.42,
            "name":"tomato","textColor":"#000000","contrast":{"white":3.5,"black":5.9}}]}: the nearest
            xkcd colour name, the more readable text colour and WCAG 2.x ratios), css (custom
            properties), gpl (GIMP palette), ase (Adobe Swatch Exchange), aco (Photoshop swatches),
            procreate (.swatches), sketchpalette (Sketch Palettes), scss (variables), tailwind (colors).
            Moods pick the photo's own colours that fit: colorful, bright, muted, deep or dark.
            --contrast prints the WCAG 2.x contrast matrix of the colours (with -o, the palette
            still goes to FILE).
            Exit status: 64 bad arguments, 65 not a usable image, 74 cannot read or write a file.
            """
    )

    @Argument(help: "The photo (JPEG, PNG or WebP).")
    var image: String

    @Option(name: [.customShort("n"), .customLong("colors")], help: "How many colours, 3…10.")
    var count: Int = PaletteCommand.defaultCount

    @Option(help: "Output format: \(PaletteFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: PaletteFormat = PaletteCommand.defaultFormat

    @Option(help: "Pick the photo's colours for a mood: \(PaletteMood.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mood: PaletteMood?

    @Flag(help: "Print the WCAG 2.x contrast matrix of the colours, with AA/AAA marks.")
    var contrast = false

    @Option(name: .shortAndLong, help: "Write to FILE (atomically) instead of standard output.")
    var output: String?

    /// The defaults, named for `PalettePlainArguments` too.
    static let defaultCount = 5
    static let defaultFormat = PaletteFormat.text

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
        do { data = try InputBytes.read(image) } catch {
            throw fail("cannot read \(image): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        let scheme: PhotoColorScheme
        do { scheme = try ColorExtractor().extractColors(fromImageData: data, count: count, mood: mood) } catch {
            // A GIF or a video by its bytes (an APNG is read as the still PNG it also is): say what it is.
            if ImageFormat.sniff(data) != .png, ClipDetection.isClip(head: data.prefix(16), name: "") {
                throw fail("\(image) is a clip: palette takes a photo (JPEG, PNG or WebP), e.g. a frame of it", ExitStatus.dataError)
            }
            throw fail("\(image) is not a usable image: \(error.reason)", ExitStatus.dataError)
        }
        guard !scheme.colors.isEmpty else {
            throw fail("\(image) has no visible pixels (it is fully transparent)", ExitStatus.dataError)
        }
        let encoded = format.encode(scheme, name: url.deletingPathExtension().lastPathComponent)
        if let output {
            do { try AtomicFileWriter.write(encoded, to: URL(fileURLWithPath: output)) } catch {
                throw fail("cannot write \(output): \(ErrorReason.of(error))", ExitStatus.ioError)
            }
        }
        if contrast {
            FileHandle.standardOutput.write(Data(ContrastTable.text(scheme).utf8))
        } else if output == nil {
            FileHandle.standardOutput.write(encoded)
        }
    }
}

extension PaletteFormat: ExpressibleByArgument {}
extension PaletteMood: ExpressibleByArgument {}

