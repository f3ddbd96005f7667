import NeuralNetAVX512

// 3×3 stride-1 convolution by Winograd's minimal filtering F(4×4, 3×3) (Lavin & Gray 2015):
// each 4×4 output tile costs 36 multiplies per (input, output) channel pair instead of 144, and
// the 36 products per tile become 36 independent matrix products [K×C]·[C×tiles], which run as
// register-blocked SIMD8 micro-kernels. Transforms are vectorised over 8 tiles of a row.
//
//   V = Bᵀ d B (6×6 input patch)    U = G g Gᵀ (each run of a layer)    Y = Aᵀ [U ⊙ V] A
//
// Layouts: U is packed [ξ][K/4][C][4] (ξ = 6i + j), V is [ξ][C][S], and M = U·V is [K][ξ][S] so
// the output transform finds one channel's 36 products together. S is a block of tile "slots":
// 8 per (tile row, group of 8 tiles along x).

/// The layout of one convolution's transformed filters U, `36 × paddedK × C` packed for the
/// micro-kernel. U is made by each task at the start of its part of the layer (each image), into
/// the task's scratch, rather than once at load: held for the whole network it is 4× the weights
/// (18 MB for U²-Net-p), and those fresh pages cost a one-shot command more (~20 ms of page faults)
/// than transforming each layer's filters again (a few ms per inference, ~1 MB that stays in cache).
/// The transform is computed in Float (it was Double): differences are ~1e-7.
struct WinogradFilter: Sendable {
    let outChannels: Int
    let paddedOutChannels: Int
    let inChannels: Int

    init(outChannels: Int, inChannels: Int) {
        self.outChannels = outChannels
        self.inChannels = inChannels
        paddedOutChannels = (outChannels + 3) / 4 * 4
    }

    /// Number of floats of U.
    var packedCount: Int { 36 * paddedOutChannels * inChannels }

    /// Writes U for `weights` (`outChannels × inChannels × 3 × 3`) into `out` (`packedCount` floats).
    func pack(_ weights: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let blocks = paddedOutChannels / 4, c = inChannels
        // For each input channel, the four output channels of a block are transformed together
        // and stored as 36 runs of four floats, each ξ row written sequentially.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 36 * 4) { u4 in
            let u = u4.baseAddress!
            let xiStride = blocks * c * 4
            for block in 0..<blocks {
                let lanes = min(4, outChannels - 4 * block)
                for channel in 0..<c {
                    // Padding output channels (past the last real one) multiply into ignored rows: zeros.
                    if lanes < 4 { u.update(repeating: 0, count: 36 * 4) }
                    for lane in 0..<lanes {
                        Self.transform(weights + ((4 * block + lane) * c + channel) * 9, into: u + lane, stride: 4)
                    }
                    let base = (block * c + channel) * 4
                    for xi in 0..<36 {
                        UnsafeMutableRawPointer(out + xi * xiStride + base)
                            .storeBytes(of: UnsafeRawPointer(u + 4 * xi).loadUnaligned(as: SIMD4<Float>.self), as: SIMD4<Float>.self)
                    }
                }
            }
        }
    }

    /// U = G·f·Gᵀ for one 3×3 filter f (row-major), 36 values row-major (ξ = 6i + j) `stride` apart, with
    /// G = [¼ 0 0; −⅙ −⅙ −⅙; −⅙ ⅙ −⅙; 1⁄24 1⁄12 ⅙; 1⁄24 −1⁄12 ⅙; 0 0 1].
    @inline(__always)
    static func transform(_ f: UnsafePointer<Float>, into u: UnsafeMutablePointer<Float>, stride: Int) {
        // t = G·f, one 6×3 row per i, kept as three columns of SIMD8 (rows 0…5 in lanes 0…5).
        func rowsOfG(_ a: Float, _ b: Float, _ c: Float) -> SIMD8<Float> {
            let sum = a + c
            return SIMD8(a / 4, -(sum + b) / 6, -(sum - b) / 6, a / 24 + b / 12 + c / 6, a / 24 - b / 12 + c / 6, c, 0, 0)
        }
        let t0 = rowsOfG(f[0], f[3], f[6]), t1 = rowsOfG(f[1], f[4], f[7]), t2 = rowsOfG(f[2], f[5], f[8])
        // u[i][j] = Σ_r t[i][r]·G[j][r], for all i at once (lanes).
        let sum = t0 + t2
        let u0 = t0 / 4, u1 = -(sum + t1) / 6, u2 = -(sum - t1) / 6
        let u3 = t0 / 24 + t1 / 12 + t2 / 6, u4 = t0 / 24 - t1 / 12 + t2 / 6, u5 = t2
        for i in 0..<6 {
            let row = u + 6 * i * stride
            row[0] = u0[i]; row[stride] = u1[i]; row[2 * stride] = u2[i]
            row[3 * stride] = u3[i]; row[4 * stride] = u4[i]; row[5 * stride] = u5[i]
        }
    }
}

