import Testing
@testable import NeuralNet

/// A deterministic pseudo-random tensor (values in −1…1).
func pseudoRandom(_ shape: [Int], seed: UInt64) -> Tensor {
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    let values = (0..<shape.reduce(1, *)).map { _ -> Float in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int64(bitPattern: state >> 11) % 2001) / 1000 - 1
    }
    return Tensor(shape: shape).replacing(values)
}

/// The textbook definition, in Double, for checking the fast kernels.
func referenceConvolution(_ x: Tensor, _ w: Tensor, bias: [Float], pads: [Int], strides: (Int, Int), dilations: (Int, Int)) -> [Float] {
    let (n, c, h, wd) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
    let (k, kh, kw) = (w.shape[0], w.shape[2], w.shape[3])
    let oh = (h + pads[0] + pads[2] - dilations.0 * (kh - 1) - 1) / strides.0 + 1
    let ow = (wd + pads[1] + pads[3] - dilations.1 * (kw - 1) - 1) / strides.1 + 1
    var out = [Float]()
    for b in 0..<n { for o in 0..<k { for oy in 0..<oh { for ox in 0..<ow {
        var sum = Double(bias[o])
        for i in 0..<c { for ky in 0..<kh { for kx in 0..<kw {
            let iy = oy * strides.0 - pads[0] + ky * dilations.0, ix = ox * strides.1 - pads[1] + kx * dilations.1
            if iy >= 0, iy < h, ix >= 0, ix < wd {
                sum += Double(x.scalars[((b * c + i) * h + iy) * wd + ix]) * Double(w.scalars[((o * c + i) * kh + ky) * kw + kx])
            }
        } } }
        out.append(Float(sum))
    } } } }
    return out
}

@Suite struct ConvolutionTests {
    @Test func threeByThreeWithPaddingSumsTheNeighbourhood() throws {
        // All-ones 3×3 kernel over 1…9: each output is the sum of its in-bounds 3×3 neighbourhood, plus bias 0.5.
        let x = try Tensor(shape: [1, 1, 3, 3], scalars: [1, 2, 3, 4, 5, 6, 7, 8, 9])
        let conv = try Convolution(weights: Tensor(shape: [1, 1, 3, 3], repeating: 1), bias: [0.5], pads: [1, 1, 1, 1])
        var scratch = WinogradScratch()
        let y = try conv([x], scratch: &scratch)
        #expect(y.shape == [1, 1, 3, 3])
        let expected: [Float] = [12, 21, 16, 27, 45, 33, 24, 39, 28].map { $0 + 0.5 }
        #expect(maxAbsDifference(y.scalars, expected) < 1e-5)
    }

    @Test(arguments: [(5, 6, 13, 10), (16, 16, 20, 20), (3, 9, 7, 33), (32, 5, 40, 8)])
    func winogradMatchesTheDefinition(c: Int, k: Int, h: Int, w: Int) throws {
        let x = pseudoRandom([1, c, h, w], seed: UInt64(c * 100 + k))
        let weights = pseudoRandom([k, c, 3, 3], seed: UInt64(h * 7 + w))
        let bias = pseudoRandom([k], seed: 3).scalars
        var conv = try Convolution(weights: weights, bias: bias, pads: [1, 1, 1, 1])
        #expect(conv.winograd != nil)
        var scratch = WinogradScratch()
        let y = try conv([x], scratch: &scratch)
        let expected = referenceConvolution(x, weights, bias: bias, pads: [1, 1, 1, 1], strides: (1, 1), dilations: (1, 1))
        #expect(y.shape == [1, k, h, w])
        #expect(maxAbsDifference(y.scalars, expected) < 2e-4 * Float(c))
        conv.fusedRelu = true
        let r = try conv([x], scratch: &scratch)
        #expect(maxAbsDifference(r.scalars, expected.map { max($0, 0) }) < 2e-4 * Float(c))
    }

