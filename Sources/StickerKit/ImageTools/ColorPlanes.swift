import BoundedConcurrency
import Raster

/// An RGB picture as three float planes in 0…1: the working form of the photo for filtering.
struct ColorPlanes: Sendable {
    let width: Int
    let height: Int
    var red: [Float]
    var green: [Float]
    var blue: [Float]

    init(width: Int, height: Int, red: [Float], green: [Float], blue: [Float]) {
        self.width = width; self.height = height
        self.red = red; self.green = green; self.blue = blue
    }

    /// Splits an RGBA8 image into planes (alpha ignored).
    init(_ image: Image) {
        let count = image.pixelCount
        var r = [Float](repeating: 0, count: count), g = r, b = r
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<count {
                r[i] = Float(px[4 * i]) * (1 / 255)
                g[i] = Float(px[4 * i + 1]) * (1 / 255)
                b[i] = Float(px[4 * i + 2]) * (1 / 255)
            }
        }
        self.init(width: image.width, height: image.height, red: r, green: g, blue: b)
    }

    /// The image resampled to `width`×`height` (area average when shrinking, bilinear when growing),
    /// the output rows in `bands` row bands on parallel child tasks. Each band resamples
    /// horizontally just the source rows it reads, once, then the columns: a 12 MP photo never
    /// exists as floats at full size. (Weighting each output row's source rows horizontally again
    /// cost ~10 ms for the network's 320 px input, on the critical path before the first look.)
    static func resampled(_ image: Image, width: Int, height: Int, bands: Int) async -> ColorPlanes {
        let h = ResamplingTaps(filter: .area, from: image.width, to: width)
        let v = ResamplingTaps(filter: .area, from: image.height, to: height)
        let parts = await concurrentMap(rowBands(height, count: bands)) { resampledRows(image, h, v, rows: $0) }
        return ColorPlanes(width: width, height: height, red: joinedBands(parts.map(\.red)),
                           green: joinedBands(parts.map(\.green)), blue: joinedBands(parts.map(\.blue)))
    }

    /// Output rows `rows` of the resampling by taps `h` (columns) and `v` (rows): Raster's taps, so
    /// this weighs pixels exactly as `Image.resized(filter: .area)` does.
    private static func resampledRows(_ image: Image, _ h: ResamplingTaps, _ v: ResamplingTaps, rows: Range<Int>) -> ColorPlanes {
        let width = h.starts.count
        let sourceWidth = image.width
        // The source rows these output rows read, each resampled horizontally (RGB interleaved).
        // Taps' first source rows never decrease with the output row, so the band's first row reads
        // the lowest one.
        precondition(rows.isEmpty || rows.dropFirst().allSatisfy { v.starts[$0] >= v.starts[rows.lowerBound] },
                     "resampling taps out of order")
        let firstSource = rows.isEmpty ? 0 : v.starts[rows.lowerBound]
        let endSource = rows.reduce(firstSource) { max($0, v.starts[$1] + v.counts[$1]) }
        let sourceRows = endSource - firstSource
        var horizontal = [Float](unsafeUninitializedCapacity: sourceRows * width * 3) { _, n in n = sourceRows * width * 3 }
        image.pixels.withUnsafeBufferPointer { px in
        horizontal.withUnsafeMutableBufferPointer { out in
        h.starts.withUnsafeBufferPointer { starts in h.counts.withUnsafeBufferPointer { counts in
        h.weights.withUnsafeBufferPointer { weights in
            for y in 0..<sourceRows {
                let source = px.baseAddress! + (firstSource + y) * sourceWidth * 4, row = out.baseAddress! + y * width * 3
                for x in 0..<width {
                    var sr: Float = 0, sg: Float = 0, sb: Float = 0
                    let first = source + starts[x] * 4, w = weights.baseAddress! + x * h.stride
                    for t in 0..<counts[x] {
                        let p = first + 4 * t
                        sr += w[t] * Float(p[0]); sg += w[t] * Float(p[1]); sb += w[t] * Float(p[2])
                    }
                    row[3 * x] = sr; row[3 * x + 1] = sg; row[3 * x + 2] = sb
                }
            }
        }}}}}
        let n = rows.count * width
        var red = [Float](repeating: 0, count: n), green = red, blue = red
        horizontal.withUnsafeBufferPointer { horizontal in
        red.withUnsafeMutableBufferPointer { red in green.withUnsafeMutableBufferPointer { green in
        blue.withUnsafeMutableBufferPointer { blue in
            for y in rows {
                let out = (y - rows.lowerBound) * width
                for k in 0..<v.counts[y] {
                    let scale = v.weights[y * v.stride + k] * (1 / 255)
                    let row = horizontal.baseAddress! + (v.starts[y] + k - firstSource) * width * 3
                    for x in 0..<width {
                        red[out + x] += scale * row[3 * x]
                        green[out + x] += scale * row[3 * x + 1]
                        blue[out + x] += scale * row[3 * x + 2]
                    }
                }
            }
        }}}}
        return ColorPlanes(width: width, height: rows.count, red: red, green: green, blue: blue)
    }
}