/// Scratch buffers of one task's Winograd convolutions, grown on demand.
struct WinogradScratch {
    /// Whether the matrix products use the AVX-512 kernel (only if the CPU has it).
    var usesAVX512: Bool

    init(instructionSet: InstructionSet = .best) {
        usesAVX512 = instructionSet.resolved == .avx512
    }

    var transformedFilters: [Float] = []
    var transformedInput: [Float] = []
    var products: [Float] = []
    var rows: [Float] = []
    var zeroRow: [Float] = []
    /// Rows of fused (resized or pooled) input channels, computed as the transform reads them.
    var fusedRows: [Float] = []

    /// Arrays of released tensors by element count, for convolution outputs to reuse: a fresh
    /// multi-megabyte array costs page faults on first write, a recycled one does not.
    /// Bounded so a session holds at most 128 MB of spare tensors (U²-Net-p's largest is 26 MB).
    private var recycled: [Int: [[Float]]] = [:]
    private var recycledCount = 0
    private static let recycledLimit = 32 << 20

    /// An array of exactly `count` floats with unspecified contents, recycled when possible.
    mutating func takeBuffer(_ count: Int) -> [Float] {
        guard let buffer = recycled[count]?.popLast() else { return uninitializedFloats(count) }
        recycledCount -= count
        return buffer
    }

    /// Offers a released tensor's storage for reuse (large ones only, a few per size).
    mutating func recycle(_ values: [Float]) {
        guard values.count >= 16_384, recycled[values.count, default: []].count < 4,
              recycledCount + values.count <= Self.recycledLimit else { return }
        recycled[values.count, default: []].append(values)
        recycledCount += values.count
    }

    mutating func reserve(filters: Int, input: Int, products: Int, rows: Int, zeroRow: Int, fusedRows: Int) {
        // Every value of these three is written before it is read, so skip zero-filling them.
        if transformedFilters.count < filters { transformedFilters = uninitializedFloats(filters) }
        if transformedInput.count < input { transformedInput = uninitializedFloats(input) }
        if self.products.count < products { self.products = uninitializedFloats(products) }
        if self.rows.count < rows { self.rows = [Float](repeating: 0, count: rows) }
        if self.zeroRow.count < zeroRow { self.zeroRow = [Float](repeating: 0, count: zeroRow) }
        if self.fusedRows.count < fusedRows { self.fusedRows = [Float](repeating: 0, count: fusedRows) }
    }
}

