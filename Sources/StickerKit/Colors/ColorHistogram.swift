import Raster

/// Colours of a point set in the clustering space (see `ClusteringSpace`), each point weighted by
/// the pixels it stands for.
struct ColorSamples {
    var L: [Float] = []
    var a: [Float] = []
    var b: [Float] = []
    var weight: [Float] = []
    var count: Int { weight.count }

    mutating func removeAll() {
        L.removeAll(keepingCapacity: true); a.removeAll(keepingCapacity: true)
        b.removeAll(keepingCapacity: true); weight.removeAll(keepingCapacity: true)
    }

    mutating func append(L: Float, a: Float, b: Float, weight: Float) {
        self.L.append(L); self.a.append(a); self.b.append(b); self.weight.append(weight)
    }
}

/// The image's colours, area-averaged to a working size and counted in bins of quantized sRGB
/// (5 bits a channel; each bin keeps the exact mean of its pixels), then moved to OKLab.
/// A coarser set (4 bits a channel) serves the cheap trial runs of the clustering.
struct ColorHistogram {
    private(set) var fine = ColorSamples()
    private(set) var coarse = ColorSamples()
    private(set) var totalWeight: Float = 0

    private static let fineBits = 5
    /// Per bin: weighted sums of R, G, B and the weight.
    private var bins = [SIMD4<Float>](repeating: .zero, count: 1 << (3 * fineBits))
    private var usedBins: [Int32] = []
    private var coarseIndex = [Int32](repeating: -1, count: 1 << 12)

    mutating func build(from image: Image, mask: Mask?, longSide: Int) {
        resetBins()
        let averaged = Self.areaAverage(image, mask: mask, longSide: longSide)
        let shift = 8 - Self.fineBits, bits = Self.fineBits
        averaged.withUnsafeBufferPointer { averaged in
            bins.withUnsafeMutableBufferPointer { bins in
                for pixel in averaged where pixel.w > 0 {
                    let key = (Int(pixel.x) >> shift) << (2 * bits) | (Int(pixel.y) >> shift) << bits | Int(pixel.z) >> shift
                    if bins[key].w == 0 { usedBins.append(Int32(key)) }
                    bins[key] += SIMD4(pixel.x * pixel.w, pixel.y * pixel.w, pixel.z * pixel.w, pixel.w)
                }
            }
        }
        finish()
    }

    /// The image area-averaged so its long side is at most `longSide`: per output pixel, the mean
    /// colour weighted by alpha × mask (x, y, z = R, G, B in 0…255) and the covered fraction (w).
    static func areaAverage(_ image: Image, mask: Mask?, longSide: Int) -> [SIMD4<Float>] {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else { return [] }
        let scale = max(1, Double(max(width, height)) / Double(longSide))
        let outWidth = max(1, Int((Double(width) / scale).rounded()))
        let outHeight = max(1, Int((Double(height) / scale).rounded()))
        // Mask columns for each image column: a mask of any size is stretched over the image.
        let maskColumns: [Int] = mask.map { m in (0..<width).map { $0 * m.width / width } } ?? []
        // Output column of each image column: box ox covers [ox·w/outW, (ox+1)·w/outW).
        var columnBox: [Int32] = []
        columnBox.reserveCapacity(width)
        for ox in 0..<outWidth {
            for _ in (ox * width / outWidth)..<((ox + 1) * width / outWidth) { columnBox.append(Int32(ox)) }
        }
        // Sums for one output row, 64-bit: weight × value over a large box can pass 2³².
        var row = [SIMD4<Int>](repeating: .zero, count: outWidth)
        var output = [SIMD4<Float>](repeating: .zero, count: outWidth * outHeight)
        let maskScale: Float = mask == nil ? 255 : 255 * 255
        image.pixels.withUnsafeBufferPointer { pixels in
            row.withUnsafeMutableBufferPointer { row in
                columnBox.withUnsafeBufferPointer { columnBox in
                    for oy in 0..<outHeight {
                        let y0 = oy * height / outHeight, y1 = (oy + 1) * height / outHeight
                        for i in 0..<outWidth { row[i] = .zero }
                        for y in y0..<y1 {
                            accumulate(row: y, of: pixels, width: width, into: row, columnBox: columnBox,
                                       mask: mask, maskRow: mask.map { m in (y * m.height / height) * m.width },
                                       maskColumns: maskColumns)
                        }
                        for ox in 0..<outWidth where row[ox].w > 0 {
                            let x0 = ox * width / outWidth, x1 = (ox + 1) * width / outWidth
                            let area = Float((x1 - x0) * (y1 - y0)) * maskScale
                            let w = Float(row[ox].w)
                            output[oy * outWidth + ox] = SIMD4(Float(row[ox].x) / w, Float(row[ox].y) / w,
                                                               Float(row[ox].z) / w, w / area)
                        }
                    }
                }
            }
        }
        return output
    }

