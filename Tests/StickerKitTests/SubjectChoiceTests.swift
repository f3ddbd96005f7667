import Foundation
import Testing
import Raster
@testable import StickerKit

/// Three separate discs on a flat background: two large (the main subjects, as the cut-out has
/// always kept them) and one small (a subject of its own, but not a main one).
private enum ThreeDiscs {
    static let width = 480, height = 320
    static let discs: [(x: Double, y: Double, r: Double, color: RGBA8)] = [
        (110, 160, 60, RGBA8(r: 220, g: 40, b: 40)),
        (300, 100, 45, RGBA8(r: 40, g: 60, b: 220)),
        (290, 262, 22, RGBA8(r: 230, g: 220, b: 40)),
    ]

    /// The photo and each disc's true coverage.
    static func scene() -> (image: Image, truths: [[Double]]) {
        var image = Image(width: width, height: height, fill: RGBA8(r: 60, g: 150, b: 70))
        var truths = [[Double]](repeating: [Double](repeating: 0, count: width * height), count: discs.count)
        for (d, disc) in discs.enumerated() {
            let one = SubjectScenes.disc(width: width, height: height, centerX: disc.x, centerY: disc.y, radius: disc.r,
                                         color: disc.color)
            for i in 0..<(width * height) where one.truth[i] > 0 {
                truths[d][i] = one.truth[i]
                for c in 0..<4 { image.pixels[i * 4 + c] = one.image.pixels[i * 4 + c] }
            }
        }
        return (image, truths)
    }

    static func cut(choice: SubjectChoice = .main) async throws -> (sticker: Sticker, truths: [[Double]]) {
        let scene = scene()
        var extractor = SubjectExtractor(predictor: ContrastSaliency(gridSide: 80))
        extractor.choice = choice
        return (try await extractor.extractSubject(from: scene.image), scene.truths)
    }
}

/// Fraction of `truth`'s area (≥ 0.5) that the mask covers (≥ 128).
private func coverage(_ mask: Mask, _ truth: [Double]) -> Double {
    var covered = 0, area = 0
    for (i, t) in truth.enumerated() where t >= 0.5 {
        area += 1
        if mask.values[i] >= 128 { covered += 1 }
    }
    return Double(covered) / Double(max(1, area))
}

@Test("Each separate shape is listed as a subject, largest first, with its box, a point inside and its share")
func listsEachSubject() async throws {
    let (sticker, truths) = try await ThreeDiscs.cut()
    let subjects = try #require(sticker.subjects)
    #expect(subjects.subjects.count == 3)
    for (rank, subject) in subjects.subjects.enumerated() {
        let disc = ThreeDiscs.discs[rank]
        // The box holds the disc and its soft edge (any alpha: the faint tail reaches ~10 px here).
        let b = subject.bounds
        func near(_ edge: Int, outside disc: Double, by sign: Double) -> Bool {
            let over = (Double(edge) - disc) * sign
            return over >= -1 && over <= 12
        }
        #expect(near(b.x, outside: disc.x - disc.r, by: -1) && near(b.x + b.width, outside: disc.x + disc.r, by: 1))
        #expect(near(b.y, outside: disc.y - disc.r, by: -1) && near(b.y + b.height, outside: disc.y + disc.r, by: 1))
        #expect(truths[rank][subject.pointY * ThreeDiscs.width + subject.pointX] >= 0.5)
    }
    let shares = subjects.subjects.map(\.share)
    #expect(abs(shares.reduce(0, +) - 1) < 1e-6)
    #expect(shares == shares.sorted(by: >))
}

@Test("By default the sticker keeps the main subjects only: the small one is left out, as before")
func theDefaultKeepsTheMainSubjects() async throws {
    let (sticker, truths) = try await ThreeDiscs.cut()
    #expect(sticker.subjects?.main == [0, 1])
    #expect(coverage(sticker.mask, truths[0]) > 0.99 && coverage(sticker.mask, truths[1]) > 0.99)
    #expect(coverage(sticker.mask, truths[2]) == 0)
}

