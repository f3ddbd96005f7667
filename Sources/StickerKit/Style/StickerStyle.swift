import Raster

/// The sticker look applied to a cut-out: a white outline (the alpha dilated by a Euclidean
/// distance, so corners come out round), an optional soft drop shadow, an optional effect (comic,
/// puffy), cropped to the subject plus what the outline and shadow need.
public struct StickerStyle: Sendable, Hashable {
    /// Outline width in pixels; nil: `outlineFraction` of the subject's smaller side.
    public var outlineWidth: Int?
    /// The default outline width as a fraction of the subject's smaller side.
    public var outlineFraction: Double = 0.02
    /// Whether to draw the outline at all.
    public var outlined = true
    public var outlineColor = RGBA8(r: 255, g: 255, b: 255)
    public var shadow: Shadow?
    /// Transparent border around everything, in pixels.
    public var padding = 2
    /// A look applied to the subject (and, for puffy, its outline); nil: the photo's own colours.
    public var effect: Effect?

    /// The widest outline the fronts accept, in pixels (wider ones swallow the subject).
    public static let outlineWidths = 0...100

    /// A look applied on top of the cut-out.
    public enum Effect: String, Sendable, Hashable, CaseIterable, Codable {
        /// Colours posterised in OKLab to a few flat tones, a dark ink line just inside the outline.
        case comic
        /// Inflated: shaded from the silhouette's distance field, with a soft highlight.
        case puffy
    }

    /// A soft shadow under the sticker.
    public struct Shadow: Sendable, Hashable {
        /// Blur radius as a fraction of the subject's smaller side.
        public var blurFraction: Double = 0.02
        /// Downward offset as a fraction of the subject's smaller side.
        public var offsetFraction: Double = 0.01
        public var opacity: Float = 0.35
        public init() {}
    }

    public init(outlineWidth: Int? = nil, outlined: Bool = true, shadow: Shadow? = nil, effect: Effect? = nil) {
        self.outlineWidth = outlineWidth
        self.outlined = outlined
        self.shadow = shadow
        self.effect = effect
    }

    /// The cut-out without any styling.
    public static let plain = StickerStyle(outlined: false)

    /// The outline width used for a subject of `width`×`height`.
    public func resolvedOutlineWidth(width: Int, height: Int) -> Int {
        guard outlined else { return 0 }
        if let outlineWidth { return max(0, outlineWidth) }
        return max(1, Int((Double(min(width, height)) * outlineFraction).rounded()))
    }

    /// Styles `cutOut` (straight alpha, cropped to the subject). The result is larger by the margins.
    public func apply(to cutOut: Image) -> Image {
        StickerRenderer(style: self, cutOut: cutOut).render()
    }

    /// As `apply(to:)`, the canvas composited in row bands on parallel child tasks (one per core by
    /// default): the same pixels, sooner for a large sticker.
    public func apply(to cutOut: Image, bands: Int) async -> Image {
        await StickerRenderer(style: self, cutOut: cutOut).render(bands: bands)
    }
}