    /// Adds one image row to the output row's sums (R, G, B weighted by alpha × mask, and weight).
    private static func accumulate(row y: Int, of pixels: UnsafeBufferPointer<UInt8>, width: Int,
                                   into sums: UnsafeMutableBufferPointer<SIMD4<Int>>,
                                   columnBox: UnsafeBufferPointer<Int32>,
                                   mask: Mask?, maskRow: Int?, maskColumns: [Int]) {
        var base = y * width * 4
        if let mask, let maskRow {
            mask.values.withUnsafeBufferPointer { values in
                for x in 0..<width {
                    let w = Int(pixels[base + 3]) * Int(values[maskRow + maskColumns[x]])
                    if w > 0 {
                        sums[Int(columnBox[x])] &+= SIMD4(w * Int(pixels[base]), w * Int(pixels[base + 1]),
                                                          w * Int(pixels[base + 2]), w)
                    }
                    base += 4
                }
            }
        } else {
            for x in 0..<width {
                let w = Int(pixels[base + 3])
                if w > 0 {
                    sums[Int(columnBox[x])] &+= SIMD4(w * Int(pixels[base]), w * Int(pixels[base + 1]),
                                                      w * Int(pixels[base + 2]), w)
                }
                base += 4
            }
        }
    }

    private mutating func resetBins() {
        for key in usedBins {
            let k = Int(key)
            bins[k] = .zero
        }
        usedBins.removeAll(keepingCapacity: true)
        fine.removeAll(); coarse.removeAll(); totalWeight = 0
    }

    /// Converts the used bins to OKLab points (in a fixed order, for determinism) and gathers the
    /// coarse set as weighted means of the fine points in each 4-bit bin.
    private mutating func finish() {
        usedBins.sort()
        for key in usedBins {
            let k = Int(key), w = bins[k].w
            let lab = OKLab(linearRed: Self.linear(bins[k].x / w), green: Self.linear(bins[k].y / w),
                            blue: Self.linear(bins[k].z / w))
            let p = ClusteringSpace.point(lab)
            fine.append(L: p.x, a: p.y, b: p.z, weight: w)
            totalWeight += w
            // Drop the lowest bit of each 5-bit channel: the 4-bit bin.
            let c = (k >> 11 & 0xF) << 8 | (k >> 6 & 0xF) << 4 | (k >> 1 & 0xF)
            if coarseIndex[c] < 0 {
                coarseIndex[c] = Int32(coarse.count)
                coarse.append(L: 0, a: 0, b: 0, weight: 0)
            }
            let j = Int(coarseIndex[c])
            coarse.L[j] += w * p.x; coarse.a[j] += w * p.y; coarse.b[j] += w * p.z; coarse.weight[j] += w
        }
        for j in 0..<coarse.count {
            let w = coarse.weight[j]
            coarse.L[j] /= w; coarse.a[j] /= w; coarse.b[j] /= w
        }
        for key in usedBins {
            let k = Int(key)
            coarseIndex[(k >> 11 & 0xF) << 8 | (k >> 6 & 0xF) << 4 | (k >> 1 & 0xF)] = -1
        }
    }

    /// Linear light of a fractional 8-bit value, interpolated in the sRGB table.
    @inline(__always) private static func linear(_ value: Float) -> Float {
        let v = min(max(value, 0), 255)
        let i = min(Int(v), 254), t = v - Float(i)
        return SRGB.linearTable[i] * (1 - t) + SRGB.linearTable[i + 1] * t
    }
}