extension Convolution {
    /// Output rows `4·tileRows` (clipped to `oh`) of every output channel of one image, whose input
    /// channel c (h×w) is `channels[c]` (its resize tables in `tables`). `output`
    /// points at row `4·tileRows.lowerBound` of channel 0; channel planes are `planeStride` apart.
    /// `residual`, if any, is added to every output value after the ReLU.
    func convolveWinograd(_ filter: WinogradFilter, channels: [ChannelRows], tables: UnsafePointer<ResizeTable>,
                          h: Int, w: Int, oh: Int, ow: Int,
                          tileRows: Range<Int>, output: UnsafeMutablePointer<Float>, planeStride: Int,
                          residual: ResidualRows?, scratch: inout WinogradScratch) {
        let c = inChannels, k = outChannels, kp = filter.paddedOutChannels
        let tilesX = (ow + 3) / 4
        let groupsPerRow = (tilesX + 7) / 8
        let rowWidth = 32 * groupsPerRow + 8
        // Slots per block: V and M each about ≤ 512 KB (L2), a multiple of the kernel width (24
        // slots for AVX2, 48 for AVX-512, i.e. 3 or 6 groups of 8).
        let wide = scratch.usesAVX512
        let kernelGroups = wide ? 6 : 3
        let slotsByCache = 3600 / max(c, kp)
        let blockGroups = max(kernelGroups, min(12, slotsByCache / 8 / kernelGroups * kernelGroups))
        let slots = 8 * blockGroups
        // Fused channels compute six rows (x < w) and blend a source row (its width) at a time.
        let blendWidth = channels.reduce(0) { if case .stored = $1.kind { $0 } else { max($0, $1.sourceWidth) } }
        scratch.reserve(filters: filter.packedCount, input: 36 * c * slots, products: 36 * kp * slots,
                        rows: 6 * rowWidth, zeroRow: w, fusedRows: blendWidth > 0 ? 6 * w + blendWidth : 0)
        let (pt, pl) = (pads[0], pads[1])
        let firstGroup = tileRows.lowerBound * groupsPerRow
        let endGroup = tileRows.upperBound * groupsPerRow
        let outputRow0 = 4 * tileRows.lowerBound

        scratch.rows.withUnsafeMutableBufferPointer { rowsBuffer in
        scratch.zeroRow.withUnsafeMutableBufferPointer { zeroBuffer in
        scratch.fusedRows.withUnsafeMutableBufferPointer { fusedBuffer in
        scratch.transformedInput.withUnsafeMutableBufferPointer { vBuffer in
        scratch.products.withUnsafeMutableBufferPointer { mBuffer in
        scratch.transformedFilters.withUnsafeMutableBufferPointer { uBuffer in
        weights.withUnsafeBufferPointer { weightsBuffer in
        bias.withUnsafeBufferPointer { biasBuffer in
            let t = rowsBuffer.baseAddress!, zero = UnsafePointer(zeroBuffer.baseAddress!)
            let fused = fusedBuffer.baseAddress, blend = fusedBuffer.baseAddress.map { $0 + 6 * w }
            let v = vBuffer.baseAddress!, m = mBuffer.baseAddress!
            filter.pack(weightsBuffer.baseAddress!, into: uBuffer.baseAddress!)
            let u = UnsafePointer(uBuffer.baseAddress!)
            t.update(repeating: 0, count: 6 * rowWidth)
            var blockStart = firstGroup
            while blockStart < endGroup {
                let blockEnd = min(blockStart + blockGroups, endGroup)
                let s = 8 * (blockEnd - blockStart)
                let sPadded = (s + 8 * kernelGroups - 1) / (8 * kernelGroups) * (8 * kernelGroups)
                // 1. Input transform of every channel into V[ξ][c][slot].
                for channel in 0..<c {
                    let source = channels[channel], stored = source.kind == .stored
                    var group = blockStart
                    while group < blockEnd {
                        let ty = group / groupsPerRow
                        let g0 = group % groupsPerRow
                        let g1 = min(groupsPerRow, g0 + (blockEnd - group))
                        // Vertical pass Bᵀ·d over the columns these groups read.
                        let x0 = max(0, 32 * g0 - pl), x1 = min(w, 32 * g1 + 4 + 32 - pl)
                        func row(_ r: Int) -> UnsafePointer<Float> {
                            let y = 4 * ty - pt + r
                            guard y >= 0 && y < h else { return zero }
                            if stored { return source.rows[y] }
                            return source.row(y, x0: x0, x1: x1, tables: tables, scratch: fused! + r * w, blend: blend!)
                        }
                        let r = (row(0), row(1), row(2), row(3), row(4), row(5))
                        if wide {
                            winogradInputColumnsAVX512(r.0, r.1, r.2, r.3, r.4, r.5, x0: x0, x1: x1, into: t + pl, stride: rowWidth)
                        } else {
                            winogradInputColumns(r, x0: x0, x1: x1, into: t + pl, stride: rowWidth)
                        }
                        // Horizontal pass ·B for each group of 8 tiles (two at once with AVX-512:
                        // their slots are adjacent).
                        var g = g0
                        while g < g1 {
                            let slot = 8 * (group + (g - g0) - blockStart)
                            if wide && g + 1 < g1 {
                                winogradInputGroup16AVX512(t + 32 * g, stride: rowWidth,
                                                           into: v + channel * sPadded + slot, xiStride: c * sPadded)
                                g += 2
                            } else {
                                winogradInputGroup(t + 32 * g, stride: rowWidth,
                                                   into: v + channel * sPadded + slot, xiStride: c * sPadded)
                                g += 1
                            }
                        }
                        group += g1 - g0
                    }
                }
                // Zero the padding slots so the kernel's extra columns read finite values.
                if sPadded > s {
                    for xi in 0..<36 { for channel in 0..<c { (v + (xi * c + channel) * sPadded + s).update(repeating: 0, count: sPadded - s) } }
                }
                // 2. Thirty-six products M[ξ] = U[ξ]·V[ξ].
                if wide {
                    for xi in 0..<36 {
                        winogradProductsAVX512(u: u + xi * kp * c, v: v + xi * c * sPadded, m: m + xi * sPadded,
                                               mStride: 36 * sPadded, inChannels: c, paddedOutChannels: kp, slots: sPadded)
                    }
                } else {
                for xi in 0..<36 {
                    let vXi = UnsafePointer(v + xi * c * sPadded)
                    for kb in 0..<(kp / 4) {
                        let uBlock = u + (xi * (kp / 4) + kb) * c * 4
                        let mBlock = m + (4 * kb * 36 + xi) * sPadded
                        var col = 0
                        while col < sPadded {
                            winogradKernel4x24(u: uBlock, v: vXi + col, vStride: sPadded, count: c, m: mBlock + col, mStride: 36 * sPadded)
                            col += 24
                        }
                    }
                }
                }
                // 3. Output transform, bias, ReLU and residual into the output rows.
                for channel in 0..<k {
                    let outPlane = output + channel * planeStride
                    let residualPlane = residual.map { $0.rows + channel * $0.planeStride }
                    var group = blockStart
                    while group < blockEnd {
                        let ty = group / groupsPerRow, g = group % groupsPerRow
                        let products = m + channel * 36 * sPadded + 8 * (group - blockStart)
                        // Two groups of one tile row at once with AVX-512 where all 16 tiles are inside.
                        if wide && group + 1 < blockEnd && g + 1 < groupsPerRow && 32 * g + 64 <= ow {
                            winogradOutputGroup16AVX512(products, xiStride: sPadded, bias: biasBuffer[channel], relu: fusedRelu,
                                                        into: outPlane, residual: residualPlane.map { UnsafePointer($0) },
                                                        row0: 4 * ty - outputRow0, rowsLeft: oh - 4 * ty, column0: 32 * g, width: ow)
                            group += 2
                        } else {
                            winogradOutputGroup(products, xiStride: sPadded, bias: biasBuffer[channel], relu: fusedRelu,
                                                into: outPlane, residual: residualPlane, row0: 4 * ty - outputRow0,
                                                rowsLeft: oh - 4 * ty, tileX0: 8 * g, tilesX: tilesX, width: ow)
                            group += 1
                        }
                    }
                }
                blockStart = blockEnd
            }
        }}}}}}}}
    }
}