    /// U²-Net's side outputs (64 → 1): the narrow kernel, wide enough for its 64-column blocks.
    @Test(arguments: [(64, 1, 1, [1, 1, 1, 1]), (6, 2, 2, [2, 2, 2, 2]), (3, 1, 1, [1, 2, 0, 1])])
    func aNarrowConvolutionMatchesTheDefinitionOnOneOrTwoTasks(c: Int, k: Int, dilation: Int, pads: [Int]) async throws {
        let x = pseudoRandom([2, c, 23, 150], seed: UInt64(c + k))
        let weights = pseudoRandom([k, c, 3, 3], seed: 61), bias = pseudoRandom([k], seed: 62).scalars
        var conv = try Convolution(weights: weights, bias: bias, pads: pads, dilations: (dilation, dilation))
        #expect(conv.narrow && conv.winograd == nil)
        let expected = referenceConvolution(x, weights, bias: bias, pads: pads, strides: (1, 1), dilations: (dilation, dilation))
        for relu in [false, true] {
            conv.fusedRelu = relu
            var scratch = WinogradScratch(), helper = [WinogradScratch()]
            let one = try conv([x], scratch: &scratch)
            let two = try await conv([x], helpers: &helper, scratch: &scratch)
            #expect(maxAbsDifference(one.scalars, relu ? expected.map { max($0, 0) } : expected) < 1e-4 * Float(c))
            #expect(one == two)
            // A fused residual, in the row bands of another split convolution of the same size.
            let residual = try await conv([.tensor(pseudoRandom(x.shape, seed: 63))], helpers: &helper, scratch: &scratch)
            let withResidual = try await conv([.tensor(x)], residual: residual, helpers: &helper, scratch: &scratch)
            #expect(residual.bands.count == 2 && withResidual.bands.count == 2)
            #expect(withResidual.joined.scalars == zip(one.scalars, residual.joined.scalars).map { $0 + $1 })
        }
    }

    /// U²-Net's dilated layers (16 or 64 outputs on 10–40 px): eight output channels per vector give
    /// the very bits of the general direct kernel, whatever the kernel, stride, dilation and padding.
    @Test(arguments: [(8, 3, [2, 2, 2, 2], (1, 1), (2, 2)), (13, 3, [8, 8, 8, 8], (1, 1), (8, 8)),
                      (16, 1, [0, 0, 0, 0], (1, 1), (1, 1)), (17, 3, [1, 0, 2, 1], (2, 3), (1, 1)), (16, 3, [4, 4, 4, 4], (1, 1), (4, 4))])
    func vectorisingOutputChannelsGivesTheGeneralKernelsBits(k: Int, kernel: Int, pads: [Int], strides: (Int, Int), dilations: (Int, Int)) throws {
        let x = pseudoRandom([1, 6, 21, 23], seed: 71)
        let weights = pseudoRandom([k, 6, kernel, kernel], seed: 72), bias = pseudoRandom([k], seed: 73).scalars
        for relu in [false, true] {
            var conv = try Convolution(weights: weights, bias: bias, strides: strides, pads: pads, dilations: dilations)
            conv.fusedRelu = relu
            let (oh, ow) = conv.outputSize(h: 21, w: 23)
            var general = [Float](repeating: 0, count: k * oh * ow)
            x.scalars.withUnsafeBufferPointer { input in
                general.withUnsafeMutableBufferPointer {
                    conv.convolveDirect(planes: (0..<6).map { input.baseAddress! + $0 * 21 * 23 }, h: 21, w: 23, oh: oh, ow: ow,
                                        channels: 0..<k, output: $0.baseAddress!)
                }
            }
            // Every kernel set's (they multiply then add, so the same bits on any CPU).
            for kernels in Set([InstructionSet.portable, .avx2.resolved, .best.resolved]) {
                var vectorised = [Float](repeating: 0, count: k * oh * ow)
                x.scalars.withUnsafeBufferPointer { input in
                    vectorised.withUnsafeMutableBufferPointer {
                        conv.convolveAcrossChannels(planes: (0..<6).map { input.baseAddress! + $0 * 21 * 23 }, h: 21, w: 23, oh: oh, ow: ow,
                                                    channels: 0..<k, output: $0.baseAddress!, kernels: kernels)
                    }
                }
                #expect(general == vectorised, "\(kernels)")
            }
            let expected = referenceConvolution(x, weights, bias: bias, pads: pads, strides: strides, dilations: dilations)
            #expect(maxAbsDifference(general, relu ? expected.map { max($0, 0) } : expected) < 1e-4)
        }
    }

