#if arch(x86_64)
import NeuralNetAVX512
import NeuralNetBF16
#endif

// 3×3 stride-1 convolution by Winograd's minimal filtering F(4×4, 3×3) (Lavin & Gray 2015):
// each 4×4 output tile costs 36 multiplies per (input, output) channel pair instead of 144, and
// the 36 products per tile become 36 independent matrix products [K×C]·[C×tiles], which run as
// register-blocked SIMD8 micro-kernels. Transforms are vectorised over 8 tiles of a row. The
// kernels live in NeuralNetPortable/NeuralNetAVX2 and NeuralNetAVX512 (see KernelDispatch.swift).
//
//   V = Bᵀ d B (6×6 input patch)    U = G g Gᵀ (each run of a layer)    Y = Aᵀ [U ⊙ V] A
//
// Layouts: U is packed [ξ][K/4][C][4] (ξ = 6i + j), V is [ξ][C][S], and M = U·V is [K][ξ][S] so
// the output transform finds one channel's 36 products together. S is a block of tile "slots":
// 8 per (tile row, group of 8 tiles along x).
//
// With AVX-512 BF16 (`InstructionSet.avx512bf16`), in the convolutions the network's
// `ReducedPrecision` chose (`bf16Products`), the products take U and V rounded to bfloat16,
// pairs of input channels side by side ([ξ][K/4][C/2][4][2] and, one ξ at a time, [C/2][S][2]),
// and sum in float: `vdpbf16ps` does two multiply-adds per lane where an FMA does one. The
// transforms, bias, ReLU and residual stay in float.

/// The layout of one convolution's transformed filters U, `36 × paddedK × C` packed for the
/// micro-kernel. In a session's first run U is made by each task at the start of its part of the
/// layer (each image), into the task's scratch, rather than once at load: held for the whole network
/// it is 4× the weights (18 MB for U²-Net-p), and those fresh pages cost a one-shot command more
/// (~20 ms of page faults) than transforming each layer's filters again (a few ms per inference,
/// ~1 MB that stays in cache). From a session's second run on, each layer's U is made once and kept
/// by the session (`TransformedFilters`), shared by the tasks of a split convolution: a clip runs
/// the network tens of times in one session. The transform is computed in Float (it was Double):
/// differences are ~1e-7.
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

    /// Writes U for `weights` (`outChannels × inChannels × 3 × 3`) into `out` (`packedCount` floats),
    /// by `kernels`' `winogradFilterPack`.
    func pack(_ weights: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>, kernels: InstructionSet) {
        kernels.winogradFilterPack(weights, outChannels: outChannels, inChannels: inChannels,
                                   paddedOutChannels: paddedOutChannels, into: out)
    }
}

/// Scratch buffers of one task's Winograd convolutions, grown on demand.
struct WinogradScratch {
    /// The kernels used: the instruction set asked for, resolved for this CPU.
    var kernels: InstructionSet

    init(instructionSet: InstructionSet = .best) {
        kernels = instructionSet.resolved
    }

    var transformedFilters: [Float] = []
    /// U and one ξ of V in bfloat16, for the BF16 products (empty otherwise).
    var bf16Filters: [UInt16] = []
    var bf16Inputs: [UInt16] = []
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

    mutating func reserveBF16(filters: Int, input: Int) {
        // Written before read, as the float buffers.
        if bf16Filters.count < filters { bf16Filters = [UInt16](unsafeUninitializedCapacity: filters) { $1 = filters } }
        if bf16Inputs.count < input { bf16Inputs = [UInt16](unsafeUninitializedCapacity: input) { $1 = input } }
    }
}

/// One convolution's transformed filters as its products read them, made once and kept by an
/// `InferenceSession` for its later runs: U in float, or, for a layer whose products are in
/// bfloat16, only U rounded to bfloat16 (the float U is not read then). Immutable arrays: the
/// tasks of a split convolution read the same one.
enum TransformedFilters: Sendable {
    case float([Float])
    case bfloat16([UInt16])

    /// Bytes held.
    var byteCount: Int {
        switch self {
        case .float(let u): 4 * u.count
        case .bfloat16(let u): 2 * u.count
        }
    }
}

extension Convolution {
    /// Whether this convolution's products take bfloat16 inputs with `kernels`.
    func usesBF16Products(_ kernels: InstructionSet) -> Bool {
        #if arch(x86_64)
        kernels == .avx512bf16 && bf16Products
        #else
        false
        #endif
    }

