import BoundedConcurrency
import Raster

/// The last, full-size stage: alpha upsampled from the working resolution (bilinear: the working
/// alpha already follows the photo's edges), and the subject's pixels cropped with their edge
/// colours replaced by the estimated foreground colours. Touches each photo pixel once. The mask
/// is the subject's coverage times the photo's own alpha (1 for a JPEG).
struct FullResolution: Sendable {
    let image: Image
    /// Alpha in 0…1 at the working resolution.
    let alpha: Plane
    /// Photo pixels per working pixel along each axis.
    let factor: Int

    /// Bilinear sample positions along one axis: for each output index, two source indexes and the
    /// weight of the second.
    struct Axis: Sendable {
        var lower: [Int32] = []
        var upper: [Int32] = []
        var weight: [Float] = []
        init(from n: Int, to m: Int, factor: Int) {
            let scale = 1 / Float(factor)
            lower.reserveCapacity(m); upper.reserveCapacity(m); weight.reserveCapacity(m)
            for i in 0..<m {
                let s = min(Float(n - 1), max(0, (Float(i) + 0.5) * scale - 0.5))
                let l = min(n - 1, Int(s))
                lower.append(Int32(l)); upper.append(Int32(min(n - 1, l + 1))); weight.append(s - Float(l))
            }
        }
    }

    func mask() -> Mask {
        Mask(width: image.width, height: image.height, values: maskRows(0..<image.height))
    }

    /// As `mask()`, in `bands` row bands on parallel child tasks.
    func mask(bands: Int) async -> Mask {
        let parts = await concurrentMap(rowBands(image.height, count: bands)) { maskRows($0) }
        return Mask(width: image.width, height: image.height, values: joinedBands(parts))
    }

    /// The mask's rows `band`.
    private func maskRows(_ band: Range<Int>) -> [UInt8] {
        let w = image.width, h = image.height, sw = alpha.width
        let xs = Axis(from: alpha.width, to: w, factor: factor), ys = Axis(from: alpha.height, to: h, factor: factor)
        var values = [UInt8](repeating: 0, count: w * band.count)
        // Each working row is stretched horizontally once (two cached), then output rows blend two.
        var upper = [Float](repeating: 0, count: w), lower = upper
        var upperRow = -1, lowerRow = -1
        alpha.values.withUnsafeBufferPointer { a in
            func stretch(_ row: Int, into line: inout [Float]) {
                let base = row * sw
                line.withUnsafeMutableBufferPointer { out in
                    for x in 0..<w {
                        let v0 = a[base + Int(xs.lower[x])], v1 = a[base + Int(xs.upper[x])]
                        out[x] = (v0 + (v1 - v0) * xs.weight[x]) * 255
                    }
                }
            }
            values.withUnsafeMutableBufferPointer { out in
                for y in band {
                    let r0 = Int(ys.lower[y]), r1 = Int(ys.upper[y]), wy = ys.weight[y]
                    if r0 != upperRow {
                        if r0 == lowerRow { swap(&upper, &lower); swap(&upperRow, &lowerRow) }
                        else { stretch(r0, into: &upper); upperRow = r0 }
                    }
                    if r1 != lowerRow { stretch(r1, into: &lower); lowerRow = r1 }
                    let row = (y - band.lowerBound) * w
                    upper.withUnsafeBufferPointer { top in
                        lower.withUnsafeBufferPointer { bottom in
                            image.pixels.withUnsafeBufferPointer { px in
                                for x in 0..<w {
                                    var value = top[x] + (bottom[x] - top[x]) * wy
                                    // The photo's own transparency (a PNG's, an APNG frame's) stays:
                                    // what its author made see-through is not the subject's.
                                    let own = px[((y * w) + x) * 4 + 3]
                                    if own != 255 { value *= Float(own) * (1 / 255) }
                                    out[row + x] = UInt8(value + 0.5)
                                }
                            }
                        }
                    }
                }
            }
        }
        return values
    }