    @Test func avx512AndAVX2KernelsGiveIdenticalResults() throws {
        // Same sums in the same order; on a CPU without AVX-512 both sessions use AVX2.
        for (c, k, h, w) in [(5, 6, 13, 10), (64, 16, 40, 40), (3, 64, 33, 70)] {
            let x = pseudoRandom([1, c, h, w], seed: UInt64(c + k))
            let conv = try Convolution(weights: pseudoRandom([k, c, 3, 3], seed: 8), bias: pseudoRandom([k], seed: 2).scalars,
                                       pads: [1, 1, 1, 1])
            var avx2 = WinogradScratch(instructionSet: .avx2), avx512 = WinogradScratch(instructionSet: .avx512)
            #expect(try conv([x], scratch: &avx2) == conv([x], scratch: &avx512))
        }
        // Rows wide enough for AVX-512's 16-tile transforms (and their 8-tile edges), with the ReLU
        // and residual they apply as they write, over odd heights (a last partial tile row).
        for (c, k, h, w) in [(16, 16, 23, 160), (7, 5, 9, 100), (32, 64, 18, 64)] {
            let x = pseudoRandom([1, c, h, w], seed: UInt64(c * k))
            var conv = try Convolution(weights: pseudoRandom([k, c, 3, 3], seed: 4), bias: pseudoRandom([k], seed: 3).scalars,
                                       pads: [1, 1, 1, 1])
            conv.fusedRelu = true
            let residual = RowBands(pseudoRandom([1, k, h, w], seed: 5))
            var avx2 = WinogradScratch(instructionSet: .avx2), avx512 = WinogradScratch(instructionSet: .avx512)
            #expect(try conv([.tensor(x)], residual: residual, scratch: &avx2) == conv([.tensor(x)], residual: residual, scratch: &avx512))
        }
    }

