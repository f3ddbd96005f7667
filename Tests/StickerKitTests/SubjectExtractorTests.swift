import Testing
import Raster
@testable import StickerKit

@Test func discOnFlatBackgroundIsCutOutAlongItsTrueEdge() async throws {
    let scene = SubjectScenes.disc(width: 200, height: 150, centerX: 95, centerY: 80, radius: 42)
    let cut = try await SubjectExtractor(predictor: ContrastSaliency()).cutOut(from: scene.image)
    #expect(intersectionOverUnion(cut.mask, scene.truth) > 0.95)
}

@Test func discOnNoisyBackgroundIsCutOutAlongItsTrueEdge() async throws {
    let scene = SubjectScenes.disc(width: 200, height: 150, centerX: 110, centerY: 70, radius: 38, noise: 25)
    let cut = try await SubjectExtractor(predictor: ContrastSaliency()).cutOut(from: scene.image)
    #expect(intersectionOverUnion(cut.mask, scene.truth) > 0.95)
}

@Test func theEdgeIsASoftBandOfAFewPixels() async throws {
    let scene = SubjectScenes.disc(width: 200, height: 150, centerX: 100, centerY: 75, radius: 45)
    let cut = try await SubjectExtractor(predictor: ContrastSaliency()).cutOut(from: scene.image)
    // Along the row through the centre, going outwards from the disc: some partial values, then 0.
    let row = (0..<200).map { Int(cut.mask[$0, 75]) }
    let partial = row.filter { $0 > 10 && $0 < 245 }.count
    #expect(partial >= 2)        // soft on both sides…
    #expect(partial <= 16)       // …but only a few pixels wide
    #expect(row[100] == 255)
    #expect(row[5] == 0 && row[195] == 0)
}

@Test func edgeColoursCarryNoHaloOfTheOldBackground() async throws {
    let scene = SubjectScenes.disc(width: 200, height: 150, centerX: 100, centerY: 75, radius: 45,
                                   color: RGBA8(r: 230, g: 30, b: 30), background: RGBA8(r: 20, g: 200, b: 40))
    let cut = try await SubjectExtractor(predictor: ContrastSaliency()).cutOut(from: scene.image)
    var worstGreen = 0
    for y in 0..<cut.image.height {
        for x in 0..<cut.image.width {
            let p = cut.image[x, y]
            if p.a > 25 && p.a < 230 { worstGreen = max(worstGreen, Int(p.g)) }
        }
    }
    // The photo's edge pixels are red–green mixes (green up to ~200); the cut-out's are red.
    #expect(worstGreen < 90)
}

@Test func aFlatImageHasNoClearSubject() async {
    let flat = Image(width: 120, height: 90, fill: RGBA8(r: 128, g: 140, b: 150))
    await #expect(throws: SubjectExtractionError.noClearSubject) {
        _ = try await SubjectExtractor(predictor: ContrastSaliency()).extractSubject(from: flat)
    }
}

@Test func theMaskHasThePhotosSizeAndTheStickerIsCropped() async throws {
    let scene = SubjectScenes.disc(width: 180, height: 120, centerX: 60, centerY: 60, radius: 30)
    let sticker = try await SubjectExtractor(predictor: ContrastSaliency()).extractSubject(from: scene.image)
    #expect(sticker.mask.width == 180 && sticker.mask.height == 120)
    #expect(sticker.image.width < 100 && sticker.image.height < 100)
    #expect(sticker.image.width > 60 && sticker.image.height > 60)
}

@Test func extractionIsDeterministic() async throws {
    let scene = SubjectScenes.disc(width: 160, height: 120, centerX: 80, centerY: 60, radius: 35, noise: 15)
    let extractor = SubjectExtractor(predictor: ContrastSaliency())
    let a = try await extractor.extractSubject(from: scene.image)
    let b = try await extractor.extractSubject(from: scene.image)
    #expect(a == b)
}

@Test func aLargeWorkingReductionStillGivesAFullSizeMask() async throws {
    var extractor = SubjectExtractor(predictor: ContrastSaliency())
    extractor.refinement.workingDimension = 100
    let scene = SubjectScenes.disc(width: 300, height: 200, centerX: 150, centerY: 100, radius: 60)
    let cut = try await extractor.cutOut(from: scene.image)
    #expect(cut.mask.width == 300 && cut.mask.height == 200)
    #expect(intersectionOverUnion(cut.mask, scene.truth) > 0.95)
}

/// Unsure (values around 0.65) on the whole frame, the contrast saliency on anything smaller: how a
/// 320 px network sees a small subject in a large photo.
private struct ShortSightedSaliency: SaliencyPredicting {
    let frameWidth: Int
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        var plane = try await ContrastSaliency().saliency(of: image)
        if image.width == frameWidth { plane.values = plane.values.map { $0 * 0.65 } }
        return plane
    }
}

