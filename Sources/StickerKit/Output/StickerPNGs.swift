import AtomicFiles
import Foundation
import Raster

/// The PNG files a processed photo is shown and shared as: the sticker, the sticker on a gradient
/// of its colours, and (when asked for) the subject's full-size alpha mask.
///
/// The one path from a `ProcessedPhoto` to its PNGs: `make` (the pack), the web app and `sticker`
/// all go through `render`, so the three can never disagree on what a sticker file holds.
public struct StickerPNGs: Sendable, Hashable {
    public var sticker: Data
    public var gradient: Data?
    public var mask: Data?
    /// The unstyled cut-out (`Sticker.cutOut`), kept so a new style never re-runs the network.
    public var cutOut: Data?
    /// The photo's subjects (`PhotoSubjects.fileContents`), kept with the cut-out so another
    /// choice of them never re-runs the network either.
    public var subjects: Data?
    public var subjectsCutOut: Data?

    public init(sticker: Data, gradient: Data?, mask: Data? = nil, cutOut: Data? = nil) {
        self.sticker = sticker
        self.gradient = gradient
        self.mask = mask
        self.cutOut = cutOut
    }

    /// The file names the PNGs get beside each other: `NAME.sticker.png`, `NAME.gradient.png`,
    /// `NAME.mask.png` (the pack's names).
    public enum Kind: String, Sendable, CaseIterable {
        case sticker, gradient, mask
        case cutOut = "cutout"
        public func fileName(for name: String) -> String { "\(name).\(rawValue).png" }
    }

    /// How the PNGs are encoded.
    public enum Encoding: Sendable {
        /// Each image in one piece: a batch already keeps every core busy with other photos.
        case sequential
        /// Each image in bands of rows over the cores: a lone photo (`stickers sticker`).
        case banded
    }

    /// Encodes `photo`'s sticker, plus its gradient picture and its mask when `kinds` asks for
    /// them (the sticker always), off the caller's actor. The full-size pixels can be dropped as
    /// soon as this returns. With the cut-out come the photo's subjects, when it has them.
    @concurrent
    public static func render(_ photo: ProcessedPhoto, kinds: Set<Kind> = [.sticker, .gradient],
                              gradientStyle: GradientSticker = GradientSticker(),
                              encoding: Encoding = .sequential) async throws -> StickerPNGs {
        var pngs = try await renderImages(photo, kinds: kinds, gradientStyle: gradientStyle, encoding: encoding)
        if kinds.contains(.cutOut), let subjects = photo.sticker.subjects {
            (pngs.subjects, pngs.subjectsCutOut) = try subjects.fileContents()
        }
        return pngs
    }

    @concurrent
    private static func renderImages(_ photo: ProcessedPhoto, kinds: Set<Kind>, gradientStyle: GradientSticker,
                                     encoding: Encoding) async throws(ImageCodecError) -> StickerPNGs {
        let picture = kinds.contains(.gradient) ? gradientStyle.render(photo.sticker.image, colors: photo.colorScheme.colors) : nil
        let cutOut = kinds.contains(.cutOut) ? photo.sticker.cutOut?.image : nil
        switch encoding {
        case .sequential:
            return StickerPNGs(sticker: try ImageEncoder.png(photo.sticker.image),
                               gradient: try picture.map { image throws(ImageCodecError) in try ImageEncoder.png(image) },
                               mask: kinds.contains(.mask) ? try ImageEncoder.png(photo.sticker.mask) : nil,
                               cutOut: try cutOut.map { image throws(ImageCodecError) in try ImageEncoder.png(image) })
        case .banded:
            // The images side by side, each in its bands: a mask of a megapixel is one band, which
            // one after the other would leave the second core idle (the bytes do not depend on it).
            async let sticker = banded(photo.sticker.image)
            async let gradient = banded(picture)
            async let mask = banded(kinds.contains(.mask) ? photo.sticker.mask : nil)
            async let cutOutPNG = banded(cutOut)
            return StickerPNGs(sticker: try await sticker!.get(), gradient: try await gradient?.get(),
                               mask: try await mask?.get(), cutOut: try await cutOutPNG?.get())
        }
    }

    /// `image`'s PNG in bands (nil for no image).
    @concurrent
    private static func banded(_ image: Image?) async -> Result<Data, ImageCodecError>? {
        guard let image else { return nil }
        do throws(ImageCodecError) { return .success(try await ImageEncoder.concurrentPNG(image)) } catch { return .failure(error) }
    }

