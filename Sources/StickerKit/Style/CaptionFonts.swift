import CFreeType
import Foundation

/// A FreeType library and the font faces opened in it for one caption, with each character's
/// font chosen: the caption's own font when it has the glyph, else the first installed fallback
/// that has it.
///
/// FreeType's objects must not be used from two threads at once, so an instance is made, used and
/// freed inside one synchronous render (a class only for `deinit`, never shared or sent).
final class CaptionFonts {
    /// A character's glyph: which face, which glyph index in it.
    struct Glyph: Hashable {
        var face: Int
        var index: UInt32
        /// A space: advanced over, never drawn (and present whatever the font).
        var isSpace = false
    }

    private let library: FT_Library
    private var faces: [FT_Face] = []
    private var paths: [String] = []
    /// Fallback paths already tried (opened or not), so each is opened at most once.
    private var triedFallbacks: Set<String> = []

    /// Opens `fontPath` (an unreadable or invalid file throws), or with nil the default font or,
    /// when it is not installed, the first fallback that is.
    init(fontPath: String?) throws(CaptionError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw .noFontInstalled }
        self.library = library
        if let fontPath {
            guard try open(fontPath, required: true) != nil else { throw .noFontInstalled }
        } else {
            for path in [Caption.defaultFontPath] + Caption.fallbackFontPaths where (try? open(path, required: false)) != nil {
                break
            }
            guard !faces.isEmpty else { throw .noFontInstalled }
        }
    }

    deinit {
        for face in faces { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The face at `index` (0: the caption's own font).
    func face(_ index: Int) -> FT_Face { faces[index] }

    var faceCount: Int { faces.count }

    /// Opens a face; nil (or a throw when `required`) if the file is missing or not a font.
    @discardableResult
    private func open(_ path: String, required: Bool) throws(CaptionError) -> Int? {
        triedFallbacks.insert(path)
        guard FileManager.default.isReadableFile(atPath: path) else {
            if required { throw .fontUnavailable(path: path, reason: "no such readable file") }
            return nil
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, 0, &face)
        guard error == 0, let face else {
            if required { throw .fontUnavailable(path: path, reason: "not a font FreeType can open (error \(error))") }
            return nil
        }
        // Bitmap-only faces (colour emoji) have fixed sizes and cannot be scaled to the caption.
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(face)
            if required { throw .fontUnavailable(path: path, reason: "not a scalable (outline) font") }
            return nil
        }
        faces.append(face)
        paths.append(path)
        return faces.count - 1
    }

    /// The glyph of every scalar of `text` except newlines and invisible format characters
    /// (variation selectors, joiners), by line; throws naming the characters no font covers.
    func glyphs(of text: String) throws(CaptionError) -> [[Glyph]] {
        var lines: [[Glyph]] = [[]]
        var uncovered: [String] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n" { lines.append([]); continue }
            if scalar == " " { lines[lines.count - 1].append(Glyph(face: 0, index: 0, isSpace: true)); continue }
            switch scalar.properties.generalCategory {
            case .format, .control: continue
            case .nonspacingMark where scalar.properties.isVariationSelector: continue
            default: break
            }
            if let glyph = glyph(for: scalar) {
                lines[lines.count - 1].append(glyph)
            } else if !uncovered.contains(String(scalar)) {
                uncovered.append(String(scalar))
            }
        }
        guard uncovered.isEmpty else { throw .uncoveredCharacters(uncovered) }
        return lines
    }

    private func glyph(for scalar: Unicode.Scalar) -> Glyph? {
        func lookup(_ face: Int) -> Glyph? {
            let index = FT_Get_Char_Index(faces[face], FT_ULong(scalar.value))
            return index == 0 ? nil : Glyph(face: face, index: index)
        }
        for face in faces.indices { if let glyph = lookup(face) { return glyph } }
        for path in Caption.fallbackFontPaths where !triedFallbacks.contains(path) {
            guard let face = try? open(path, required: false) else { continue }
            if let glyph = lookup(face) { return glyph }
        }
        return nil
    }

    /// Sets every face's size to `pixels` (em height).
    func setSize(_ pixels: Int) {
        for face in faces { FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels)) }
    }

    /// The caption font's line metrics at the current size, in pixels.
    var lineMetrics: (ascender: Double, height: Double) {
        let metrics = faces[0].pointee.size.pointee.metrics
        return (Double(metrics.ascender) / 64, Double(metrics.height) / 64)
    }

    /// A glyph's horizontal advance at the current size, in pixels (a space: the font's own, else a
    /// third of the em).
    func advance(_ glyph: Glyph) -> Double {
        var glyph = glyph
        if glyph.isSpace {
            glyph.index = FT_Get_Char_Index(faces[0], 0x20)
            if glyph.index == 0 { return Double(faces[0].pointee.size.pointee.metrics.x_ppem) / 3 }
        }
        guard FT_Load_Glyph(faces[glyph.face], glyph.index, stickers_ft_load_default) == 0 else { return 0 }
        return Double(faces[glyph.face].pointee.glyph.pointee.advance.x) / 64
    }

    /// Draws a glyph's coverage into `coverage` (`width` per row, lightest kept where glyphs meet),
    /// its origin on the baseline at (`x`, `baseline`). Pixels outside the buffer are dropped (the
    /// caller leaves room for them).
    func draw(_ glyph: Glyph, x: Int, baseline: Int, into coverage: inout [UInt8], width: Int, height: Int) {
        guard !glyph.isSpace, FT_Load_Glyph(faces[glyph.face], glyph.index, stickers_ft_load_render) == 0 else { return }
        let slot = faces[glyph.face].pointee.glyph.pointee
        let bitmap = slot.bitmap
        guard let buffer = bitmap.buffer, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return }
        let left = x + Int(slot.bitmap_left), top = baseline - Int(slot.bitmap_top)
        for row in 0..<Int(bitmap.rows) {
            let y = top + row
            guard y >= 0, y < height else { continue }
            let source = buffer + row * Int(bitmap.pitch)
            for column in 0..<Int(bitmap.width) {
                let cx = left + column
                guard cx >= 0, cx < width else { continue }
                let value = source[column]
                if value > coverage[y * width + cx] { coverage[y * width + cx] = value }
            }
        }
    }
}
