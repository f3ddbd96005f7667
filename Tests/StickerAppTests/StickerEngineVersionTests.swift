import Testing
@testable import StickerApp

@Test("Kernels forced through the environment key the cache apart from the default; the default key is as before")
func forcedKernelsAreKeyedApart() {
    let plain = StickerEngine.engineVersion(modelPath: nil, environment: [:])
    #expect(plain == "engine-\(StickerEngine.version);model=u2netp-309c8469")
    let bf16 = StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_PRECISION": "BF16"])
    let portable = StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_KERNELS": "portable"])
    #expect(Set([plain, bf16, portable]).count == 3)
    #expect(StickerEngine.engineVersion(modelPath: nil, environment: ["STICKERS_PRECISION": "fp32"]) == plain)
}
