import BoundedConcurrency
import Raster

/// Draws one sticker: layers shadow, outline, subject; an effect recolours the subject first
/// (comic) or shades subject and outline together (puffy). The distance fields and the shadow are
/// computed on a grid of at most `maximumGridSide` pixels a side and sampled bilinearly, so a 12 MP
/// subject costs a few megabytes, not a float per pixel; they are smooth, so nothing is lost.
struct StickerRenderer {
    let style: StickerStyle
    var cutOut: Image
    var maximumGridSide = 1024
    var comic = ComicEffect()
    var puffy = PuffyEffect()

    init(style: StickerStyle, cutOut: Image) {
        self.style = style
        self.cutOut = cutOut
    }

    func render() -> Image {
        var renderer = self
        if style.effect == .comic { renderer.cutOut = comic.posterised(cutOut) }
        return renderer.renderLayers()
    }

    private func renderLayers() -> Image {
        guard let grid = Layers.Grid(self) else { return padded(margin: margin) }
        let solid = Layers.solidCells(of: cutOut, on: grid, rows: 0..<grid.height)
        let squared = DistanceTransform.squaredDistances(width: grid.width, height: grid.height) { solid[$0] }
        let inside = insideFeatures(solid: solid, squared: squared, step: grid.step).map { outside in
            DistanceTransform.squaredDistances(width: grid.width, height: grid.height) { outside[$0] }
        }
        let layers = Layers(self, grid: grid, squaredDistances: squared, insideSquaredDistances: inside)
        return Image(width: layers.width, height: layers.height, pixels: layers.composite(rows: 0..<layers.height))
    }

    /// As `render()`, the effect, the distance fields and the canvas computed in `bands` bands on
    /// parallel child tasks.
    func render(bands: Int) async -> Image {
        var renderer = self
        if style.effect == .comic { renderer.cutOut = await comic.posterised(cutOut, bands: bands) }
        return await renderer.renderLayers(bands: bands)
    }

    private func renderLayers(bands: Int) async -> Image {
        guard let grid = Layers.Grid(self) else { return padded(margin: margin) }
        let cutOut = cutOut
        let solidParts = await concurrentMap(rowBands(grid.height, count: bands)) {
            Layers.solidCells(of: cutOut, on: grid, rows: $0)
        }
        let solid = joinedBands(solidParts)
        let squared = await DistanceTransform.squaredDistances(width: grid.width, height: grid.height,
                                                               features: solid, bands: bands)
        var inside: [Float]?
        if let outside = insideFeatures(solid: solid, squared: squared, step: grid.step) {
            inside = await DistanceTransform.squaredDistances(width: grid.width, height: grid.height,
                                                              features: outside, bands: bands)
        }
        let layers = Layers(self, grid: grid, squaredDistances: squared, insideSquaredDistances: inside)
        let parts = await concurrentMap(rowBands(layers.height, count: bands)) { layers.composite(rows: $0) }
        return Image(width: layers.width, height: layers.height, pixels: joinedBands(parts))
    }

    /// The cells an effect measures its inside distances from: outside the subject (comic: the ink
    /// runs along the subject's edge) or outside subject and outline (puffy: the whole sticker
    /// inflates). Nil without an effect.
    private func insideFeatures(solid: [Bool], squared: [Float], step: Int) -> [Bool]? {
        switch style.effect {
        case nil: return nil
        case .comic: return solid.map { !$0 }
        case .puffy:
            let reach = outlineWidth / Float(step)
            return squared.map { !($0.squareRoot() <= reach) }
        }
    }

    var outlineWidth: Float { Float(style.resolvedOutlineWidth(width: cutOut.width, height: cutOut.height)) }

    /// The shadow's blur radius and downward offset in pixels (0 without a shadow).
    var shadowBlur: Float { style.shadow.map { Float(Double(min(cutOut.width, cutOut.height)) * $0.blurFraction) } ?? 0 }
    var shadowOffset: Float { style.shadow.map { Float(Double(min(cutOut.width, cutOut.height)) * $0.offsetFraction) } ?? 0 }

    /// Transparent room around the cut-out for the outline and the shadow.
    var margin: Int { Int((outlineWidth + 2 * shadowBlur + shadowOffset).rounded(.up)) + style.padding }

