import ArgumentParser
import Foundation
import Raster
import StickerKit

/// The caption options `sticker` and `make` share: the text, where it goes, its colour, its font.
struct CaptionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Meme-style text on the sticker (at most \(Caption.maximumLength) characters; wrapped when long).",
                               valueName: "text"))
    var caption: String?

    @Option(help: "Where the caption goes: top or bottom.")
    var captionPosition: Caption.Position = .bottom

    @Option(help: ArgumentHelp("The caption's letters' colour as hex (default: #FFFFFF; the stroke contrasts).", valueName: "hex"))
    var captionColor: String?

    @Option(help: ArgumentHelp("The caption's font file (TrueType/OpenType; default: DejaVu Sans Bold).", valueName: "path"))
    var font: String?

    func validate() throws {
        if let captionColor, RGBA8(hex: captionColor) == nil {
            throw ValidationError("--caption-color must be a hex colour such as #FFFFFF or #FFF, not '\(captionColor)'")
        }
        if let font, !FileManager.default.isReadableFile(atPath: font) {
            throw ValidationError("--font \(font): no such readable file")
        }
        if let caption { try Self.check(self.caption(caption), source: "--caption") }
    }

    /// The caption with `text` in these options' position, colour and font.
    func caption(_ text: String) -> Caption {
        Caption(text: text, position: captionPosition,
                color: captionColor.flatMap { RGBA8(hex: $0) } ?? RGBA8(r: 255, g: 255, b: 255), fontPath: font)
    }

    /// The `--caption` given, if any.
    var single: Caption? { caption.map { self.caption($0) } }

    /// Checks what can be checked before any photo is processed (length, font file).
    static func check(_ caption: Caption, source: String) throws {
        do { try caption.validate() } catch { throw ValidationError("\(source): \(error)") }
    }
}

/// `sticker`'s brush edits and the box that chooses a subject.
struct EditOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Remove the cut-out where this mask is painted (grey or alpha PNG at the photo's displayed size, white = painted).",
                               valueName: "mask.png"))
    var erase: String?

    @Option(help: ArgumentHelp("Add the photo back where this mask is painted (as --erase).", valueName: "mask.png"))
    var restore: String?

    @Option(help: ArgumentHelp("Cut out the subject inside this rectangle of the (orientation-corrected) photo; x1, y1 exclusive.",
                               valueName: "X0,Y0,X1,Y1"))
    var box: BoxArgument?

    func validate() throws {
        for (name, path) in [("--erase", erase), ("--restore", restore)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(name) \(path): no such readable file")
            }
        }
    }

    /// The brush masks read and fitted to a `width`×`height` photo; a mask that is not an image
    /// or not of the photo's shape is a usage error (64).
    @MainActor func edits(width: Int, height: Int) throws -> CutOutEdits {
        func load(_ path: String?, _ name: String) throws -> Mask? {
            guard let path else { return nil }
            let image: Image
            do { image = try ImageDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw fail("\(name) \(path) is not a readable PNG/JPEG/WebP mask: \(error)", ExitStatus.usage)
            }
            do { return try CutOutEdits.brushMask(from: image, width: width, height: height) } catch {
                throw fail("\(name) \(path): \(error)", ExitStatus.usage)
            }
        }
        return CutOutEdits(erase: try load(erase, "--erase"), restore: try load(restore, "--restore"))
    }
}

/// `--box X0,Y0,X1,Y1`: whole pixels, x1 > x0, y1 > y0.
struct BoxArgument: ExpressibleByArgument, Equatable {
    let x0: Int, y0: Int, x1: Int, y1: Int

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x0 = parts[0], let y0 = parts[1], let x1 = parts[2], let y1 = parts[3],
              x1 > x0, y1 > y0 else { return nil }
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
    }
}

extension Caption.Position: ExpressibleByArgument {}
