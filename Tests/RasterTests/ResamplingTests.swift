import Testing
@testable import Raster

@Test(arguments: ResamplingFilter.allCases, [(7, 5), (3, 2), (13, 11), (1, 1)])
func aFlatImageStaysFlatUnderEveryFilterAndSize(filter: ResamplingFilter, size: (Int, Int)) {
    let colour = RGBA8(r: 200, g: 100, b: 30, a: 180)
    let image = Image(width: 6, height: 4, fill: colour).resized(width: size.0, height: size.1, filter: filter)
    #expect((image.width, image.height) == size)
    #expect(image.pixels == Image(width: size.0, height: size.1, fill: colour).pixels)
    let mask = Mask(width: 6, height: 4, fill: 77).resized(width: size.0, height: size.1, filter: filter)
    #expect(mask.values.allSatisfy { $0 == 77 })
    let plane = Plane(width: 6, height: 4, fill: 0.25).resized(width: size.0, height: size.1, filter: filter)
    #expect(plane.values.allSatisfy { abs($0 - 0.25) < 1e-5 })
}

@Test func areaAveragingHalvesBlocksExactly() {
    // 4×2 → 2×1: each output pixel is the mean of a 2×2 block.
    let mask = Mask(width: 4, height: 2, values: [0, 10, 100, 200,
                                                   20, 30, 50, 250])
    #expect(mask.resized(width: 2, height: 1, filter: .area).values == [15, 150])
}

@Test func areaAveragingWeighsPartlyCoveredPixelsByTheirOverlap() {
    // 3 → 2: output 0 covers pixel 0 fully and half of pixel 1.
    let plane = Plane(width: 3, height: 1, values: [0, 3, 6])
    let out = plane.resized(width: 2, height: 1, filter: .area).values
    #expect(abs(out[0] - 1) < 1e-5)   // (0·1 + 3·0.5) / 1.5
    #expect(abs(out[1] - 5) < 1e-5)   // (3·0.5 + 6·1) / 1.5
}

@Test func downsamplingIgnoresTheColourOfTransparentPixels() {
    var image = Image(width: 2, height: 1)
    image[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
    image[1, 0] = RGBA8(r: 0, g: 255, b: 0, a: 0)  // invisible green must not tint the result
    let out = image.downsampled(width: 1, height: 1)
    #expect(out[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 128))
}

@Test func downsamplingToFitKeepsTheAspectRatioAndLeavesSmallImagesAlone() {
    let image = TestImages.gradient(width: 40, height: 30)
    #expect(image.downsampled(toFit: 8).width == 8)
    #expect(image.downsampled(toFit: 8).height == 6)
    #expect(image.downsampled(toFit: 40) == image)
    #expect(image.downsampled(toFit: 100) == image)
    let portrait = Mask(width: 30, height: 40).downsampled(toFit: 10)
    #expect((portrait.width, portrait.height) == (8, 10))
    #expect(Plane(width: 1, height: 500).downsampled(toFit: 50).width == 1)
}

@Test func bilinearUpsamplingInterpolatesBetweenPixelCentres() {
    let plane = Plane(width: 2, height: 1, values: [0, 1]).resized(width: 4, height: 1, filter: .bilinear)
    for (value, expected) in zip(plane.values, [0, 0.25, 0.75, 1] as [Float]) { #expect(abs(value - expected) < 1e-5) }
}

@Test func bicubicUpsamplingReproducesALinearRampAwayFromTheEdges() {
    let ramp = Plane(width: 8, height: 1, values: (0..<8).map { Float($0) })
    let out = ramp.resized(width: 16, height: 1, filter: .bicubic)
    // Output centre i maps to source coordinate (i + 0.5) / 2 - 0.5.
    for i in 4..<12 { #expect(abs(out.values[i] - (Float(i) + 0.5) / 2 + 0.5) < 1e-4) }
}

@Test func bicubicOvershootIsClampedForMasksButNotForPlanes() {
    let step = (0..<8).map { $0 < 4 ? Float(0) : Float(255) }
    let plane = Plane(width: 8, height: 1, values: step).resized(width: 29, height: 1, filter: .bicubic)
    #expect(plane.values.contains { $0 < 0 } && plane.values.contains { $0 > 255 })
    let mask = Mask(width: 8, height: 1, values: step.map { UInt8($0) }).resized(width: 29, height: 1, filter: .bicubic)
    #expect(mask.values.first == 0 && mask.values.last == 255)
    #expect(zip(mask.values, mask.values.dropFirst()).allSatisfy { Int($0) <= Int($1) + 8 })  // no wrap-around
}

@Test func shrinkingWithBilinearAveragesInsteadOfSkippingPixels() {
    // A 1-pixel checkerboard shrunk 4×: point sampling would give pure black or white.
    let checker = Mask(width: 16, height: 16, values: (0..<256).map { ($0 % 16 + $0 / 16) % 2 == 0 ? 0 : 255 })
    for filter in [ResamplingFilter.bilinear, .bicubic, .area] {
        let out = checker.resized(width: 4, height: 4, filter: filter)
        #expect(out.values.allSatisfy { abs(Int($0) - 128) <= 12 }, "\(filter): \(out.values)")
    }
}

@Test func anEmptyTargetGivesAnEmptyResultInsteadOfATrap() {
    #expect(TestImages.gradient().resized(width: 0, height: 5).pixels.isEmpty)
    #expect(Image(width: 0, height: 0).resized(width: 3, height: 3).width == 3)
}

@Test("Area resampling along an axis that grows is bilinear: there is no area to average")
func areaResamplingGrowsBilinearly() {
    let plane = Plane(width: 3, height: 2, values: [0, 3, 6, 9, 12, 15])
    for size in [(7, 5), (3, 4), (6, 1)] {
        let area = plane.resized(width: size.0, height: size.1, filter: .area)
        let mixed = size.1 < plane.height
            ? plane.resized(width: size.0, height: plane.height, filter: .bilinear).resized(width: size.0, height: size.1, filter: .area)
            : plane.resized(width: size.0, height: size.1, filter: .bilinear)
        #expect(zip(area.values, mixed.values).allSatisfy { abs($0 - $1) < 1e-5 }, "\(size)")
    }
}