@inline(__always)
private func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
private func store8(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: value, as: SIMD8<Float>.self)
}

/// Bᵀ applied down the columns x0..<x1 of six input rows: six rows of `t` (t[x] ↔ input column x).
private func winogradInputColumns(_ r: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                                          UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
                                  x0: Int, x1: Int, into t: UnsafeMutablePointer<Float>, stride: Int) {
    let (r0, r1, r2, r3, r4, r5) = r
    var x = x0
    while x + 8 <= x1 {
        let d0 = load8(r0 + x), d1 = load8(r1 + x), d2 = load8(r2 + x)
        let d3 = load8(r3 + x), d4 = load8(r4 + x), d5 = load8(r5 + x)
        store8(4 * d0 - 5 * d2 + d4, t + x)
        store8(d4 + d3 - 4 * (d1 + d2), t + stride + x)
        store8(d4 - d3 + 4 * (d1 - d2), t + 2 * stride + x)
        store8(d4 - d2 + 2 * (d3 - d1), t + 3 * stride + x)
        store8(d4 - d2 - 2 * (d3 - d1), t + 4 * stride + x)
        store8(4 * d1 - 5 * d3 + d5, t + 5 * stride + x)
        x += 8
    }
    while x < x1 {
        let d0 = r0[x], d1 = r1[x], d2 = r2[x], d3 = r3[x], d4 = r4[x], d5 = r5[x]
        t[x] = 4 * d0 - 5 * d2 + d4
        t[stride + x] = d4 + d3 - 4 * (d1 + d2)
        t[2 * stride + x] = d4 - d3 + 4 * (d1 - d2)
        t[3 * stride + x] = d4 - d2 + 2 * (d3 - d1)
        t[4 * stride + x] = d4 - d2 - 2 * (d3 - d1)
        t[5 * stride + x] = 4 * d1 - 5 * d3 + d5
        x += 1
    }
}

