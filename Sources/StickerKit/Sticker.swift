import Foundation
import Raster

/// A cut-out subject: the styled sticker image cropped to the subject (plus margin), and the
/// full-size alpha mask of the subject in the oriented photo's coordinates.
public struct Sticker: Sendable, Hashable {
    /// The sticker as shared: RGBA, cropped, outline (and shadow) applied.
    public var image: Image
    /// The subject's alpha at the photo's full, orientation-corrected size, uncropped.
    public var mask: Mask
    /// The unstyled subject (mask-cropped, edge colours cleaned) `image` was styled from, kept so a
    /// new style never re-runs the network. Nil for a sticker made from a finished image alone.
    public var cutOut: SubjectExtractor.CutOut?
    /// The style `image` has.
    public var style: StickerStyle
    /// All the photo's subjects and what another choice of them is cut from (nil when unknown):
    /// kept with the cut-out.
    public var subjects: PhotoSubjects? { cutOut?.subjects }

    public init(image: Image, mask: Mask, cutOut: SubjectExtractor.CutOut? = nil, style: StickerStyle = StickerStyle()) {
        self.image = image
        self.mask = mask
        self.cutOut = cutOut
        self.style = style
    }

    /// The same subject in `style`, drawn from the kept cut-out (no network, no photo): nil when
    /// there is no cut-out to draw from. The canvas is composited in row bands, one per core.
    @concurrent
    public func restyled(with style: StickerStyle,
                         bands: Int = ProcessInfo.processInfo.activeProcessorCount) async -> Sticker? {
        guard let cutOut else { return nil }
        guard style != self.style else { return self }
        var restyled = self
        restyled.image = await style.apply(to: cutOut.image, bands: bands)
        restyled.style = style
        return restyled
    }
}

/// What the pipeline makes of one photo.
public struct ProcessedPhoto: Sendable, Hashable {
    public var sticker: Sticker
    public var colorScheme: PhotoColorScheme

    public init(sticker: Sticker, colorScheme: PhotoColorScheme) {
        self.sticker = sticker
        self.colorScheme = colorScheme
    }

    /// The same photo with its sticker in `style` (see `Sticker.restyled(with:bands:)`); the colours
    /// stay. Nil when the sticker kept no cut-out.
    @concurrent
    public func restyled(with style: StickerStyle,
                         bands: Int = ProcessInfo.processInfo.activeProcessorCount) async -> ProcessedPhoto? {
        guard let sticker = await sticker.restyled(with: style, bands: bands) else { return nil }
        return ProcessedPhoto(sticker: sticker, colorScheme: colorScheme)
    }
}
