import Foundation
import Raster
import StickerKit
import StickerLibrary
import Testing
import TestSupport
@testable import StickerApp

/// A processor whose 4×2 sticker has two subjects (its left and right halves), so subjects can be
/// chosen without the network; counts its calls.
nonisolated final class TwoSubjectsProcessor: PhotoProcessing {
    private let callCount = Locked(0)
    let outputIdentity = "two-subjects-1"
    var calls: Int { callCount.withLock { $0 } }

    func process(data: Data) async throws -> ProcessedPhoto {
        callCount.withLock { $0 += 1 }
        var image = Image(width: 4, height: 2, fill: RGBA8(r: 200, g: 30, b: 30))
        for y in 0..<2 { for x in 2..<4 { image[x, y] = RGBA8(r: 30, g: 30, b: 200) } }
        let mask = Mask(width: 4, height: 2, fill: 255)
        return ProcessedPhoto(
            sticker: Sticker(image: image, mask: mask,
                             cutOut: SubjectExtractor.CutOut(mask: mask, image: image, originX: 0, originY: 0, subjects: .sideBySide(image)),
                             style: .plain),
            colorScheme: PhotoColorScheme(colors: [PaletteColor(red: 200, green: 30, blue: 30, weight: 1)]))
    }
}

/// After a restart (a new model over the same library and cache) the stickers are what the person
/// last saw: the subjects chosen and the style picked, not the sticker as first made.
@Suite struct LibraryRestoreTests {
    struct Folders {
        let root = FileManager.default.temporaryDirectory.appending(path: "stickers-restore-tests-\(UUID())")
        var library: URL { root.appending(path: "data") }
        func cache(_ name: String = "cache") -> ProcessedPhotoDiskCache { ProcessedPhotoDiskCache(folder: root.appending(path: name)) }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    static let comic = StickerStyle(outlineWidth: 3, shadow: StickerStyle.Shadow(), effect: .comic)

    /// A first session: one photo (a file the library knows), processed, its right subject alone
    /// chosen, then restyled comic; recorded in the library. Returns the model, the photo, its
    /// digest and the files the person last saw.
    func firstSession(_ folders: Folders, library: StickerLibrary) async throws -> (StickerViewModel, SelectedPhoto, String, StickerFiles) {
        let bytes = Data("two subjects".utf8)
        try FileManager.default.createDirectory(at: folders.root, withIntermediateDirectories: true)
        let file = folders.root.appending(path: "two.png")
        try bytes.write(to: file)
        let photo = SelectedPhoto(file: file)
        let digest = ContentDigest(bytes).hex
        try await library.addPhotos([LibraryPhoto(id: photo.id, digest: digest, name: photo.name, byteCount: bytes.count,
                                                  origin: .folder, sourcePath: file.path, position: 0)])
        let model = StickerViewModel(cache: ProcessedPhotoCache(processor: TwoSubjectsProcessor(), disk: folders.cache()))
        model.select([photo])
        await model.processAllPhotos()
        try await model.chooseSubjects(photo.id, .ranks([1]))
        try await model.restyle(photo.id, with: Self.comic)
        #expect(try await model.record([photo.id: digest], in: library) == [photo.id])
        return (model, photo, digest, try #require(model.processedPhotos[photo.id]))
    }

    func bytes(_ url: URL?) throws -> Data? {
        try url.map { try Data(contentsOf: $0) }
    }

    @Test("A new model restores the subjects chosen and the style picked: the same sticker, cut-out and choice")
    func restoresChoiceAndStyle() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let library = try StickerLibrary(folder: folders.library)
        let (first, photo, digest, seen) = try await firstSession(folders, library: library)

        let processor = TwoSubjectsProcessor()
        let model = StickerViewModel(cache: ProcessedPhotoCache(processor: processor, disk: folders.cache()))
        let restored = try await model.restore(from: try StickerLibrary(folder: folders.library))
        #expect(restored.digests == [photo.id: digest] && restored.recorded == [photo.id])
        let files = try #require(model.processedPhotos[photo.id])
        #expect(try bytes(files.sticker) == bytes(seen.sticker))
        #expect(try bytes(files.gradient) == bytes(seen.gradient))
        #expect(try bytes(files.mask) == bytes(seen.mask))
        #expect(try bytes(files.cutOut) == bytes(seen.cutOut))
        #expect(files.chosenSubjects == [1])
        #expect(files.style == Self.comic)
        #expect(await model.subjects(of: photo.id)?.chosen == [1])
        // Not the sticker as first made (which the cache entry still holds).
        let firstMade = try #require(await model.cache.storedFiles(digest: digest))
        #expect(try bytes(files.sticker) != bytes(firstMade.sticker))

        // Restyling once more starts from the re-cut subject, as it would have without the restart.
        let puffy = StickerStyle(outlineWidth: 5, effect: .puffy)
        try await model.restyle(photo.id, with: puffy)
        try await first.restyle(photo.id, with: puffy)
        #expect(try bytes(model.processedPhotos[photo.id]?.sticker) == bytes(first.processedPhotos[photo.id]?.sticker))
        #expect(model.processedPhotos[photo.id]?.chosenSubjects == [1])
        #expect(processor.calls == 0, "nothing was processed again")
    }

    @Test("Without the cache entry the sticker, choice and style still come back, and restyling works from the library's cut-out")
    func restoresWithoutTheCache() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let library = try StickerLibrary(folder: folders.library)
        let (_, photo, _, seen) = try await firstSession(folders, library: library)

        let processor = TwoSubjectsProcessor()
        let model = StickerViewModel(cache: ProcessedPhotoCache(processor: processor, disk: folders.cache("emptied")))
        _ = try await model.restore(from: library)
        let files = try #require(model.processedPhotos[photo.id])
        #expect(try bytes(files.sticker) == bytes(seen.sticker))
        #expect(try bytes(files.cutOut) == bytes(seen.cutOut))
        #expect(files.chosenSubjects == [1] && files.style == Self.comic)
        #expect(files.subjects == nil, "only the cache keeps the subjects")
        try await model.restyle(photo.id, with: StickerStyle(outlineWidth: 1))
        #expect(processor.calls == 0)
    }

    @Test("Recording leaves out photos not yet made and engine failures, and records unusable photos with their reason")
    func recordsOnlyVerdicts() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let library = try StickerLibrary(folder: folders.library)
        let model = StickerViewModel(processor: FakePhotoProcessor())
        let good = photo("good", "good one"), bad = photo("bad", "bad one"), engine = photo("engine", "engine one")
        model.select([good, bad, engine])
        await model.processAllPhotos()
        let pending = photo("later", "later one")
        model.add([pending])
        let recorded = try await model.record([good.id: "g", bad.id: "b", engine.id: "e", pending.id: "p"], in: library)
        #expect(recorded == [good.id, bad.id])
        let results = try await library.results(identity: model.cache.identity)
        #expect(Set(results.keys) == ["g", "b"])
        #expect(results["b"]?.outcome == .unusable && results["b"]?.reason?.isEmpty == false)
        #expect(results["g"]?.outcome == .processed && results["g"]?.chosenSubjects == nil)
    }
}