    /// `mask`'s PNG in bands (nil for no mask).
    @concurrent
    private static func banded(_ mask: Mask?) async -> Result<Data, ImageCodecError>? {
        guard let mask else { return nil }
        do throws(ImageCodecError) { return .success(try await ImageEncoder.concurrentPNG(mask)) } catch { return .failure(error) }
    }

    /// A restyled sticker's PNGs: the sticker and its gradient picture (the same path, for a
    /// sticker image drawn from a kept cut-out).
    @concurrent
    public static func render(sticker image: Image, colorScheme: PhotoColorScheme,
                              gradientStyle: GradientSticker = GradientSticker()) async throws(ImageCodecError) -> StickerPNGs {
        StickerPNGs(sticker: try ImageEncoder.png(image),
                    gradient: try ImageEncoder.png(gradientStyle.render(image, colors: colorScheme.colors)))
    }

    /// The PNG of one kind, if rendered.
    public subscript(kind: Kind) -> Data? {
        switch kind {
        case .sticker: sticker
        case .gradient: gradient
        case .mask: mask
        case .cutOut: cutOut
        }
    }
}

/// A processed photo as files: its PNGs on disk and its colour scheme. What a batch keeps per
/// finished photo instead of its pixels, and what a pack is assembled from.
public struct StickerFiles: Sendable, Hashable {
    public var sticker: URL
    public var gradient: URL
    public var mask: URL?
    /// The unstyled cut-out, when kept: what a restyle draws from.
    public var cutOut: URL?
    /// The photo's subjects (`PhotoSubjects.fileName`, its union cut-out beside it), when kept:
    /// what another choice of subjects is cut from.
    public var subjects: URL?
    /// The subjects chosen (0-based ranks), when another choice than the kept one was made in
    /// this process.
    public var chosenSubjects: [Int]?
    public var colorScheme: PhotoColorScheme
    /// The sticker's style, when known (made or restyled in this process).
    public var style: StickerStyle?
    /// The caption drawn on the sticker, when one was given.
    public var caption: Caption?
    /// The brush strokes applied to the cut-out, when any: `mask` and `cutOut` stay the unedited
    /// ones, which the strokes (all of them, replayed) are applied to again by the next change.
    public var edits: BrushStrokes?
    /// The point a closer look found the subject under (`[x, y]`), when that chose the cut-out.
    public var chosenPoint: [Int]?
    /// A clip's animated sticker: `sticker` is an animated WebP, `gradient` its first frame (PNG).
    public var isAnimated = false

    public init(sticker: URL, gradient: URL, mask: URL?, cutOut: URL? = nil, subjects: URL? = nil, colorScheme: PhotoColorScheme) {
        self.sticker = sticker
        self.gradient = gradient
        self.mask = mask
        self.cutOut = cutOut
        self.subjects = subjects
        self.colorScheme = colorScheme
    }
}

extension StickerPNGs {
    /// Writes the PNGs into `folder` as `sticker.png`, `gradient.png` and `mask.png`, each
    /// atomically (and flushed), and returns where they are.
    public func write(into folder: URL, colorScheme: PhotoColorScheme) throws -> StickerFiles {
        func place(_ data: Data, _ kind: Kind) throws -> URL {
            let url = folder.appending(path: "\(kind.rawValue).png")
            try AtomicFileWriter.write(data, to: url)
            return url
        }
        let stickerURL = try place(sticker, .sticker)
        guard let gradient else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "no gradient picture was rendered"]) }
        var subjectsURL: URL?
        if let subjects, let subjectsCutOut {
            try AtomicFileWriter.write(subjectsCutOut, to: folder.appending(path: PhotoSubjects.cutOutFileName))
            subjectsURL = folder.appending(path: PhotoSubjects.fileName)
            try AtomicFileWriter.write(subjects, to: folder.appending(path: PhotoSubjects.fileName))
        }
        return StickerFiles(sticker: stickerURL, gradient: try place(gradient, .gradient),
                            mask: try mask.map { try place($0, .mask) }, cutOut: try cutOut.map { try place($0, .cutOut) },
                            subjects: subjectsURL, colorScheme: colorScheme)
    }
}
