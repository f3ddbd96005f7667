import NeuralNet
import Testing
@testable import StickerApp

@Test("Kernels forced through the environment key the cache apart from the default; the default key is as before")
func forcedKernelsAreKeyedApart() {
    let base = "engine-\(StickerEngine.version);model=u2netp-309c8469"
    let plain = StickerEngine.engineVersion(modelPath: nil, environment: [:])
    let fp32 = StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_PRECISION": "fp32"])
    let bf16 = StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_PRECISION": "BF16"])
    let portable = StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_KERNELS": "portable"])
    // Float results keep the key they always had.
    #expect(fp32 == base)
    #expect(portable == base + ";kernels=portable")
    if InstructionSet.avx512bf16.resolved == .avx512bf16 {
        // BF16 everywhere: apart from float. The default is BF16 in the tolerant layers where its
        // products pay here (apart from both), else float (float's key).
        #expect(Set([fp32, bf16, portable]).count == 3)
        if ProductsCalibration.bf16Pays {
            #expect(plain == base + ";precision=" + ReducedPrecision.tolerantLayers.key!)
            #expect(Set([plain, fp32, bf16, portable]).count == 4)
        } else {
            #expect(plain == base)
        }
    } else {
        // No BF16 here: every choice of precision computes in float, under the key it always had.
        #expect(plain == base && bf16 == base)
    }
}
