import Raster

/// Lays a caption out and draws it onto a sticker's canvas. The font size starts at a fraction of
/// the sticker's longer side and shrinks (down to a floor) until the wrapped text is no taller
/// than `maximumBlockFraction` of it; a word too wide for a line is broken between letters. The
/// stroke is the letters dilated by a Euclidean distance (as the sticker's outline is).
struct CaptionRenderer {
    let caption: Caption
    /// The starting font size (em) as a fraction of the sticker's longer side.
    var sizeFraction = 0.12
    /// The smallest font size the text may shrink to, as a fraction of the longer side.
    var minimumSizeFraction = 0.04
    /// The text block's largest height as a fraction of the longer side (long text shrinks).
    var maximumBlockFraction = 0.5
    /// Lines are at most this fraction of the longer side wide (or the sticker's width if wider).
    var lineWidthFraction = 0.85
    /// The stroke's width as a fraction of the font size.
    var strokeFraction = 0.08
    /// The transparent margin around the text, as a fraction of the longer side: about 9 px once
    /// the captioned sticker is fitted onto a 512 px canvas.
    var marginFraction = 0.025

    init(caption: Caption) { self.caption = caption }

    func render(on sticker: Image) throws(CaptionError) -> Image {
        let fonts = try CaptionFonts(fontPath: caption.fontPath)
        let paragraphs = try fonts.glyphs(of: caption.normalizedText)
        let long = Double(max(sticker.width, sticker.height, 64))
        let maximumLineWidth = max(Double(sticker.width), long * lineWidthFraction)
        var size = max(8, Int(long * sizeFraction))
        let minimumSize = max(8, Int(long * minimumSizeFraction))
        var lines: [[CaptionFonts.Glyph]]
        var lineHeight: Double
        while true {
            fonts.setSize(size)
            let stroke = strokeWidth(size)
            lines = wrap(paragraphs, width: maximumLineWidth - 2 * (margin(long) + stroke), fonts: fonts)
            lineHeight = fonts.lineMetrics.height
            if Double(lines.count) * lineHeight <= long * maximumBlockFraction || size <= minimumSize { break }
            size = max(minimumSize, Int(Double(size) * 0.9))
        }
        let text = draw(lines, fonts: fonts, stroke: strokeWidth(size))
        return compose(sticker: sticker, text: text, margin: Int(margin(long).rounded(.up)))
    }

    private func strokeWidth(_ size: Int) -> Double { max(1.5, Double(size) * strokeFraction) }
    private func margin(_ long: Double) -> Double { max(4, long * marginFraction) }

    /// Greedy word wrap of each paragraph into lines at most `width` pixels wide.
    private func wrap(_ paragraphs: [[CaptionFonts.Glyph]], width: Double, fonts: CaptionFonts) -> [[CaptionFonts.Glyph]] {
        var lines: [[CaptionFonts.Glyph]] = []
        for paragraph in paragraphs {
            let words = paragraph.split(whereSeparator: \.isSpace).map(Array.init)
            let space = CaptionFonts.Glyph(face: 0, index: 0, isSpace: true)
            let spaceWidth = fonts.advance(space)
            var line: [CaptionFonts.Glyph] = [], lineWidth = 0.0
            for word in words {
                var pieces: [[CaptionFonts.Glyph]] = [], piece: [CaptionFonts.Glyph] = [], pieceWidth = 0.0
                // A word wider than a line is broken between letters.
                for glyph in word {
                    let advance = fonts.advance(glyph)
                    if !piece.isEmpty && pieceWidth + advance > width { pieces.append(piece); piece = []; pieceWidth = 0 }
                    piece.append(glyph); pieceWidth += advance
                }
                if !piece.isEmpty { pieces.append(piece) }
                for piece in pieces {
                    let pieceWidth = piece.reduce(0) { $0 + fonts.advance($1) }
                    if !line.isEmpty && lineWidth + spaceWidth + pieceWidth > width {
                        lines.append(line); line = []; lineWidth = 0
                    }
                    if !line.isEmpty { line.append(space); lineWidth += spaceWidth }
                    line += piece; lineWidth += pieceWidth
                }
            }
            if !line.isEmpty { lines.append(line) }
        }
        return lines
    }

    /// The lines drawn centred, letters over their stroke, cropped to what was drawn.
    private func draw(_ lines: [[CaptionFonts.Glyph]], fonts: CaptionFonts, stroke: Double) -> Image {
        let (ascender, lineHeight) = fonts.lineMetrics
        let widths = lines.map { $0.reduce(0) { $0 + fonts.advance($1) } }
        // Room for glyphs that overhang their advance or the line (accents, descenders) and the stroke.
        let pad = Int((lineHeight + stroke).rounded(.up)) + 2
        let blockWidth = Int((widths.max() ?? 0).rounded(.up))
        let width = blockWidth + 2 * pad, height = Int((Double(lines.count) * lineHeight).rounded(.up)) + 2 * pad
        var coverage = [UInt8](repeating: 0, count: width * height)
        for (index, line) in lines.enumerated() {
            var pen = Double(pad) + (Double(blockWidth) - widths[index]) / 2
            let baseline = pad + Int((Double(index) * lineHeight + ascender).rounded())
            for glyph in line {
                fonts.draw(glyph, x: Int(pen.rounded()), baseline: baseline, into: &coverage, width: width, height: height)
                pen += fonts.advance(glyph)
            }
        }
        let squared = DistanceTransform.squaredDistances(width: width, height: height) { coverage[$0] >= 128 }
        let fill = caption.color, outline = caption.strokeColor
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var minX = width, minY = height, maxX = -1, maxY = -1
        for i in 0..<(width * height) {
            let c = Float(coverage[i]) / 255
            let s = max(c, min(1, max(0, Float(stroke) + 0.5 - squared[i].squareRoot())))
            let a = c + s * (1 - c)
            guard a > 0 else { continue }
            func mix(_ f: UInt8, _ o: UInt8) -> UInt8 {
                UInt8(min(255, (Float(f) * c + Float(o) * s * (1 - c)) / a + 0.5))
            }
            pixels[i * 4] = mix(fill.r, outline.r)
            pixels[i * 4 + 1] = mix(fill.g, outline.g)
            pixels[i * 4 + 2] = mix(fill.b, outline.b)
            pixels[i * 4 + 3] = UInt8(min(255, a * 255 + 0.5))
            let x = i % width, y = i / width
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard maxX >= 0 else { return Image(width: 0, height: 0) }
        return Image(width: width, height: height, pixels: pixels)
            .cropped(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The sticker and the text on one canvas: the text centred above or below with `margin`
    /// transparent pixels between it and every edge, the sticker centred across.
    private func compose(sticker: Image, text: Image, margin: Int) -> Image {
        guard text.width > 0 else { return sticker }
        let gap = margin / 2
        let width = max(sticker.width, text.width + 2 * margin)
        let height = sticker.height + gap + text.height + margin
        let stickerY = caption.position == .top ? margin + text.height + gap : 0
        let textY = caption.position == .top ? margin : sticker.height + gap
        var canvas = Image(width: width, height: height)
        canvas.paste(sticker, x: (width - sticker.width) / 2, y: stickerY)
        canvas.paste(text, x: (width - text.width) / 2, y: textY)
        return canvas
    }
}