    @Test("the BF16 Winograd products give the float kernels' output within F(4×4, 3×3)'s bfloat16 error")
    func bf16ProductsAgreeWithFloatWithinTheirError() throws {
        // U and V rounded to bfloat16 (8 significant bits: relative error ≤ 2⁻⁹ each), summed in
        // float. The output transform then takes differences of products up to ~10× larger than
        // the result (Aᵀ's 8s, Bᵀ's 4s and 5s), so a 4×4 tile's error is ~1–10 % of its largest
        // value (a Monte-Carlo model of one tile of 16 channels: median 2.6 %, max 9.6 %; a direct
        // convolution in bfloat16: 0.2 %). Stated bound: the difference from the float kernel is
        // under ⅛ of the largest output and its mean under 1/128 of it (measured here: ≤ 7.8 % and
        // ≤ 0.35 %); a layout mistake gives errors of the outputs' own size. Odd channel counts (a
        // last input channel paired with 0, a padded block of outputs), the ReLU and residual,
        // 16-tile rows and their 8-tile edges. On a CPU without AVX-512 BF16 both take the float kernels.
        for (c, k, h, w, relu) in [(5, 6, 13, 10, false), (3, 64, 33, 70, true), (64, 16, 40, 40, true),
                                   (16, 16, 23, 160, true), (7, 5, 9, 100, false), (32, 64, 18, 64, true)] {
            let x = pseudoRandom([1, c, h, w], seed: UInt64(c * k + 1))
            var conv = try Convolution(weights: pseudoRandom([k, c, 3, 3], seed: 9), bias: pseudoRandom([k], seed: 2).scalars,
                                       pads: [1, 1, 1, 1])
            conv.fusedRelu = relu
            conv.bf16Products = true
            #expect(conv.winograd != nil || conv.narrow)
            let residual = RowBands(pseudoRandom([1, k, h, w], seed: 6))
            var float = WinogradScratch(instructionSet: .avx512), bf16 = WinogradScratch(instructionSet: .avx512bf16)
            let a = try conv([.tensor(x)], residual: residual, scratch: &float)
            let b = try conv([.tensor(x)], residual: residual, scratch: &bf16)
            #expect(a.shape == b.shape)
            let scale = a.scalars.reduce(0) { max($0, abs($1)) }
            let differences = zip(a.scalars, b.scalars).map { abs($0 - $1) }
            let mean = differences.reduce(0, +) / Float(differences.count)
            #expect(differences.max()! < scale / 8, "\(c)→\(k): max \(differences.max()!) of \(scale)")
            #expect(mean < scale / 128, "\(c)→\(k): mean \(mean) of \(scale)")
            if InstructionSet.avx512bf16.resolved == .avx512bf16 { #expect(a != b, "the BF16 kernel ran") }
        }
    }

    @Test("the portable kernels (any CPU) give the AVX2 kernels' results within rounding, Winograd and narrow")
    func portableAndAVX2KernelsAgree() throws {
        // The portable kernels multiply then add where AVX2 fuses the two (x86-64 without FMA): the
        // last bit may differ, nothing more. On ARM64 both fuse, and on a CPU without AVX2 both
        // sessions use the portable kernels.
        for (c, k, h, w, relu) in [(5, 6, 13, 10, false), (64, 16, 40, 40, true), (16, 16, 23, 160, true), (64, 1, 23, 150, false)] {
            let x = pseudoRandom([1, c, h, w], seed: UInt64(c + k))
            var conv = try Convolution(weights: pseudoRandom([k, c, 3, 3], seed: 8), bias: pseudoRandom([k], seed: 2).scalars,
                                       pads: [1, 1, 1, 1])
            conv.fusedRelu = relu
            #expect(conv.winograd != nil || conv.narrow)
            let residual = RowBands(pseudoRandom([1, k, h, w], seed: 5))
            var portable = WinogradScratch(instructionSet: .portable), avx2 = WinogradScratch(instructionSet: .avx2)
            let a = try conv([.tensor(x)], residual: residual, scratch: &portable)
            let b = try conv([.tensor(x)], residual: residual, scratch: &avx2)
            #expect(a.shape == b.shape)
            #expect(maxAbsDifference(a.scalars, b.scalars) < 1e-5 * Float(c))
        }
    }

    @Test("the filter transform packs U = G·g·Gᵀ as the one-filter-at-a-time definition does, bit for bit, from every kernel set")
    func winogradFilterTransformMatchesItsDefinitionBitForBit() {
        // Odd counts: a padded block of output channels and a last input channel without a pair.
        for (k, c) in [(6, 5), (4, 1), (16, 16), (1, 3)] {
            let weights = pseudoRandom([k, c, 3, 3], seed: UInt64(10 * k + c)).scalars
            let filter = WinogradFilter(outChannels: k, inChannels: c)
            // The definition, in Float with the operations in the order the transform always took:
            // G·f (a scalar minus), then ·Gᵀ (a vector's minus, 0 − x: no −0).
            var expected = [Float](repeating: 0, count: filter.packedCount)
            func g(_ a: Float, _ b: Float, _ c: Float, minus: (Float) -> Float) -> [Float] {
                let sum = a + c
                return [a / 4, minus(sum + b) / 6, minus(sum - b) / 6, a / 24 + b / 12 + c / 6, a / 24 - b / 12 + c / 6, c]
            }
            func columns(_ a: Float, _ b: Float, _ c: Float) -> [Float] { g(a, b, c, minus: { -$0 }) }
            func rows(_ a: Float, _ b: Float, _ c: Float) -> [Float] { g(a, b, c, minus: { 0 - $0 }) }
            for o in 0..<k {
                for i in 0..<c {
                    let f = Array(weights[((o * c + i) * 9)..<((o * c + i) * 9 + 9)])
                    let t = [columns(f[0], f[3], f[6]), columns(f[1], f[4], f[7]), columns(f[2], f[5], f[8])]
                    for row in 0..<6 {
                        let u = rows(t[0][row], t[1][row], t[2][row])
                        for j in 0..<6 { expected[(6 * row + j) * filter.paddedOutChannels * c + ((o / 4) * c + i) * 4 + o % 4] = u[j] }
                    }
                }
            }
            for kernels in Set([InstructionSet.portable, .avx2.resolved, .best.resolved]) {
                var packed = [Float](repeating: .nan, count: filter.packedCount)
                weights.withUnsafeBufferPointer { w in
                    packed.withUnsafeMutableBufferPointer { filter.pack(w.baseAddress!, into: $0.baseAddress!, kernels: kernels) }
                }
                // Padding output channels' values are ignored by the products: compare the real ones.
                let real = (0..<packed.count).filter { $0 % 4 < k - 4 * ($0 / (4 * c) % (filter.paddedOutChannels / 4)) }
                #expect(real.allSatisfy { packed[$0].bitPattern == expected[$0].bitPattern }, "\(kernels), \(k)×\(c)")
                #expect(packed.allSatisfy { !$0.isNaN }, "\(kernels), \(k)×\(c): every value written")
            }
        }
    }

    @Test("an instruction set resolves to itself or the widest below it that the CPU has")
    func instructionSetsResolveToWhatTheCPUHas() {
        #expect(InstructionSet.portable.resolved == .portable)
        #expect(InstructionSet.avx2.resolved == (InstructionSet.cpuHasAVX2 ? .avx2 : .portable))
        #expect(InstructionSet.avx512.resolved == (InstructionSet.cpuHasAVX512 ? .avx512 : .avx2.resolved))
        #expect(InstructionSet.avx512bf16.resolved == (InstructionSet.cpuHasAVX512BF16 ? .avx512bf16 : .avx512.resolved))
        #expect(InstructionSet.best.resolved
                == (InstructionSet.reducedPrecision == .float ? InstructionSet.avx512.resolved : InstructionSet.avx512bf16.resolved))
        #expect(InstructionSet.best.resolved != .avx512 || InstructionSet.cpuHasAVX2)
        #expect(!InstructionSet.cpuHasAVX512BF16 || InstructionSet.cpuHasAVX512)
        #if !arch(x86_64)
        #expect(InstructionSet.best.resolved == .portable)
        #endif
    }