extension ColorPlanes {
    /// The image reduced by an integer `factor`: each output pixel the mean of a `factor`×`factor`
    /// block (the last partial row and column of blocks dropped). Exact area averaging at the cost
    /// of one add per photo pixel.
    static func reduced(_ image: Image, factor k: Int) -> ColorPlanes {
        guard k > 1 else { return ColorPlanes(image) }
        let h = max(1, image.height / k)
        return reducedRows(image, factor: k, rows: 0..<h)
    }

    /// As `reduced(_:factor:)`, the output rows computed in `bands` row bands on parallel child tasks.
    static func reduced(_ image: Image, factor k: Int, bands: Int) async -> ColorPlanes {
        guard k > 1 else { return ColorPlanes(image) }
        let h = max(1, image.height / k)
        let parts = await concurrentMap(rowBands(h, count: bands)) { reducedRows(image, factor: k, rows: $0) }
        return ColorPlanes(width: parts[0].width, height: h, red: joinedBands(parts.map(\.red)),
                           green: joinedBands(parts.map(\.green)), blue: joinedBands(parts.map(\.blue)))
    }

    /// Output rows `rows` of the reduction (a band of the whole). Each pixel's RGBA is one 32-bit
    /// load widened to four lanes of a running block sum (alpha summed and ignored), through unsafe
    /// buffers: the same integer sums as a per-channel loop over checked arrays, twice as fast
    /// (2400×1800 by 3: 12.5 → 6.3 ms; 4000×3000 by 4: 32 → 19 ms, one core).
    private static func reducedRows(_ image: Image, factor k: Int, rows: Range<Int>) -> ColorPlanes {
        let w = max(1, image.width / k)
        let kx = min(k, image.width), ky = min(k, image.height)
        let count = w * rows.count
        var red = [Float](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var green = [Float](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var blue = [Float](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let scale = 1 / (Float(kx * ky) * 255)
        let stride = image.width * 4
        withUnsafeTemporaryAllocation(of: SIMD4<UInt32>.self, capacity: w) { sums in
        image.pixels.withUnsafeBufferPointer { px in
        red.withUnsafeMutableBufferPointer { r in green.withUnsafeMutableBufferPointer { g in
        blue.withUnsafeMutableBufferPointer { b in
            let pixels = UnsafeRawPointer(px.baseAddress!)
            for y in rows {
                for x in 0..<w { sums[x] = .zero }
                for dy in 0..<ky {
                    let row = pixels + (y * ky + dy) * stride
                    for x in 0..<w {
                        var sum = sums[x]
                        var p = row + x * kx * 4
                        for _ in 0..<kx {
                            sum &+= SIMD4<UInt32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
                            p += 4
                        }
                        sums[x] = sum
                    }
                }
                let out = (y - rows.lowerBound) * w
                for x in 0..<w {
                    let mean = SIMD4<Float>(sums[x]) * scale
                    r[out + x] = mean[0]; g[out + x] = mean[1]; b[out + x] = mean[2]
                }
            }
        }}}}}
        return ColorPlanes(width: w, height: rows.count, red: red, green: green, blue: blue)
    }

    /// A rectangle of the planes.
    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> ColorPlanes {
        func crop(_ plane: [Float]) -> [Float] {
            var out = [Float](); out.reserveCapacity(w * h)
            for row in y..<(y + h) { out.append(contentsOf: plane[(row * width + x)..<(row * width + x + w)]) }
            return out
        }
        return ColorPlanes(width: w, height: h, red: crop(red), green: crop(green), blue: crop(blue))
    }

    /// Back to an opaque RGBA8 image (for the saliency predictor). Through unsafe buffers: it runs
    /// before each look, on the critical path (800×600: 6.6 → 2.9 ms; split over two tasks it was
    /// no faster at 768×1024, the join's copy and fresh pages eating the gain).
    var image: Image {
        let n = width * height
        var pixels = [UInt8](unsafeUninitializedCapacity: n * 4) { _, count in count = n * 4 }
        @inline(__always) func byte(_ v: Float) -> UInt8 { UInt8(min(255, max(0, v * 255 + 0.5))) }
        red.withUnsafeBufferPointer { r in green.withUnsafeBufferPointer { g in blue.withUnsafeBufferPointer { b in
        pixels.withUnsafeMutableBufferPointer { px in
            let r = r.baseAddress!, g = g.baseAddress!, b = b.baseAddress!, out = px.baseAddress!
            for i in 0..<n {
                out[4 * i] = byte(r[i]); out[4 * i + 1] = byte(g[i]); out[4 * i + 2] = byte(b[i]); out[4 * i + 3] = 255
            }
        }}}}
        return Image(width: width, height: height, pixels: pixels)
    }
}
