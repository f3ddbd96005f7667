import Foundation
import Raster
import StickerKit

/// Everything that shapes a clip's animated sticker, besides the clip's bytes: the key of its cache
/// entry. A canonical, versioned encoding — a fixed list of fields, written as JSON with sorted
/// keys — rather than the types' descriptions, which change when a type gains a field or its
/// description is reworded (and then no entry is ever found again, or worse, an entry made with
/// other settings is).
///
/// Each nested type mirrors one settings type field for field; `AnimatedStickerKeyTests` fails
/// when a settings type gains a field this key does not carry. Adding it here changes the key of
/// every clip (an old entry is then simply not found, and trimmed in time); a change of what a
/// field means, or of the engine's output for the same settings, bumps `version`.
nonisolated struct AnimatedStickerKey: Codable, Sendable, Hashable {
    static let currentVersion = 18

    var version = Self.currentVersion
    /// The network that cuts out: the engine and model version (`StickerEngine.engineVersion`) and
    /// the predictor's type (the web app's stand-in without a model is another one).
    var engine: String
    var rules: Rules
    var style: Style
    var maker: Maker
    var tracking: Tracking

    struct Rules: Codable, Sendable, Hashable {
        var platform: String
        var fileExtension: String
        var canvas: Canvas
        var maximumBytes: Int
        var maximumSeconds: Double
        var maximumFramesPerSecond: Double
    }

    struct Canvas: Codable, Sendable, Hashable {
        var maximumSide: Int
        var exactSide: Bool
        var square: Bool
    }

    struct Style: Codable, Sendable, Hashable {
        var outlineWidth: Int?
        var outlineFraction: Double
        var outlined: Bool
        /// `#RRGGBBAA`.
        var outlineColor: String
        var shadow: Shadow?
        var padding: Int
        var effect: String?
    }

    struct Shadow: Codable, Sendable, Hashable {
        var blurFraction: Double
        var offsetFraction: Double
        var opacity: Float
    }

    /// `ClipStickerMaker`'s own settings (its style is `style`, its canvas the rules' canvas).
    struct Maker: Codable, Sendable, Hashable {
        var workingSide: Int
        var maximumFramesPerSecond: Double
        var maximumPixelCount: Int
    }

    /// `ClipSubjectTracker.Settings`.
    struct Tracking: Codable, Sendable, Hashable {
        var keyframeInterval: Int
        var previousWeight: Float
        var trackingReach: Int
        var refusesScenery: Bool
        var usesBackgroundPlate: Bool
        var plateSamples: Int
        var plateAgreeing: Int
        var plateSubjectReach: Int
        var edgeSteepness: Float
        /// Its own Codable: every threshold of the plate's matte, by name.
        var matte: PlateMatte
        /// Its own Codable too (nil: a clip without a subject the network sees is refused).
        var motionSubject: MotionSubject?
    }

    init(engine: String, rules: AnimatedStickerRules, style: StickerStyle, maker: ClipStickerMaker) {
        self.engine = engine
        self.rules = Rules(platform: rules.platform.rawValue, fileExtension: rules.fileExtension,
                           canvas: Canvas(maximumSide: rules.canvas.maximumSide, exactSide: rules.canvas.exactSide,
                                          square: rules.canvas.square),
                           maximumBytes: rules.maximumBytes, maximumSeconds: rules.maximumSeconds,
                           maximumFramesPerSecond: rules.maximumFramesPerSecond)
        let color = style.outlineColor
        self.style = Style(outlineWidth: style.outlineWidth, outlineFraction: style.outlineFraction, outlined: style.outlined,
                           outlineColor: String(format: "#%02X%02X%02X%02X", color.r, color.g, color.b, color.a),
                           shadow: style.shadow.map { Shadow(blurFraction: $0.blurFraction, offsetFraction: $0.offsetFraction,
                                                             opacity: $0.opacity) },
                           padding: style.padding, effect: style.effect?.rawValue)
        self.maker = Maker(workingSide: maker.workingSide, maximumFramesPerSecond: maker.maximumFramesPerSecond,
                           maximumPixelCount: maker.maximumPixelCount)
        let tracking = maker.tracking
        self.tracking = Tracking(keyframeInterval: tracking.keyframeInterval, previousWeight: tracking.previousWeight,
                                 trackingReach: tracking.trackingReach, refusesScenery: tracking.refusesScenery,
                                 usesBackgroundPlate: tracking.usesBackgroundPlate, plateSamples: tracking.plateSamples,
                                 plateAgreeing: tracking.plateAgreeing, plateSubjectReach: tracking.plateSubjectReach,
                                 edgeSteepness: tracking.edgeSteepness, matte: tracking.matte,
                                 motionSubject: tracking.motionSubject)
    }

    /// The canonical text: JSON, keys sorted, no spaces. Also the entry's `identity` (a person
    /// reading `entry.json` sees what made it).
    var canonical: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Plain value types with finite numbers: encoding cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The cache entry's key: the clip's content digest (hex) and this.
    func diskKey(clipDigest: String) -> ProcessedPhotoDiskCache.Key {
        ProcessedPhotoDiskCache.Key(digest: clipDigest, identity: canonical, kind: .animated)
    }
}