    @Test func dilatedStridedAndUnpaddedConvolutionsMatchTheDefinition() throws {
        let x = pseudoRandom([2, 4, 11, 9], seed: 9)
        for (kernel, pads, strides, dilations) in [(3, [2, 2, 2, 2], (1, 1), (2, 2)), (3, [8, 8, 8, 8], (1, 1), (8, 8)),
                                                   (1, [0, 0, 0, 0], (1, 1), (1, 1)), (3, [1, 0, 2, 1], (2, 3), (1, 1))] {
            let weights = pseudoRandom([5, 4, kernel, kernel], seed: UInt64(kernel))
            let conv = try Convolution(weights: weights, bias: [1, 2, 3, 4, 5], strides: strides, pads: pads, dilations: dilations)
            var scratch = WinogradScratch()
            let y = try conv([x], scratch: &scratch)
            let expected = referenceConvolution(x, weights, bias: [1, 2, 3, 4, 5], pads: pads, strides: strides, dilations: dilations)
            #expect(maxAbsDifference(y.scalars, expected) < 1e-4)
        }
    }

    @Test func aFusedChannelConcatReadsThePartsInPlace() throws {
        let a = pseudoRandom([2, 3, 9, 12], seed: 4), b = pseudoRandom([2, 5, 9, 12], seed: 5)
        let joined = try concatenate([(a.shape, a.scalars), (b.shape, b.scalars)], axis: 1)
        let whole = try Tensor(shape: joined.shape, scalars: joined.values)
        for dilation in [1, 2] {
            let conv = try Convolution(weights: pseudoRandom([7, 8, 3, 3], seed: 6), bias: nil,
                                       pads: [dilation, dilation, dilation, dilation], dilations: (dilation, dilation))
            var scratch = WinogradScratch()
            #expect(try conv([a, b], scratch: &scratch) == conv([whole], scratch: &scratch))
            #expect(throws: ModelError.self) { try conv([a], scratch: &scratch) }
        }
    }

    @Test func splittingOverTasksGivesTheSameResult() async throws {
        let x = pseudoRandom([1, 8, 18, 21], seed: 1)
        for weights in [pseudoRandom([24, 8, 3, 3], seed: 2), pseudoRandom([24, 8, 3, 3], seed: 2)] {
            for dilation in [1, 2] {
                let conv = try Convolution(weights: weights, bias: nil, pads: [dilation, dilation, dilation, dilation], dilations: (dilation, dilation))
                var scratch = WinogradScratch()
                let one = try conv([x], scratch: &scratch)
                var oneHelper = [WinogradScratch()], twoHelpers = [WinogradScratch(), WinogradScratch()]
                let two = try await conv([x], helpers: &oneHelper, scratch: &scratch)
                let three = try await conv([x], helpers: &twoHelpers, scratch: &scratch)
                // Again with the helpers' scratch (and recycled outputs) handed back by the first run.
                let threeAgain = try await conv([x], helpers: &twoHelpers, scratch: &scratch)
                #expect(one == two)
                #expect(one == three)
                #expect(one == threeAgain)
            }
        }
    }
}