@Test("A point inside one shape cuts that shape alone")
func aPointCutsThatSubjectAlone() async throws {
    let (sticker, truths) = try await ThreeDiscs.cut()
    let subjects = try #require(sticker.subjects)
    for (d, disc) in ThreeDiscs.discs.enumerated() {
        let rank = try subjects.subject(atX: Int(disc.x), y: Int(disc.y))
        #expect(rank == d)
        let recut = try #require(try await sticker.recut(choosing: .ranks([rank]), style: StickerStyle()))
        #expect(intersectionOverUnion(recut.mask, truths[d]) >= 0.95)
        #expect(recut.subjects?.chosen == [rank])
        for other in truths.indices where other != d {
            #expect(coverage(recut.mask, truths[other]) < 0.01)
        }
    }
}

@Test("Choosing all keeps every shape")
func allKeepsEverySubject() async throws {
    let (sticker, truths) = try await ThreeDiscs.cut()
    let all = try #require(try await sticker.recut(choosing: .all, style: StickerStyle()))
    let union = truths[0].indices.map { i in truths.map { $0[i] }.max() ?? 0 }
    #expect(intersectionOverUnion(all.mask, union) >= 0.95)
    // The same as asking the extractor for every subject in the first place.
    let direct = try await ThreeDiscs.cut(choice: .all)
    #expect(direct.sticker.mask == all.mask && direct.sticker.image == all.image)
}

@Test("Re-cutting the main choice gives back the sticker the extractor made")
func recuttingTheMainChoiceIsTheSameSticker() async throws {
    let (sticker, _) = try await ThreeDiscs.cut()
    let again = try #require(try await sticker.recut(choosing: .main, style: StickerStyle()))
    #expect(again == sticker)
}

@Test("A point on the background, outside the photo, or a subject beyond the last is refused, saying why")
func badChoicesAreRefused() async throws {
    let (sticker, _) = try await ThreeDiscs.cut()
    let subjects = try #require(sticker.subjects)
    #expect(throws: SubjectChoiceError.noSubjectAt(x: 5, y: 5)) { try subjects.subject(atX: 5, y: 5) }
    #expect(throws: SubjectChoiceError.pointOutsidePhoto(x: 480, y: 10, width: 480, height: 320)) {
        try subjects.subject(atX: 480, y: 10)
    }
    await #expect(throws: SubjectChoiceError.noSuchSubject(rank: 4, count: 3)) {
        _ = try await sticker.recut(choosing: .ranks([4]), style: StickerStyle())
    }
    #expect(SubjectChoiceError.noSuchSubject(rank: 4, count: 2).description.contains("has 2 subjects"))
    #expect(SubjectChoiceError.noSubjectAt(x: 5, y: 7).description == "no subject at 5,7")
}

@Test("Shapes the saliency joins are one subject")
func touchingShapesAreOneSubject() async throws {
    // Two overlapping discs of different colours: one confident region.
    var scene = SubjectScenes.disc(width: 300, height: 200, centerX: 120, centerY: 100, radius: 50)
    let second = SubjectScenes.disc(width: 300, height: 200, centerX: 190, centerY: 100, radius: 40,
                                    color: RGBA8(r: 40, g: 60, b: 220))
    for i in 0..<(300 * 200) where second.truth[i] > 0 {
        for c in 0..<4 { scene.image.pixels[i * 4 + c] = second.image.pixels[i * 4 + c] }
    }
    let sticker = try await SubjectExtractor(predictor: ContrastSaliency(gridSide: 80)).extractSubject(from: scene.image)
    #expect(sticker.subjects?.subjects.count == 1)
}

@Test("Subjects kept as their two files read back the same, and re-cut the same sticker")
func subjectsKeptAsFilesReadBackTheSame() async throws {
    let sticker = try await ThreeDiscs.cut().sticker
    let subjects = try #require(sticker.subjects)
    let (json, png) = try subjects.fileContents()
    let read = try PhotoSubjects(json: json, png: png)
    #expect(read == subjects)
    let again = try await Sticker(image: sticker.image, mask: sticker.mask,
                                  cutOut: SubjectExtractor.CutOut(mask: sticker.mask, image: sticker.image, originX: 0, originY: 0,
                                                                  subjects: read))
        .recut(choosing: .all, style: StickerStyle())
    let direct = try await sticker.recut(choosing: .all, style: StickerStyle())
    #expect(again?.mask == direct?.mask && again?.image == direct?.image)
    // An owner grid that does not match its size is damage, said so.
    var damaged = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    damaged["ownersWidth"] = subjects.ownersWidth + 1
    let damagedJSON = try JSONSerialization.data(withJSONObject: damaged)
    #expect(throws: PhotoSubjectsFileError.self) { try PhotoSubjects(json: damagedJSON, png: png) }
}