    /// Everything the canvas is composited from: the cut-out, the outline's distance field and the
    /// shadow on their coarse grids. Immutable, so row bands can be composited in parallel.
    struct Layers: Sendable {
        let cutOut: Image
        let style: StickerStyle
        let margin: Int
        let width: Int
        let height: Int
        let outline: Float
        let distance: GridPlane
        let shadowGrid: GridPlane?
        /// Comic: each cell's distance (canvas pixels) inside the subject, and the ink line's width.
        let inkDistance: GridPlane?
        let inkWidth: Float
        /// Puffy: the factor each colour is multiplied by, and the fraction blended to white.
        let puffShade: GridPlane?
        let puffGloss: GridPlane?
        let columns: GridPlane.Axis
        let rows: GridPlane.Axis
        let shadowRows: GridPlane.Axis

        /// The coarse grid of the distance field and the shadow: one cell per `step`×`step` canvas
        /// pixels. Nil when there is no outline, shadow or effect (the cut-out is only padded).
        struct Grid: Sendable {
            let step: Int
            let width: Int
            let height: Int
            /// The cut-out's offset in the canvas.
            let margin: Int

            init?(_ renderer: StickerRenderer) {
                guard renderer.outlineWidth > 0 || renderer.style.shadow != nil || renderer.style.effect != nil else { return nil }
                margin = renderer.margin
                let canvasWidth = renderer.cutOut.width + 2 * margin, canvasHeight = renderer.cutOut.height + 2 * margin
                step = max(1, (max(canvasWidth, canvasHeight) + renderer.maximumGridSide - 1) / renderer.maximumGridSide)
                width = (canvasWidth + step - 1) / step
                height = (canvasHeight + step - 1) / step
            }
        }

        /// Grid rows `rows` (row-major, `grid.width` per row): whether a cell covers a pixel of the
        /// cut-out at least half opaque. Each cell scans only its own pixels and stops at the first
        /// one (no division per pixel), so bands of rows run independently.
        static func solidCells(of cutOut: Image, on grid: Grid, rows: Range<Int>) -> [Bool] {
            var solid = [Bool](repeating: false, count: rows.count * grid.width)
            let step = grid.step, margin = grid.margin, cw = cutOut.width
            cutOut.pixels.withUnsafeBufferPointer { px in
                solid.withUnsafeMutableBufferPointer { cells in
                    for gy in rows {
                        // The cut-out rows and columns a cell covers: canvas [g·step, (g+1)·step) − margin.
                        let y0 = max(0, gy * step - margin), y1 = min(cutOut.height, (gy + 1) * step - margin)
                        guard y0 < y1 else { continue }
                        let rowCells = (gy - rows.lowerBound) * grid.width
                        for gx in 0..<grid.width {
                            let x0 = max(0, gx * step - margin), x1 = min(cw, (gx + 1) * step - margin)
                            guard x0 < x1 else { continue }
                            search: for y in y0..<y1 {
                                var alpha = (y * cw + x0) * 4 + 3
                                for _ in x0..<x1 {
                                    if px[alpha] >= 128 { cells[rowCells + gx] = true; break search }
                                    alpha += 4
                                }
                            }
                        }
                    }
                }
            }
            return solid
        }

        /// The layers on `grid`, whose squared distances (in cells) to the solid cells are given, and
        /// for an effect the squared distances to the cells outside (see `insideFeatures`).
        init(_ renderer: StickerRenderer, grid: Grid, squaredDistances squared: [Float], insideSquaredDistances: [Float]?) {
            let style = renderer.style, cutOut = renderer.cutOut
            let outline = renderer.outlineWidth, blur = renderer.shadowBlur, offset = renderer.shadowOffset
            let margin = grid.margin, step = grid.step, gw = grid.width, gh = grid.height
            let width = cutOut.width + 2 * margin, height = cutOut.height + 2 * margin
            // Distance in canvas pixels, from grid-cell centres.
            let distance = GridPlane(width: gw, height: gh, step: step,
                                     values: squared.map { $0.isFinite ? $0.squareRoot() * Float(step) : 1e9 })
            var shadowGrid: GridPlane?
            if let shadow = style.shadow {
                // Silhouette of subject + outline, blurred (three box passes ≈ Gaussian), faded.
                var silhouette = distance.values.map { outline > 0 ? Self.outlineAlpha($0, outline) : ($0 == 0 ? 1 : 0) }
                let r = max(1, Int((blur / Float(step) / 2).rounded()))
                let box = BoxFilter(width: gw, height: gh, radius: r)
                for _ in 0..<3 { silhouette = box.mean(silhouette) }
                shadowGrid = GridPlane(width: gw, height: gh, step: step, values: silhouette.map { $0 * shadow.opacity })
            }
            var inkDistance: GridPlane?, puffShade: GridPlane?, puffGloss: GridPlane?
            if let insideSquaredDistances {
                let inside = insideSquaredDistances.map { $0.isFinite ? $0.squareRoot() * Float(step) : 1e9 }
                switch style.effect {
                case .comic?:
                    inkDistance = GridPlane(width: gw, height: gh, step: step, values: inside)
                case .puffy?:
                    let radius = renderer.puffy.radiusFraction * Float(min(cutOut.width, cutOut.height))
                    let shading = renderer.puffy.shading(inside: inside, width: gw, height: gh, step: step, radius: radius)
                    puffShade = GridPlane(width: gw, height: gh, step: step, values: shading.shade)
                    puffGloss = GridPlane(width: gw, height: gh, step: step, values: shading.gloss)
                case nil: break
                }
            }
            self.inkDistance = inkDistance; self.puffShade = puffShade; self.puffGloss = puffGloss
            inkWidth = renderer.comic.inkWidth(width: cutOut.width, height: cutOut.height)
            self.cutOut = cutOut; self.style = style; self.margin = margin
            self.width = width; self.height = height; self.outline = outline
            self.distance = distance; self.shadowGrid = shadowGrid
            columns = GridPlane.Axis(count: width, cells: gw, step: step, offset: 0)
            rows = GridPlane.Axis(count: height, cells: gh, step: step, offset: 0)
            shadowRows = GridPlane.Axis(count: height, cells: gh, step: step, offset: -offset)
        }

