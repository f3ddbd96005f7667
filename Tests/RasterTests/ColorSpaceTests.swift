import Testing
@testable import Raster

@Test func srgbTransferRoundTripsEveryEightBitCode() {
    for code in 0...255 {
        let linear = SRGB.toLinear(Double(code) / 255)
        #expect(SRGB.encode8(linear) == UInt8(code))
        #expect(abs(Double(SRGB.toLinear(UInt8(code))) - linear) < 1e-6)
    }
}

@Test func oklabOfWhiteBlackAndRedMatchOttossonsReference() {
    let white = OKLab(red: 255, green: 255, blue: 255)
    #expect(abs(white.L - 1) < 1e-4 && abs(white.a) < 1e-4 && abs(white.b) < 1e-4)
    let black = OKLab(red: 0, green: 0, blue: 0)
    #expect(black.L == 0 && black.a == 0 && black.b == 0)
    let red = OKLab(red: 255, green: 0, blue: 0)
    #expect(abs(red.L - 0.62796) < 1e-4 && abs(red.a - 0.22486) < 1e-4 && abs(red.b - 0.12585) < 1e-4)
}

@Test func oklabRoundTripsToTheSameEightBitColour() {
    for r in stride(from: 0, through: 255, by: 17) {
        for g in stride(from: 0, through: 255, by: 17) {
            for b in stride(from: 0, through: 255, by: 17) {
                let colour = RGBA8(r: UInt8(r), g: UInt8(g), b: UInt8(b))
                #expect(OKLab(red: colour.r, green: colour.g, blue: colour.b).rgb8 == colour)
            }
        }
    }
}

@Test func cielabOfRedAndASteelBlueMatchTheReference() {
    let red = CIELab(red: 255, green: 0, blue: 0)
    #expect(abs(red.L - 53.2406) < 0.01 && abs(red.a - 80.0923) < 0.02 && abs(red.b - 67.2028) < 0.02)
    let steel = CIELab(red: 51, green: 102, blue: 153)
    #expect(abs(steel.L - 42.0080) < 0.01 && abs(steel.a + 0.1540) < 0.02 && abs(steel.b + 32.8429) < 0.02)
}

/// Pairs and expected differences from Sharma, Wu and Dalal's CIEDE2000 test data.
@Test(arguments: [
    (CIELab(L: 50, a: 2.6772, b: -79.7751), CIELab(L: 50, a: 0, b: -82.7485), 2.0425),
    (CIELab(L: 50, a: 0, b: 0), CIELab(L: 50, a: -1, b: 2), 2.3669),
    (CIELab(L: 50, a: 2.49, b: -0.001), CIELab(L: 50, a: -2.49, b: 0.0009), 7.1792),
    (CIELab(L: 60.2574, a: -34.0099, b: 36.2677), CIELab(L: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
    (CIELab(L: 22.7233, a: 20.0904, b: -46.694), CIELab(L: 23.0331, a: 14.973, b: -42.5619), 2.0373),
    (CIELab(L: 50, a: 2.5, b: 0), CIELab(L: 73, a: 25, b: -18), 27.1492),
])
func ciede2000MatchesSharmasTestData(first: CIELab, second: CIELab, expected: Double) {
    #expect(abs(first.deltaE2000(to: second) - expected) < 1e-4)
    #expect(abs(second.deltaE2000(to: first) - expected) < 1e-4)
}

@Test func identicalColoursHaveNoDifference() {
    let colour = CIELab(red: 12, green: 200, blue: 77)
    #expect(colour.deltaE2000(to: colour) == 0)
    let ok = OKLab(red: 12, green: 200, blue: 77)
    #expect(ok.distance(to: ok) == 0)
}
