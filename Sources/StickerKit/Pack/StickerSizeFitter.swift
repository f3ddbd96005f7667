import Foundation
import Raster

/// One sticker encoded to fit a byte limit, and what that cost in quality.
public struct FittedSticker: Sendable, Hashable {
    public var webp: Data
    public var width: Int
    public var height: Int
    /// nil when lossless; else the lossy WebP quality (0…100).
    public var quality: Int?
    /// The subject's size relative to the platform's full fit (1: not shrunk).
    public var scale: Double
    /// How many WebP encodes the search took.
    public var encodes: Int

    public var bytes: Int { webp.count }
    public var isLossless: Bool { quality == nil }
}

/// Why a sticker could not be made to fit.
public enum StickerFitError: Error, Sendable, Equatable {
    case codec(ImageCodecError)
    case cannotFit(limit: Int, smallest: Int)
}

/// Size targeting: the best-looking WebP under a byte limit.
///
/// Lossless first (exact pixels; a cut-out with flat areas often fits). Over the limit, the
/// highest lossy quality that fits, searched from `qualityCeiling` down to `qualityFloor` by
/// bisection (file size grows with quality); when even the floor is too big, the subject is
/// shrunk on its canvas step by step (`render(scale)` draws it) and the quality searched again.
public enum StickerSizeFitter {
    /// Above this, lossy WebP is visually indistinguishable from the source for cut-outs, and
    /// costs up to twice the bytes; the search starts here.
    public static let qualityCeiling = 95
    /// Below this the search shrinks the subject instead of degrading it further.
    public static let qualityFloor = 50
    /// Below this, blocking and smeared colour show on flat areas and along the outline: the
    /// CLI says so on stderr.
    public static let visibleQualityThreshold = 75
    /// Lossless effort: WebP method 0 and effort 25 take 1/14 the time of libwebp's one-call
    /// default (method 4, effort 70) for files ~26 % larger (`stickers-bench webp`: 11 vs 155 ms
    /// CPU on a 512×512 photo-like sticker); the lossless try only has to answer "does it fit".
    static let lossless = WebP.Settings(lossless: true, quality: 25, method: 0)
    /// Lossy: method 2, half the time of libwebp's default 4 at the same quality and about the
    /// same size (`stickers-bench webp`, quality 95: 17 vs 37 ms CPU, 44.7 vs 45.2 KB); methods 3+
    /// add rate-distortion passes. The alpha plane stays lossless (lazy_webp.c).
    ///
    /// Clean edges come from `exact` = false: libwebp then replaces the luma of the transparent
    /// pixels in every block that holds visible ones with the visible pixels' average, and
    /// averages chroma weighted by alpha, so the transparent canvas's black never reaches the
    /// outline. Measured on a white outline over transparent black at quality 50 (darkest edge
    /// pixel, 255 = no fringe): exact=false 228; our own edge-colour bleed on top 230 (+20–29 ms a
    /// sticker, so not done); exact=true 215 (the fringe this avoids).
    static func lossy(_ quality: Int) -> WebP.Settings { .lossy(quality: Float(quality), method: 2) }
    static let scales: [Double] = [1, 0.9, 0.8, 0.7, 0.6, 0.5]

    /// - Parameter render: the sticker drawn on its canvas (straight alpha) with the subject at
    ///   `scale` (1 = full fit).
    public static func fit(limit: Int, render: (Double) -> Image) throws(StickerFitError) -> FittedSticker {
        var encodes = 0
        var smallest = Int.max
        func encode(_ image: Image, _ settings: WebP.Settings) throws(StickerFitError) -> Data {
            encodes += 1
            do {
                let data = try WebP.encode(image, settings)
                smallest = min(smallest, data.count)
                return data
            } catch { throw .codec(error) }
        }
        for scale in scales {
            let image = render(scale)
            func result(_ data: Data, quality: Int?) -> FittedSticker {
                FittedSticker(webp: data, width: image.width, height: image.height, quality: quality, scale: scale, encodes: encodes)
            }
            if scale == 1 {
                let data = try encode(image, lossless)
                if data.count <= limit { return result(data, quality: nil) }
            }
            let top = try encode(image, lossy(qualityCeiling))
            if top.count <= limit { return result(top, quality: qualityCeiling) }
            // Bisection for the highest quality in floor…ceiling-1 that fits.
            var low = qualityFloor, high = qualityCeiling - 1
            var best: (data: Data, quality: Int)?
            while low <= high {
                let middle = (low + high + 1) / 2
                let data = try encode(image, lossy(middle))
                if data.count <= limit {
                    best = (data, middle)
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            if let best { return result(best.data, quality: best.quality) }
        }
        throw .cannotFit(limit: limit, smallest: smallest)
    }
}