    /// This convolution's transformed filters for `scratch`'s kernels, exactly as
    /// `convolveWinograd` makes them for itself (the same bits); nil when the Winograd kernel does
    /// not apply. A BF16 layer's float U is made in `scratch` and only its bfloat16 copy is kept.
    func transformedFilters(scratch: inout WinogradScratch) -> TransformedFilters? {
        guard let filter = winograd else { return nil }
        let kernels = scratch.kernels
        let bf16 = usesBF16Products(kernels)
        if !bf16 {
            var u = uninitializedFloats(filter.packedCount)
            weights.withUnsafeBufferPointer { w in
                u.withUnsafeMutableBufferPointer { filter.pack(w.baseAddress!, into: $0.baseAddress!, kernels: kernels) }
            }
            return .float(u)
        }
        #if arch(x86_64)
        if scratch.transformedFilters.count < filter.packedCount { scratch.transformedFilters = uninitializedFloats(filter.packedCount) }
        let kp = filter.paddedOutChannels, c = filter.inChannels, count = 36 * kp * ((c + 1) / 2) * 2
        let half = scratch.transformedFilters.withUnsafeMutableBufferPointer { uBuffer in
            weights.withUnsafeBufferPointer { w in
                filter.pack(w.baseAddress!, into: uBuffer.baseAddress!, kernels: kernels)
            }
            return [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
                neuralnet_bf16_pack_filters(uBuffer.baseAddress!, 36 * kp / 4, c, out.baseAddress!)
                initialized = count
            }
        }
        return .bfloat16(half)
        #else
        return nil
        #endif
    }