/// ·B along each of the six rows for 8 consecutive tiles (lanes), storing V[6i + j] for the group.
private func winogradInputGroup(_ t: UnsafeMutablePointer<Float>, stride: Int,
                                into v: UnsafeMutablePointer<Float>, xiStride: Int) {
    for i in 0..<6 {
        let row = UnsafeRawPointer(t + i * stride)
        // De-interleave columns 4l + s of the 8 tiles: s = 0…3 from one 32-wide load, 4 and 5 from
        // the next tile's first two columns.
        let a = row.loadUnaligned(as: SIMD32<Float>.self)
        let b = row.loadUnaligned(fromByteOffset: 16, as: SIMD32<Float>.self)
        let even = a.evenHalf, odd = a.oddHalf
        let d0 = even.evenHalf, d2 = even.oddHalf, d1 = odd.evenHalf, d3 = odd.oddHalf
        let d4 = b.evenHalf.evenHalf, d5 = b.oddHalf.evenHalf
        let out = v + 6 * i * xiStride
        store8(4 * d0 - 5 * d2 + d4, out)
        store8(d4 + d3 - 4 * (d1 + d2), out + xiStride)
        store8(d4 - d3 + 4 * (d1 - d2), out + 2 * xiStride)
        store8(d4 - d2 + 2 * (d3 - d1), out + 3 * xiStride)
        store8(d4 - d2 - 2 * (d3 - d1), out + 4 * xiStride)
        store8(4 * d1 - 5 * d3 + d5, out + 5 * xiStride)
    }
}

/// m[0..<4][0..<24] = Σ_c u[c][0..<4] · v[c][0..<24]: 12 accumulators of SIMD8 (AVX2: 16 registers).
@inline(__always)
private func winogradKernel4x24(u: UnsafePointer<Float>, v: UnsafePointer<Float>, vStride: Int, count: Int,
                                m: UnsafeMutablePointer<Float>, mStride: Int) {
    var a00 = SIMD8<Float>(), a01 = SIMD8<Float>(), a02 = SIMD8<Float>()
    var a10 = SIMD8<Float>(), a11 = SIMD8<Float>(), a12 = SIMD8<Float>()
    var a20 = SIMD8<Float>(), a21 = SIMD8<Float>(), a22 = SIMD8<Float>()
    var a30 = SIMD8<Float>(), a31 = SIMD8<Float>(), a32 = SIMD8<Float>()
    var vp = v, up = u
    for _ in 0..<count {
        let v0 = load8(vp), v1 = load8(vp + 8), v2 = load8(vp + 16)
        let u0 = SIMD8(repeating: up[0]), u1 = SIMD8(repeating: up[1])
        let u2 = SIMD8(repeating: up[2]), u3 = SIMD8(repeating: up[3])
        a00.addProduct(u0, v0); a01.addProduct(u0, v1); a02.addProduct(u0, v2)
        a10.addProduct(u1, v0); a11.addProduct(u1, v1); a12.addProduct(u1, v2)
        a20.addProduct(u2, v0); a21.addProduct(u2, v1); a22.addProduct(u2, v2)
        a30.addProduct(u3, v0); a31.addProduct(u3, v1); a32.addProduct(u3, v2)
        vp += vStride
        up += 4
    }
    store8(a00, m); store8(a01, m + 8); store8(a02, m + 16)
    store8(a10, m + mStride); store8(a11, m + mStride + 8); store8(a12, m + mStride + 16)
    store8(a20, m + 2 * mStride); store8(a21, m + 2 * mStride + 8); store8(a22, m + 2 * mStride + 16)
    store8(a30, m + 3 * mStride); store8(a31, m + 3 * mStride + 8); store8(a32, m + 3 * mStride + 16)
}