extension ConvolutionTests {
    /// A session keeps each layer's transformed filters from its second run (issue 37): the
    /// convolution given them must give the bits it gives transforming them itself, in float and
    /// BF16 layers, on one task and split, for every image of a batch.
    @Test("filters transformed once and kept give the bits of filters transformed at each run, float and BF16, one task and split")
    func keptTransformedFiltersGiveTheSameBits() async throws {
        for instructionSet in [InstructionSet.portable, .avx2, .avx512, .avx512bf16] {
            for (c, k, h, w, bf16) in [(5, 6, 13, 10, false), (7, 12, 21, 70, true), (16, 16, 23, 160, false), (3, 64, 18, 40, true)] {
                var conv = try Convolution(weights: pseudoRandom([k, c, 3, 3], seed: UInt64(c + k)),
                                           bias: pseudoRandom([k], seed: 3).scalars, pads: [1, 1, 1, 1])
                conv.fusedRelu = true
                conv.bf16Products = bf16
                #expect(conv.winograd != nil)
                let x = pseudoRandom([2, c, h, w], seed: UInt64(c * k))
                var scratch = WinogradScratch(instructionSet: instructionSet), helpers = [WinogradScratch(instructionSet: instructionSet)]
                let filters = try #require(conv.transformedFilters(scratch: &scratch))
                if case .bfloat16 = filters {
                    #expect(bf16 && instructionSet.resolved == .avx512bf16, "bfloat16 filters kept only for a BF16 layer")
                } else {
                    #expect(!(bf16 && instructionSet.resolved == .avx512bf16), "a BF16 layer keeps only its bfloat16 U")
                }
                let own = try conv([.tensor(x)], scratch: &scratch)
                #expect(try conv([.tensor(x)], filters: filters, scratch: &scratch) == own)
                let split = try await conv([.tensor(x)], filters: filters, helpers: &helpers, scratch: &scratch)
                #expect(split.joined == own)
            }
        }
    }

    /// A convolution split over tasks leaves its output in row bands (no join); the next one reads
    /// them in place as stored, pooled or resized channels and as its residual.
    @Test func aConvolutionReadsTheRowBandsOfASplitOneInPlaceWithTheSameResult() async throws {
        let first = try Convolution(weights: pseudoRandom([6, 6, 3, 3], seed: 42), bias: nil, pads: [1, 1, 1, 1])
        var scratch = WinogradScratch(), oneHelper = [WinogradScratch()], twoHelpers = [WinogradScratch(), WinogradScratch()]
        let x = pseudoRandom([2, 6, 19, 37], seed: 41)
        let bands = try await first([.tensor(x)], helpers: &oneHelper, scratch: &scratch)
        #expect(bands.bands.count == 2)
        #expect(bands.joined == (try first([x], scratch: &scratch)))
        // Sources of a resize (10 → 19 rows: a sample's two rows may lie in different bands) and of a pooling.
        let small = try await first([.tensor(pseudoRandom([2, 6, 10, 19], seed: 44))], helpers: &oneHelper, scratch: &scratch)
        let large = try await first([.tensor(pseudoRandom([2, 6, 38, 74], seed: 45))], helpers: &oneHelper, scratch: &scratch)
        let (rows, columns) = try Resize(mode: .linear, coordinates: .pytorchHalfPixel)
            .samples(forShape: small.shape, scales: nil, sizes: IntTensor(shape: [4], scalars: [2, 6, 19, 37]))
        let parts: [ConvolutionInput] = [.tensor(bands), .resized(small, rows: rows, columns: columns), .pooled(large, height: 19, width: 37)]

        var second = try Convolution(weights: pseudoRandom([6, 18, 3, 3], seed: 43), bias: pseudoRandom([6], seed: 46).scalars, pads: [1, 1, 1, 1])
        second.fusedRelu = true
        let expected = try second(parts.map(\.joined), residual: RowBands(bands.joined), scratch: &scratch)
        let inPlace = try await second(parts, residual: bands, helpers: &oneHelper, scratch: &scratch)
        #expect(inPlace.bands.count == 2)
        #expect(inPlace.joined == expected)
        // Three tasks: the two-band residual no longer matches the parts and is joined first; the
        // three parts are joined as the convolution ends (kernels read at most two bands in place).
        let three = try await second(parts, residual: bands, helpers: &twoHelpers, scratch: &scratch)
        #expect(three.bands.count == 1)
        #expect(three.joined == expected)
        let next = try await first([.tensor(three)], helpers: &oneHelper, scratch: &scratch)
        #expect(next.joined == (try first([expected], scratch: &scratch)))
    }
}

