import Raster

/// A cut-out subject: the styled sticker image cropped to the subject (plus margin), and the
/// full-size alpha mask of the subject in the oriented photo's coordinates.
public struct Sticker: Sendable, Hashable {
    /// The sticker as shared: RGBA, cropped, outline (and shadow) applied.
    public var image: Image
    /// The subject's alpha at the photo's full, orientation-corrected size, uncropped.
    public var mask: Mask

    public init(image: Image, mask: Mask) {
        self.image = image
        self.mask = mask
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
}
