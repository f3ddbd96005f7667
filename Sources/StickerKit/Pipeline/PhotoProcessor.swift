import Foundation
import Raster

/// The engine behind the sticker-pack app: a photo's bytes in, its sticker and its subject's
/// dominant colours out.
///
/// The photo is decoded once, at the size a shared sticker needs: a JPEG at the smallest DCT scale
/// whose long side is still at least `stickerDimension` (a 20 MP photo is decoded at 1/2 scale,
/// a quarter of the pixels and memory; `nil` decodes at full size). The cut-out and the
/// colours then run in parallel (`async let`): the colour stage prepares its small image at
/// once, waits only for the network's saliency — the moment the subject is located — and
/// extracts the subject's colours while the cut-out goes on refining the edge at full resolution.
/// Each call makes its own `ColorExtractor` (it owns scratch buffers and is not Sendable).
public struct PhotoProcessor: PhotoProcessing {
    public var subjectExtractor: SubjectExtractor
    /// How many colours each scheme has (3…10).
    public var colorCount: Int
    /// Run the colour stage beside the cut-out (the default) or after it (for benchmarks).
    public var runsStagesConcurrently = true
    public var limits = DecodingLimits.default
    /// The smallest long side the photo is decoded at (see above); the sticker and its mask have
    /// the decoded size.
    public var stickerDimension: Int? = 2048
    /// The engine and model version (set by whoever loaded the model); part of `outputIdentity`.
    public var engineVersion = "engine-1"

    public init(subjectExtractor: SubjectExtractor, colorCount: Int = 5) {
        self.subjectExtractor = subjectExtractor
        self.colorCount = colorCount
    }

    /// Every setting that shapes the output, spelled out (the settings are value types whose
    /// descriptions list their fields): a new option changes it without anyone remembering to.
    public var outputIdentity: String {
        "\(engineVersion);colors=\(colorCount);dimension=\(stickerDimension.map(String.init) ?? "full");"
            + "limits=\(limits);style=\(subjectExtractor.style);presence=\(subjectExtractor.presence);"
            + "cleanup=\(subjectExtractor.cleanup);refinement=\(subjectExtractor.refinement);"
            + "choice=\(subjectExtractor.choice)"
    }

    @concurrent
    public func process(data: Data) async throws -> ProcessedPhoto {
        let image: Image
        do {
            image = try ImageDecoder.decode(data, maxDimension: stickerDimension, limits: limits)
        } catch {
            throw PhotoProcessingError.unreadable(error)
        }
        try Task.checkCancellation()
        return try await runsStagesConcurrently ? processConcurrently(image) : processSequentially(image)
    }

    private func processConcurrently(_ image: Image) async throws -> ProcessedPhoto {
        let (saliencies, saliencyFound) = AsyncStream.makeStream(of: Plane.self, bufferingPolicy: .bufferingNewest(1))
        var extractor = subjectExtractor
        extractor.located = { saliencyFound.yield($0) }

        async let sticker = Self.sticker(of: image, using: extractor, then: saliencyFound)
        async let scheme = Self.colorScheme(of: image, count: colorCount, subjectFrom: saliencies)
        return try await ProcessedPhoto(sticker: sticker, colorScheme: scheme)
    }

    private func processSequentially(_ image: Image) async throws -> ProcessedPhoto {
        let sticker = try await Self.sticker(of: image, using: subjectExtractor, then: nil)
        try Task.checkCancellation()
        let thumbnail = image.downsampled(toFit: Self.colorImageSize)
        let scheme = ColorExtractor().extractColors(from: thumbnail, count: colorCount, mask: sticker.mask)
        return ProcessedPhoto(sticker: sticker, colorScheme: scheme)
    }

    /// The colour stage works on an image of this long side (what ColorExtractor reduces to anyway).
    static let colorImageSize = 256

    private static func sticker(of image: Image, using extractor: SubjectExtractor,
                                then finished: AsyncStream<Plane>.Continuation?) async throws -> Sticker {
        defer { finished?.finish() } // Whatever happens, the colour stage stops waiting.
        do {
            return try await extractor.extractSubject(from: image)
        } catch {
            try Task.checkCancellation()
            switch error {
            case .noClearSubject, .emptyImage, .noSuchSubject: throw PhotoProcessingError.noClearSubject
            case .modelFailed: throw PhotoProcessingError.engineFailure(error.description)
            }
        }
    }

    private static func colorScheme(of image: Image, count: Int,
                                     subjectFrom saliencies: AsyncStream<Plane>) async throws -> PhotoColorScheme {
        let thumbnail = image.downsampled(toFit: colorImageSize)
        var located = saliencies.makeAsyncIterator()
        guard let saliency = await located.next() else {
            // The cut-out failed before locating a subject; its error is the one reported.
            try Task.checkCancellation()
            return PhotoColorScheme(colors: [])
        }
        let mask = Mask(width: saliency.width, height: saliency.height,
                        values: saliency.values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) })
        return ColorExtractor().extractColors(from: thumbnail, count: count, mask: mask)
    }
}