/// Aᵀ·M·A for 8 tiles (lanes) of one output channel, plus bias and optional ReLU, written into the
/// output plane where the tiles fall inside it.
/// `residual`, when given, is a plane laid out like `plane` whose values are added last (after the
/// ReLU: a fused residual Add).
private func winogradOutputGroup(_ m: UnsafeMutablePointer<Float>, xiStride: Int, bias: Float, relu: Bool,
                                 into plane: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
                                 row0: Int, rowsLeft: Int, tileX0: Int, tilesX: Int, width: Int) {
    withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 24) { q in
    // Column pass: q[a][j] = Σ_i Aᵀ[a][i] m[i][j].
    for j in 0..<6 {
        let m0 = load8(m + j * xiStride), m1 = load8(m + (6 + j) * xiStride), m2 = load8(m + (12 + j) * xiStride)
        let m3 = load8(m + (18 + j) * xiStride), m4 = load8(m + (24 + j) * xiStride), m5 = load8(m + (30 + j) * xiStride)
        let s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4
        q[j] = m0 + s12 + s34
        q[6 + j] = d12 + 2 * d34
        q[12 + j] = s12 + 4 * s34
        q[18 + j] = d12 + 8 * d34 + m5
    }
    let bias8 = SIMD8<Float>(repeating: bias)
    let tilesHere = min(8, tilesX - tileX0)
    let fullWidth = 4 * (tileX0 + 8) <= width
    for a in 0..<min(4, rowsLeft) {
        let r = a * 6
        let s12 = q[r + 1] + q[r + 2], d12 = q[r + 1] - q[r + 2], s34 = q[r + 3] + q[r + 4], d34 = q[r + 3] - q[r + 4]
        var y0 = q[r] + s12 + s34 + bias8
        var y1 = d12 + 2 * d34 + bias8
        var y2 = s12 + 4 * s34 + bias8
        var y3 = d12 + 8 * d34 + q[r + 5] + bias8
        if relu {
            y0.replace(with: 0, where: y0 .< 0); y1.replace(with: 0, where: y1 .< 0)
            y2.replace(with: 0, where: y2 .< 0); y3.replace(with: 0, where: y3 .< 0)
        }
        let offset = (row0 + a) * width + 4 * tileX0
        let row = plane + offset
        if fullWidth {
            // Interleave to y0[0] y1[0] y2[0] y3[0] y0[1] …: pairs of floats, then pairs of pairs.
            var low = SIMD16<Float>(), high = SIMD16<Float>()
            low.evenHalf = y0; low.oddHalf = y1
            high.evenHalf = y2; high.oddHalf = y3
            var all = SIMD16<UInt64>()
            all.evenHalf = unsafeBitCast(low, to: SIMD8<UInt64>.self)
            all.oddHalf = unsafeBitCast(high, to: SIMD8<UInt64>.self)
            UnsafeMutableRawPointer(row).storeBytes(of: unsafeBitCast(all, to: SIMD32<Float>.self), as: SIMD32<Float>.self)
            if let residual {
                let r = residual + offset
                store8(load8(row) + load8(r), row); store8(load8(row + 8) + load8(r + 8), row + 8)
                store8(load8(row + 16) + load8(r + 16), row + 16); store8(load8(row + 24) + load8(r + 24), row + 24)
            }
        } else {
            let columnsLeft = width - 4 * tileX0
            for l in 0..<tilesHere {
                let ys = (y0[l], y1[l], y2[l], y3[l])
                if 4 * l < columnsLeft { row[4 * l] = ys.0 }
                if 4 * l + 1 < columnsLeft { row[4 * l + 1] = ys.1 }
                if 4 * l + 2 < columnsLeft { row[4 * l + 2] = ys.2 }
                if 4 * l + 3 < columnsLeft { row[4 * l + 3] = ys.3 }
            }
            if let residual {
                for x in 0..<min(columnsLeft, 4 * tilesHere) { row[x] += residual[offset + x] }
            }
        }
    }
    }
}