        static func outlineAlpha(_ d: Float, _ outline: Float) -> Float { min(1, max(0, outline + 0.5 - d)) }

        /// Canvas rows `band`, RGBA8, straight alpha.
        func composite(rows band: Range<Int>) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: band.count * width * 4)
            let oc = style.outlineColor
            let ocr = Float(oc.r), ocg = Float(oc.g), ocb = Float(oc.b)
            let ink = ComicEffect.ink
            let inkR = Float(ink.r), inkG = Float(ink.g), inkB = Float(ink.b), inkWidth = inkWidth
            let cw = cutOut.width, ch = cutOut.height, outline = outline, width = width, margin = margin
            // Without an effect an opaque subject pixel is copied as it is.
            let plainSubject = inkDistance == nil && puffShade == nil
            // Each plane sampled for a whole canvas row at once (interpolated down the grid's
            // columns, then along the row): a few operations a pixel instead of a bilinear fetch.
            // Row r of `samples` holds plane r: distance, ink, shade, gloss, shadow.
            let planes = [(outline > 0 ? distance : nil, rows), (inkDistance, rows), (puffShade, rows),
                          (puffGloss, rows), (shadowGrid, shadowRows)]
            var samples = [Float](repeating: 0, count: planes.count * width)
            var scratch = [Float](repeating: 0, count: distance.width)
            cutOut.pixels.withUnsafeBufferPointer { px in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in band {
                        samples.withUnsafeMutableBufferPointer { buffer in
                            for (index, (plane, axis)) in planes.enumerated() {
                                plane?.sampleRow(y, axis, columns, into: buffer.baseAddress! + index * width, scratch: &scratch)
                            }
                        }
                        samples.withUnsafeBufferPointer { buffer in
                        let distanceRow = buffer.baseAddress!, inkRow = distanceRow + width
                        let shadeRow = inkRow + width, glossRow = shadeRow + width, shadowRow = glossRow + width
                        let cy = y - margin
                        let subjectRow = cy >= 0 && cy < ch
                        for x in 0..<width {
                            let o = ((y - band.lowerBound) * width + x) * 4
                            let cx = x - margin
                            var sa: Float = 0, sr: Float = 0, sg: Float = 0, sb: Float = 0
                            if subjectRow && cx >= 0 && cx < cw {
                                let s = (cy * cw + cx) * 4
                                if plainSubject && px[s + 3] == 255 {   // opaque subject: nothing below shows
                                    dst[o] = px[s]; dst[o + 1] = px[s + 1]; dst[o + 2] = px[s + 2]; dst[o + 3] = 255
                                    continue
                                }
                                sa = Float(px[s + 3]) * (1 / 255)
                                sr = Float(px[s]); sg = Float(px[s + 1]); sb = Float(px[s + 2])
                                if sa > 0, inkDistance != nil {
                                    let k = min(1, max(0, inkWidth + 1 - inkRow[x]))
                                    sr += (inkR - sr) * k; sg += (inkG - sg) * k; sb += (inkB - sb) * k
                                }
                            }
                            // Premultiplied: outline, subject over it, the effect's shading, all
                            // over the shadow (black, so it adds only alpha).
                            var a: Float = 0, r: Float = 0, g: Float = 0, b: Float = 0
                            if outline > 0 && sa < 1 {
                                let oa = Self.outlineAlpha(distanceRow[x], outline)
                                if oa > 0 { r = ocr * oa; g = ocg * oa; b = ocb * oa; a = oa }
                            }
                            if sa > 0 {
                                r = sr * sa + r * (1 - sa)
                                g = sg * sa + g * (1 - sa)
                                b = sb * sa + b * (1 - sa)
                                a = sa + a * (1 - sa)
                            }
                            if a > 0, puffShade != nil {
                                let gloss = glossRow[x]
                                let white = 255 * a * gloss, keep = shadeRow[x] * (1 - gloss)
                                r = min(255 * a, r * keep + white)
                                g = min(255 * a, g * keep + white)
                                b = min(255 * a, b * keep + white)
                            }
                            if shadowGrid != nil, a < 1 { a += shadowRow[x] * (1 - a) }
                            guard a > 0 else { continue }
                            let inv = 1 / a
                            dst[o] = UInt8(min(255, r * inv + 0.5))
                            dst[o + 1] = UInt8(min(255, g * inv + 0.5))
                            dst[o + 2] = UInt8(min(255, b * inv + 0.5))
                            dst[o + 3] = UInt8(min(255, a * 255 + 0.5))
                        }
                        }
                    }
                }
            }
            return out
        }
    }

    /// The cut-out in a transparent frame of `margin` pixels.
    private func padded(margin: Int) -> Image {
        let width = cutOut.width + 2 * margin, height = cutOut.height + 2 * margin
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<cutOut.height {
            let src = y * cutOut.width * 4, dst = ((y + margin) * width + margin) * 4
            out.replaceSubrange(dst..<(dst + cutOut.width * 4), with: cutOut.pixels[src..<(src + cutOut.width * 4)])
        }
        return Image(width: width, height: height, pixels: out)
    }
}

