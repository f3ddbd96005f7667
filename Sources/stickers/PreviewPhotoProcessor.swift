import Foundation
import Raster
import StickerKit

/// The engine's stand-in for `serve --preview` (the browser tests, which test the app rather than
/// the engine) and for `serve` when the cut-out model cannot be had (the app stays usable and says
/// why): it decodes the photo (refusing what is not a readable image, as the engine does), uses
/// the whole photo, scaled down, as the "sticker", and takes its colours from a coarse histogram.
nonisolated struct PreviewPhotoProcessor: PhotoProcessing {
    var maxDimension = 512
    var colorCount = 5

    @concurrent func process(data: Data) async throws -> ProcessedPhoto {
        let decoded: Image
        do {
            decoded = try ImageDecoder.decode(data, maxDimension: maxDimension)
        } catch {
            throw PhotoProcessingError.unreadable(error)
        }
        try Task.checkCancellation()
        let image = Self.shrunk(decoded, to: maxDimension)
        // The whole photo is its own cut-out, unstyled, so the page's style controls work too; its
        // left and right halves are two subjects, so choosing subjects can be tried as well.
        let mask = Mask(width: image.width, height: image.height, fill: 255)
        let sticker = Sticker(image: image, mask: mask,
                              cutOut: SubjectExtractor.CutOut(mask: mask, image: image, originX: 0, originY: 0,
                                                              subjects: .sideBySide(image)),
                              style: .plain)
        return ProcessedPhoto(sticker: sticker, colorScheme: Self.colors(of: image, count: colorCount))
    }

    /// Nearest-neighbour shrink: a preview, not the engine's resampling.
    static func shrunk(_ image: Image, to maxDimension: Int) -> Image {
        let longer = max(image.width, image.height)
        guard longer > maxDimension else { return image }
        let width = max(1, image.width * maxDimension / longer)
        let height = max(1, image.height * maxDimension / longer)
        var out = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                out[x, y] = image[x * image.width / width, y * image.height / height]
            }
        }
        return out
    }

    /// The heaviest cells of a 4×4×4 RGB histogram, each reported as its mean colour.
    static func colors(of image: Image, count: Int) -> PhotoColorScheme {
        var sums = [SIMD4<Double>](repeating: .zero, count: 64)
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) {
                let p = image[x, y]
                let cell = Int(p.r >> 6) << 4 | Int(p.g >> 6) << 2 | Int(p.b >> 6)
                sums[cell] += SIMD4(Double(p.r), Double(p.g), Double(p.b), 1)
            }
        }
        let top = sums.filter { $0.w > 0 }.sorted { $0.w > $1.w }.prefix(count)
        let total = top.reduce(0) { $0 + $1.w }
        return PhotoColorScheme(colors: top.map { s in
            PaletteColor(red: UInt8(s.x / s.w), green: UInt8(s.y / s.w), blue: UInt8(s.z / s.w), weight: s.w / total)
        })
    }
}
