import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerKit

/// `stickers sticker IMAGE -o OUT.png`: one photo in, one sticker out.
struct StickerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sticker",
        abstract: "Cut the main subject out of a photo as a sticker (PNG with a white outline)."
    )

    @Argument(help: "The photo (JPEG or PNG).")
    var image: String

    @Option(name: .shortAndLong, help: "Where to write the sticker PNG.")
    var output: String

    @Option(help: "Also write the subject's alpha: 8-bit grey PNG at the photo's full, oriented size, uncropped.")
    var mask: String?

    @Option(help: "Also write the sticker on a gradient of the photo's colours.")
    var gradient: String?

    @OptionGroup(title: "Style")
    var style: StyleOptions

    @Option(help: "The cut-out model (ONNX) to use instead of the cached U²-Net-p (also: STICKERS_MODEL).")
    var model: String?

    @MainActor func run() async throws {
        AllocatorTuning.keepFreedMemoryForReuse()
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: image)) } catch {
            throw fail("cannot read \(image): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        // The model loads (~25 ms: parse, prepare weights) while the photo decodes; the decode's
        // error is reported first, as before.
        async let loading = Self.loadModel(explicitPath: model)
        let photo: Image
        do { photo = try await Self.decode(data) } catch {
            throw fail("\(image) is not a usable photo: \(error)", ExitStatus.dataError)
        }
        let predictor: U2NetSaliency
        switch await loading {
        case .success(let loaded): predictor = loaded
        case .failure(let error): throw fail("the cut-out model cannot be used: \(error)", ExitStatus.unavailable)
        }

        let sticker: Sticker
        do {
            sticker = try await SubjectExtractor(predictor: predictor, style: style.style).extractSubject(from: photo)
        } catch .noClearSubject {
            throw fail("\(image): no clear subject to cut out (nothing stands out from the background)", ExitStatus.dataError)
        } catch .modelFailed(let reason) {
            // The model cannot run: a resource problem, not the photo's.
            throw fail("the cut-out model cannot run: \(reason)", ExitStatus.unavailable)
        } catch {
            throw fail("\(image): \(error)", ExitStatus.dataError)
        }

        // Both PNGs encode side by side, each in bands over the cores.
        let stickerPNG: Data, maskPNG: Data?
        do {
            async let encodedSticker = ImageEncoder.concurrentPNG(sticker.image)
            async let encodedMask = mask == nil ? nil : ImageEncoder.concurrentPNG(sticker.mask)
            (stickerPNG, maskPNG) = try await (encodedSticker, encodedMask)
        } catch {
            throw fail("cannot encode the sticker: \(error)", ExitStatus.ioError)
        }
        try write(stickerPNG, to: output)
        if let mask, let maskPNG { try write(maskPNG, to: mask) }
        if let gradient {
            // The gradient runs through the subject's own colours.
            let picture = await Self.gradientPicture(of: sticker, photo: photo)
            do { try write(await ImageEncoder.concurrentPNG(picture), to: gradient) } catch let error as ImageCodecError {
                throw fail("cannot encode the gradient picture: \(error)", ExitStatus.ioError)
            }
        }
    }

    @concurrent private static func decode(_ data: Data) async throws(ImageCodecError) -> Image {
        try ImageDecoder.decode(data)
    }

    @concurrent private static func loadModel(explicitPath: String?) async -> Result<U2NetSaliency, CutOutModelError> {
        do {
            return .success(try await CutOutModel.load(explicitPath: explicitPath,
                                                       threads: min(2, ProcessInfo.processInfo.activeProcessorCount),
                                                       log: { line in FileHandle.standardError.write(Data("stickers: \(line)\n".utf8)) }))
        } catch {
            return .failure(error)
        }
    }

    @concurrent private static func gradientPicture(of sticker: Sticker, photo: Image) async -> Image {
        let thumbnail = photo.downsampled(toFit: 256)
        let scheme = ColorExtractor().extractColors(from: thumbnail, count: 5, mask: sticker.mask)
        return GradientSticker().render(sticker.image, colors: scheme.colors)
    }

    /// Writes atomically (a temporary file renamed into place): never a partial PNG.
    @MainActor private func write(_ bytes: Data, to path: String) throws {
        do { try AtomicFileWriter.write(bytes, to: URL(fileURLWithPath: path)) } catch {
            throw fail("cannot write \(path): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
    }
}