    /// Output rows `4·tileRows` (clipped to `oh`) of every output channel of one image, whose input
    /// channel c (h×w) is `channels[c]` (its resize tables in `tables`). `output`
    /// points at row `4·tileRows.lowerBound` of channel 0; channel planes are `planeStride` apart.
    /// `residual`, if any, is added to every output value after the ReLU. `transformed`: this
    /// layer's filters made by `transformedFilters(scratch:)` with these kernels, or nil to make
    /// them here, in the task's scratch.
    func convolveWinograd(_ filter: WinogradFilter, channels: [ChannelRows], tables: UnsafePointer<ResizeTable>,
                          h: Int, w: Int, oh: Int, ow: Int,
                          tileRows: Range<Int>, output: UnsafeMutablePointer<Float>, planeStride: Int,
                          residual: ResidualRows?, transformed: TransformedFilters? = nil, scratch: inout WinogradScratch) {
        let c = inChannels, k = outChannels, kp = filter.paddedOutChannels
        let tilesX = (ow + 3) / 4
        let groupsPerRow = (tilesX + 7) / 8
        let rowWidth = 32 * groupsPerRow + 8
        // Slots per block: V and M each about ≤ 512 KB (L2), a multiple of the kernel width (24
        // slots for AVX2, 48 for AVX-512, i.e. 3 or 6 groups of 8).
        let kernels = scratch.kernels
        #if arch(x86_64)
        let wide = kernels.hasAVX512, bf16 = usesBF16Products(kernels)
        let kernelGroups = wide ? 6 : 3
        #else
        let kernelGroups = 3
        #endif
        let slotsByCache = 3600 / max(c, kp)
        let blockGroups = max(kernelGroups, min(12, slotsByCache / 8 / kernelGroups * kernelGroups))
        let slots = 8 * blockGroups
        // Fused channels compute six rows (x < w) and blend a source row (its width) at a time.
        let blendWidth = channels.reduce(0) { if case .stored = $1.kind { $0 } else { max($0, $1.sourceWidth) } }
        let own = transformed == nil
        scratch.reserve(filters: own ? filter.packedCount : 0, input: 36 * c * slots, products: 36 * kp * slots,
                        rows: 6 * rowWidth, zeroRow: w, fusedRows: blendWidth > 0 ? 6 * w + blendWidth : 0)
        #if arch(x86_64)
        // Pairs of input channels, the BF16 products' unit of the sum.
        let pairs = (c + 1) / 2
        if bf16 { scratch.reserveBF16(filters: own ? 36 * kp * pairs * 2 : 0, input: pairs * 2 * slots) }
        #endif
        switch transformed {
        case .float?: precondition(!usesBF16Products(kernels), "float filters given to a convolution whose products are in bfloat16")
        case .bfloat16?: precondition(usesBF16Products(kernels), "bfloat16 filters given to a convolution whose products are in float")
        case nil: break
        }
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
        scratch.bf16Filters.withUnsafeMutableBufferPointer { uHalfBuffer in
        scratch.bf16Inputs.withUnsafeMutableBufferPointer { vHalfBuffer in
        transformed.withPointers { keptU, keptUHalf in
            let t = rowsBuffer.baseAddress!, zero = UnsafePointer(zeroBuffer.baseAddress!)
            let fused = fusedBuffer.baseAddress, blend = fusedBuffer.baseAddress.map { $0 + 6 * w }
            let v = vBuffer.baseAddress!, m = mBuffer.baseAddress!
            // U (float layers) and its bfloat16 copy (BF16 layers): kept by the session, or made here.
            var u = keptU
            #if arch(x86_64)
            var uHalf = keptUHalf
            #endif
            if own {
                filter.pack(weightsBuffer.baseAddress!, into: uBuffer.baseAddress!, kernels: kernels)
                u = UnsafePointer(uBuffer.baseAddress!)
                #if arch(x86_64)
                if bf16 {
                    neuralnet_bf16_pack_filters(u!, 36 * kp / 4, c, uHalfBuffer.baseAddress!)
                    uHalf = UnsafePointer(uHalfBuffer.baseAddress!)
                }
                #endif
            }
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
                            return source.row(y, x0: x0, x1: x1, tables: tables, scratch: fused! + r * w, blend: blend!, kernels: kernels)
                        }
                        let r = (row(0), row(1), row(2), row(3), row(4), row(5))
                        #if arch(x86_64)
                        if wide {
                            winogradInputColumnsAVX512(r.0, r.1, r.2, r.3, r.4, r.5, x0: x0, x1: x1, into: t + pl, stride: rowWidth)
                        } else {
                            kernels.winogradInputColumns(r, x0: x0, x1: x1, into: t + pl, stride: rowWidth)
                        }
                        #else
                        kernels.winogradInputColumns(r, x0: x0, x1: x1, into: t + pl, stride: rowWidth)
                        #endif
                        // Horizontal pass ·B for each group of 8 tiles (two at once with AVX-512:
                        // their slots are adjacent).
                        var g = g0
                        while g < g1 {
                            let slot = 8 * (group + (g - g0) - blockStart)
                            #if arch(x86_64)
                            if wide && g + 1 < g1 {
                                winogradInputGroup16AVX512(t + 32 * g, stride: rowWidth,
                                                           into: v + channel * sPadded + slot, xiStride: c * sPadded)
                                g += 2
                                continue
                            }
                            #endif
                            kernels.winogradInputGroup(t + 32 * g, stride: rowWidth,
                                                       into: v + channel * sPadded + slot, xiStride: c * sPadded)
                            g += 1
                        }
                        group += g1 - g0
                    }
                }
                // Zero the padding slots so the kernel's extra columns read finite values.
                if sPadded > s {
                    for xi in 0..<36 { for channel in 0..<c { (v + (xi * c + channel) * sPadded + s).update(repeating: 0, count: sPadded - s) } }
                }
                // 2. Thirty-six products M[ξ] = U[ξ]·V[ξ].
                for xi in 0..<36 {
                    #if arch(x86_64)
                    if bf16 {
                        let vHalf = vHalfBuffer.baseAddress!
                        neuralnet_bf16_pack_inputs(v + xi * c * sPadded, c, sPadded, vHalf)
                        neuralnet_bf16_winograd_products(uHalf! + xi * kp * pairs * 2, vHalf, m + xi * sPadded,
                                                         36 * sPadded, c, kp, sPadded)
                        continue
                    }
                    if wide {
                        winogradProductsAVX512(u: u! + xi * kp * c, v: v + xi * c * sPadded, m: m + xi * sPadded,
                                               mStride: 36 * sPadded, inChannels: c, paddedOutChannels: kp, slots: sPadded)
                        continue
                    }
                    #endif
                    kernels.winogradProducts(u: u! + xi * kp * c, v: v + xi * c * sPadded, m: m + xi * sPadded,
                                             mStride: 36 * sPadded, inChannels: c, paddedOutChannels: kp, slots: sPadded)
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
                        #if arch(x86_64)
                        if wide && group + 1 < blockEnd && g + 1 < groupsPerRow && 32 * g + 64 <= ow {
                            winogradOutputGroup16AVX512(products, xiStride: sPadded, bias: biasBuffer[channel], relu: fusedRelu,
                                                        into: outPlane, residual: residualPlane.map { UnsafePointer($0) },
                                                        row0: 4 * ty - outputRow0, rowsLeft: oh - 4 * ty, column0: 32 * g, width: ow)
                            group += 2
                            continue
                        }
                        #endif
                        kernels.winogradOutputGroup(products, xiStride: sPadded, bias: biasBuffer[channel], relu: fusedRelu,
                                                    into: outPlane, residual: residualPlane, row0: 4 * ty - outputRow0,
                                                    rowsLeft: oh - 4 * ty, tileX0: 8 * g, tilesX: tilesX, width: ow)
                        group += 1
                    }
                }
                blockStart = blockEnd
            }
        }}}}}}}}}}}
    }
}

extension Optional where Wrapped == TransformedFilters {
    /// Calls `body` with the kept float U or bfloat16 U (the other nil; both nil when none is kept).
    func withPointers<R>(_ body: (UnsafePointer<Float>?, UnsafePointer<UInt16>?) -> R) -> R {
        switch self {
        case .float(let u)?: u.withUnsafeBufferPointer { body($0.baseAddress, nil) }
        case .bfloat16(let u)?: u.withUnsafeBufferPointer { body(nil, $0.baseAddress) }
        case nil: body(nil, nil)
        }
    }
}