@Suite struct PoolingAndResizeTests {
    @Test func maxPoolCeilModeKeepsTheLastPartialWindow() throws {
        let x = try Tensor(shape: [1, 1, 3, 3], scalars: [1, 5, 2, 3, 4, 9, 7, 0, 6])
        let floor = Pooling(kernel: (2, 2), strides: (2, 2), ceilMode: false)
        let ceil = Pooling(kernel: (2, 2), strides: (2, 2), ceilMode: true)
        #expect(try floor(x).scalars == [5])
        #expect(try ceil(x).shape == [1, 1, 2, 2])
        #expect(try ceil(x).scalars == [5, 9, 7, 6])
        let single = try Tensor(shape: [1, 1, 1, 1], scalars: [3])
        #expect(try ceil(single).scalars == [3])
        #expect(throws: ModelError.self) { try floor(single) }
    }

    @Test func linearResizeWithPytorchHalfPixelCoordinates() throws {
        let x = try Tensor(shape: [1, 1, 2, 2], scalars: [0, 1, 2, 3])
        let resize = Resize(mode: .linear, coordinates: .pytorchHalfPixel)
        let y = try resize(x, scales: nil, sizes: IntTensor(shape: [4], scalars: [1, 1, 4, 4]))
        #expect(y.shape == [1, 1, 4, 4])
        let row0: [Float] = [0, 0.25, 0.75, 1]
        let row1 = row0.map { $0 * 0.75 + ($0 + 2) * 0.25 }
        let row2 = row0.map { $0 * 0.25 + ($0 + 2) * 0.75 }
        let row3 = row0.map { $0 + 2 }
        #expect(maxAbsDifference(y.scalars, row0 + row1 + row2 + row3) < 1e-6)
    }

    @Test func nearestResizeByScales() throws {
        let x = try Tensor(shape: [1, 1, 1, 2], scalars: [1, 2])
        let resize = Resize(mode: .nearest, coordinates: .asymmetric, rounding: .floor)
        let y = try resize(x, scales: Tensor(shape: [4], scalars: [1, 1, 2, 2]), sizes: nil)
        #expect(y.shape == [1, 1, 2, 4])
        #expect(y.scalars == [1, 1, 2, 2, 1, 1, 2, 2])
    }

    @Test("pooled and resized rows are the same bits from every kernel set")
    func poolingAndResizeGiveTheSameBitsFromEveryKernelSet() throws {
        // Wide and odd enough for the vector loops (16 source columns per 8 pooled, 2× upsampling
        // 8 source columns at a time) and their scalar edges.
        let x = pseudoRandom([1, 3, 21, 67], seed: 31)
        let pool = Pooling(kernel: (2, 2), strides: (2, 2), ceilMode: true)
        let double = IntTensor(shape: [4], scalars: [1, 3, 42, 134]), odd = IntTensor(shape: [4], scalars: [1, 3, 30, 91])
        let resize = Resize(mode: .linear, coordinates: .pytorchHalfPixel)
        let portable = (try pool(x, kernels: .portable), try resize(x, scales: nil, sizes: double, kernels: .portable),
                        try resize(x, scales: nil, sizes: odd, kernels: .portable))
        for kernels in Set([InstructionSet.avx2.resolved, .best.resolved]) {
            #expect(try pool(x, kernels: kernels) == portable.0, "\(kernels)")
            #expect(try resize(x, scales: nil, sizes: double, kernels: kernels) == portable.1, "\(kernels)")
            #expect(try resize(x, scales: nil, sizes: odd, kernels: kernels) == portable.2, "\(kernels)")
        }
        #expect(portable.0.shape == [1, 3, 11, 34] && portable.1.shape == [1, 3, 42, 134])
    }