/// A coarse plane whose cells cover `step`×`step` canvas pixels, sampled bilinearly at canvas
/// pixel centres.
struct GridPlane: Sendable {
    let width: Int
    let height: Int
    let step: Int
    let values: [Float]

    /// Bilinear positions of canvas pixel centres on the grid, along one axis, precomputed.
    struct Axis: Sendable {
        var lower: [Int] = []
        var upper: [Int] = []
        var weight: [Float] = []
        /// `offset` shifts the sampled position (canvas pixels), e.g. a shadow cast downwards.
        init(count: Int, cells: Int, step: Int, offset: Float) {
            let inv = 1 / Float(step)
            for i in 0..<count {
                let g = min(Float(cells - 1), max(0, (Float(i) + offset + 0.5) * inv - 0.5))
                let l = Int(g)
                lower.append(l); upper.append(min(cells - 1, l + 1)); weight.append(g - Float(l))
            }
        }
    }

    /// Canvas row `y` sampled at every canvas column into `out` (`columns.lower.count` values):
    /// the grid row interpolated first (into `scratch`, one value per grid column), then along it.
    func sampleRow(_ y: Int, _ rows: Axis, _ columns: Axis, into out: UnsafeMutablePointer<Float>, scratch: inout [Float]) {
        let r0 = rows.lower[y] * width, r1 = rows.upper[y] * width, fy = rows.weight[y]
        values.withUnsafeBufferPointer { v in
            scratch.withUnsafeMutableBufferPointer { line in
                for gx in 0..<width { line[gx] = v[r0 + gx] + (v[r1 + gx] - v[r0 + gx]) * fy }
                columns.lower.withUnsafeBufferPointer { lower in
                    columns.upper.withUnsafeBufferPointer { upper in
                        columns.weight.withUnsafeBufferPointer { weight in
                            for x in 0..<lower.count {
                                let l = line[lower[x]]
                                out[x] = l + (line[upper[x]] - l) * weight[x]
                            }
                        }
                    }
                }
            }
        }
    }

    func sample(_ columns: Axis, _ x: Int, _ rows: Axis, _ y: Int) -> Float {
        let x0 = columns.lower[x], x1 = columns.upper[x], fx = columns.weight[x]
        let r0 = rows.lower[y] * width, r1 = rows.upper[y] * width, fy = rows.weight[y]
        let top = values[r0 + x0] + (values[r0 + x1] - values[r0 + x0]) * fx
        let bottom = values[r1 + x0] + (values[r1 + x1] - values[r1 + x0]) * fx
        return top + (bottom - top) * fy
    }
}