    /// The photo cropped to `box`, alpha from `mask`; fractional-alpha pixels get the foreground colour
    /// F = F̂ + α(I − αF̂ − (1−α)B̂) with F̂, B̂ sampled from the working-resolution local colours.
    func cutOut(mask: Mask, in box: Mask.Bounds, colors: ForegroundEstimator.LocalColors) -> Image {
        Image(width: box.width, height: box.height,
              pixels: cutOutRows(box.y..<(box.y + box.height), mask: mask, in: box, colors: colors))
    }

    /// As `cutOut(mask:in:colors:)`, in `bands` row bands on parallel child tasks.
    func cutOut(mask: Mask, in box: Mask.Bounds, colors: ForegroundEstimator.LocalColors, bands: Int) async -> Image {
        let parts = await concurrentMap(rowBands(box.height, count: bands)) { band in
            cutOutRows((box.y + band.lowerBound)..<(box.y + band.upperBound), mask: mask, in: box, colors: colors)
        }
        return Image(width: box.width, height: box.height, pixels: joinedBands(parts))
    }

    /// Photo rows `band` (within `box`) of the cut-out.
    private func cutOutRows(_ band: Range<Int>, mask: Mask, in box: Mask.Bounds,
                            colors: ForegroundEstimator.LocalColors) -> [UInt8] {
        let w = image.width, sw = alpha.width
        let xs = Axis(from: alpha.width, to: w, factor: factor), ys = Axis(from: alpha.height, to: image.height, factor: factor)
        var out = [UInt8](repeating: 0, count: box.width * band.count * 4)
        let f = colors.foreground, b = colors.background
        image.pixels.withUnsafeBufferPointer { px in
            mask.values.withUnsafeBufferPointer { m in
                for y in band {
                    let r0 = Int(ys.lower[y]) * sw, r1 = Int(ys.upper[y]) * sw, wy = ys.weight[y]
                    for x in box.x..<(box.x + box.width) {
                        let a8 = m[y * w + x]
                        let o = ((y - band.lowerBound) * box.width + (x - box.x)) * 4
                        let s = (y * w + x) * 4
                        out[o + 3] = a8
                        if a8 == 255 {
                            out[o] = px[s]; out[o + 1] = px[s + 1]; out[o + 2] = px[s + 2]
                            continue
                        }
                        guard a8 > 0 else { continue }
                        let x0 = Int(xs.lower[x]), x1 = Int(xs.upper[x]), wx = xs.weight[x]
                        func sample(_ p: [Float]) -> Float {
                            let top = p[r0 + x0] + (p[r0 + x1] - p[r0 + x0]) * wx
                            let bottom = p[r1 + x0] + (p[r1 + x1] - p[r1 + x0]) * wx
                            return top + (bottom - top) * wy
                        }
                        let a = Float(a8) * (1 / 255)
                        func channel(_ c: Int, _ fp: [Float], _ bp: [Float]) -> UInt8 {
                            let fg = sample(fp), bg = sample(bp)
                            let photo = Float(px[s + c]) * (1 / 255)
                            let value = fg + a * (photo - a * fg - (1 - a) * bg)
                            return UInt8(min(1, max(0, value)) * 255 + 0.5)
                        }
                        out[o] = channel(0, f.red, b.red)
                        out[o + 1] = channel(1, f.green, b.green)
                        out[o + 2] = channel(2, f.blue, b.blue)
                    }
                }
            }
        }
        return out
    }
}

extension Mask {
    /// A rectangle of the mask.
    public struct Bounds: Sendable, Hashable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// The smallest rectangle holding every nonzero value, or nil for an empty mask.
    public var bounds: Bounds? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        values.withUnsafeBufferPointer { v in
            for y in 0..<height {
                let row = y * width
                var first = -1, last = -1
                for x in 0..<width where v[row + x] != 0 { first = x; break }
                guard first >= 0 else { continue }
                for x in stride(from: width - 1, through: first, by: -1) where v[row + x] != 0 { last = x; break }
                minX = Swift.min(minX, first); maxX = Swift.max(maxX, last)
                minY = Swift.min(minY, y); maxY = y
            }
        }
        guard maxX >= 0 else { return nil }
        return Bounds(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