    @Test func resizeThatChangesChannelsIsRejected() throws {
        let x = Tensor(shape: [1, 2, 2, 2])
        #expect(throws: ModelError.self) {
            try Resize(mode: .linear, coordinates: .halfPixel)(x, scales: nil, sizes: IntTensor(shape: [4], scalars: [1, 3, 4, 4]))
        }
    }
}

@Suite struct ElementwiseAndShapeTests {
    @Test func reluAndSigmoid() throws {
        let x = try Tensor(shape: [3], scalars: [-2, 0, 3])
        #expect(x.relu().scalars == [0, 0, 3])
        #expect(maxAbsDifference(x.sigmoid().scalars, [0.11920292, 0.5, 0.95257413]) < 1e-6)
    }

    @Test func addBroadcastsLikeNumPy() throws {
        let a = Value.float(try Tensor(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6]))
        let b = Value.float(try Tensor(shape: [3], scalars: [10, 20, 30]))
        guard case .float(let sum) = try BinaryOperator.add.apply(a, b) else { Issue.record("not float"); return }
        #expect(sum.shape == [2, 3])
        #expect(sum.scalars == [11, 22, 33, 14, 25, 36])
        let column = Value.float(try Tensor(shape: [2, 1], scalars: [100, 200]))
        guard case .float(let product) = try BinaryOperator.multiply.apply(b, column) else { Issue.record("not float"); return }
        #expect(product.scalars == [1000, 2000, 3000, 2000, 4000, 6000])
        #expect(throws: ModelError.self) { try BinaryOperator.add.apply(a, .float(Tensor(shape: [4]))) }
    }

    @Test func concatAlongChannels() throws {
        let r = try concatenate([([1, 1, 2], [Float](arrayLiteral: 1, 2)), ([1, 2, 2], [3, 4, 5, 6])], axis: 1)
        #expect(r.shape == [1, 3, 2])
        #expect(r.values == [1, 2, 3, 4, 5, 6])
        let ints = try concatenate([([1], [Int64](arrayLiteral: 1)), ([2], [2, 3])], axis: 0)
        #expect(ints.values == [1, 2, 3])
    }

    @Test func gatherScalarIndexDropsTheAxis() throws {
        let shape: [Int64] = [1, 3, 320, 240]
        let r = try gather(shape, shape: [4], indices: IntTensor(shape: [], scalars: [-1]), axis: 0)
        #expect(r.shape == [])
        #expect(r.values == [240])
        let rows = try gather([Float](arrayLiteral: 1, 2, 3, 4, 5, 6), shape: [3, 2], indices: IntTensor(shape: [2], scalars: [2, 0]), axis: 0)
        #expect(rows.shape == [2, 2])
        #expect(rows.values == [5, 6, 1, 2])
        #expect(throws: ModelError.self) { try gather(shape, shape: [4], indices: IntTensor(shape: [], scalars: [4]), axis: 0) }
    }

    @Test func unsqueezeInsertsUnitDimensions() throws {
        #expect(try unsqueezedShape([], axes: [0]) == [1])
        #expect(try unsqueezedShape([3, 4], axes: [0, 3]) == [1, 3, 4, 1])
        #expect(try unsqueezedShape([3], axes: [-1]) == [3, 1])
    }

    @Test func sliceClampsBoundsAndSupportsNegativeSteps() throws {
        let shape: [Int64] = [1, 64, 40, 40]
        #expect(try slice(shape, shape: [4], starts: [0], ends: [2], axes: [0], steps: nil).values == [1, 64])
        #expect(try slice(shape, shape: [4], starts: [2], ends: [Int64.max], axes: nil, steps: nil).values == [40, 40])
        #expect(try slice(shape, shape: [4], starts: [-1], ends: [Int64.min], axes: [0], steps: [-1]).values == [40, 40, 64, 1])
        let grid = try slice([Float](arrayLiteral: 1, 2, 3, 4, 5, 6), shape: [2, 3], starts: [1], ends: [3], axes: [1], steps: nil)
        #expect(grid.shape == [2, 2])
        #expect(grid.values == [2, 3, 5, 6])
    }
}