@Test func aSmallSubjectTheFirstLookDoubtsIsFoundByACloserLook() async throws {
    let scene = SubjectScenes.disc(width: 400, height: 240, centerX: 250, centerY: 110, radius: 18)
    let extractor = SubjectExtractor(predictor: ShortSightedSaliency(frameWidth: 400))
    let cut = try await extractor.cutOut(from: scene.image)
    #expect(cut.mask.width == 400 && cut.mask.height == 240)
    #expect(intersectionOverUnion(cut.mask, scene.truth) > 0.9)
}

@Test func unsureEverywhereStaysNoSubjectAfterACloserLook() async {
    struct Unsure: SaliencyPredicting {
        func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
            var plane = try await ContrastSaliency().saliency(of: image)
            plane.values = plane.values.map { $0 * 0.65 }
            return plane
        }
    }
    let scene = SubjectScenes.disc(width: 400, height: 240, centerX: 250, centerY: 110, radius: 18)
    await #expect(throws: SubjectExtractionError.noClearSubject) {
        _ = try await SubjectExtractor(predictor: Unsure()).cutOut(from: scene.image)
    }
}

@Test func theSubjectIsReportedOnceAsTheWholeFrameSaliencyItWasCutFrom() async throws {
    // The closer look runs the network on a crop; what is reported is the frame's saliency.
    let scene = SubjectScenes.disc(width: 400, height: 240, centerX: 250, centerY: 110, radius: 18)
    let (reports, report) = AsyncStream.makeStream(of: Plane.self)
    var extractor = SubjectExtractor(predictor: ShortSightedSaliency(frameWidth: 400))
    extractor.located = { report.yield($0) }
    _ = try await extractor.cutOut(from: scene.image)
    report.finish()
    var planes: [Plane] = []
    for await plane in reports { planes.append(plane) }
    #expect(planes.count == 1)
    let plane = try #require(planes.first)
    // Same aspect as the photo, and salient where the disc is.
    #expect(abs(Float(plane.width) / Float(plane.height) - 400 / 240) < 0.05)
    let x = Int(Float(250) / 400 * Float(plane.width)), y = Int(Float(110) / 240 * Float(plane.height))
    #expect(plane.values[y * plane.width + x] > 0.5)
}

/// Reports each session it makes and each look, so a test can count them.
private struct CountingSaliency: SaliencyPredicting {
    let inner: any SaliencyPredicting
    let events: AsyncStream<String>.Continuation
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        events.yield("call")
        return try await inner.saliency(of: image)
    }
    func makeSession() -> any SaliencySession {
        events.yield("session")
        return Looks(predictor: self)
    }
    final class Looks: SaliencySession {
        let predictor: CountingSaliency
        init(predictor: CountingSaliency) { self.predictor = predictor }
        func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
            predictor.events.yield("look")
            return try await predictor.inner.saliency(of: image)
        }
    }
}

@Test func theLooksAtOnePhotoShareOneSession() async throws {
    // Unsure at first, so the extractor takes a closer look: two looks, one session.
    let scene = SubjectScenes.disc(width: 400, height: 240, centerX: 250, centerY: 110, radius: 18)
    let (events, report) = AsyncStream.makeStream(of: String.self)
    let extractor = SubjectExtractor(predictor: CountingSaliency(inner: ShortSightedSaliency(frameWidth: 400), events: report))
    _ = try await extractor.cutOut(from: scene.image)
    report.finish()
    var seen: [String] = []
    for await event in events { seen.append(event) }
    #expect(seen == ["session", "look", "look"])
}

@Test func whatThePhotoMakesTransparentStaysTransparentInTheSticker() async throws {
    // The disc spans x 55…145: its part in x 100..<130 is see-through, in x ≥ 130 half so.
    var scene = SubjectScenes.disc(width: 200, height: 150, centerX: 100, centerY: 75, radius: 45)
    for y in 0..<150 {
        for x in 100..<200 { var p = scene.image[x, y]; p.a = x < 130 ? 0 : 128; scene.image[x, y] = p }
    }
    let cut = try await SubjectExtractor(predictor: ContrastSaliency()).cutOut(from: scene.image)
    #expect(cut.mask[80, 75] == 255)
    #expect((100..<130).allSatisfy { x in (0..<150).allSatisfy { cut.mask[x, $0] == 0 } })
    // Half-transparent pixels of the subject keep half their coverage.
    #expect(abs(Int(cut.mask[135, 75]) - 128) <= 2)
}
