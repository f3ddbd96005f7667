import Foundation
import Observation
import Raster
import StickerKit
import TestSupport
import Testing
@testable import StickerApp

/// An extractor for model tests: records the counts it was asked for, returns one grey colour
/// per call (shade = first byte of the photo), and can hold every call until the test opens its gate.
nonisolated final class FakeColorSchemeExtractor: ColorSchemeExtracting {
    private struct State {
        var requestedCounts: [Int] = []
        var gateOpen = true
    }
    private let state = Locked(State())

    init(gateOpen: Bool = true) { state.withLock { $0.gateOpen = gateOpen } }

    var calls: Int { state.withLock { $0.requestedCounts.count } }
    var requestedCounts: [Int] { state.withLock { $0.requestedCounts } }
    func openGate() { state.withLock { $0.gateOpen = true } }

    func extractColorScheme(from data: Data, count: Int) async throws -> PhotoColorScheme {
        state.withLock { $0.requestedCounts.append(count) }
        while !state.withLock({ $0.gateOpen }) { try await Task.sleep(for: .milliseconds(2)) }
        let shade = data.first ?? 0
        return PhotoColorScheme(colors: [PaletteColor(red: shade, green: shade, blue: shade, weight: 1)])
    }
}

@Suite struct ColorSchemeModelTests {
    @Test func isExtractingIsTrueWhileTheWorkRunsAndFalseAfter() async throws {
        let extractor = FakeColorSchemeExtractor(gateOpen: false)
        let model = ColorSchemeModel(extractor: extractor)
        model.photo = photo("a", "A photo")
        #expect(!model.isExtracting)

        let extraction = Task { await model.extractColorScheme() }
        while extractor.calls == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(model.isExtracting)
        #expect(model.scheme == nil, "nothing is stored before the work finishes")

        extractor.openGate()
        await extraction.value
        #expect(!model.isExtracting)
        #expect(model.scheme?.colors.first?.hex == "#414141")
    }

    @Test func theLoadingStateIsPublishedBeforeTheWorkStarts() async {
        let extractor = FakeColorSchemeExtractor()
        let model = ColorSchemeModel(extractor: extractor)
        model.photo = photo("a", "A photo")
        // Observation reports the first change to isExtracting; note whether the extractor had
        // been called by then (it must not have been: the flag is set before the first await).
        let callsWhenFlagged = Locked<Int?>(nil)
        withObservationTracking { _ = model.isExtracting } onChange: {
            callsWhenFlagged.withLock { $0 = extractor.calls }
        }
        await model.extractColorScheme()
        #expect(callsWhenFlagged.withLock { $0 } == 0)
        #expect(!model.isExtracting)
        #expect(extractor.calls == 1)
    }

    @Test func historyKeepsEverySchemeNewestFirst() async {
        let model = ColorSchemeModel(extractor: FakeColorSchemeExtractor())
        for (name, bytes) in [("first", "\u{10}"), ("second", "\u{20}"), ("third", "\u{30}")] {
            model.photo = photo(name, bytes)
            await model.extractColorScheme()
        }
        #expect(model.history.map(\.photoName) == ["third", "second", "first"])
        #expect(model.scheme == model.history.first?.scheme)
        #expect(model.history.first?.scheme.colors.first?.hex == "#303030")
    }

    @Test func theHistoryIsTrimmedToItsLimitButFavouritesStay() async throws {
        let model = ColorSchemeModel(extractor: FakeColorSchemeExtractor(), historyLimit: 2)
        model.photo = photo("kept", "k")
        await model.extractColorScheme()
        let kept = try #require(model.history.first)
        model.toggleFavorite(kept)
        for name in ["b", "c", "d"] {
            model.photo = photo(name, name)
            await model.extractColorScheme()
        }
        #expect(model.history.map(\.photoName) == ["d", "c"])
        #expect(model.favorites.map(\.id) == [kept.id])
    }

    @Test func favouritesToggleOnAndOffNewestFirst() async throws {
        let model = ColorSchemeModel(extractor: FakeColorSchemeExtractor())
        model.photo = photo("a", "a")
        await model.extractColorScheme()
        model.favoriteCurrentScheme()
        model.photo = photo("b", "b")
        await model.extractColorScheme()
        model.favoriteCurrentScheme()
        model.favoriteCurrentScheme()  // already a favourite: no duplicate
        #expect(model.favorites.map(\.photoName) == ["b", "a"])

        let a = try #require(model.history.last)
        #expect(model.isFavorite(a.id))
        model.toggleFavorite(a)
        #expect(!model.isFavorite(a.id))
        #expect(model.favorites.map(\.photoName) == ["b"])
    }

    @Test func theColourCountStaysInRangeAndReachesTheExtractor() async {
        let extractor = FakeColorSchemeExtractor()
        let model = ColorSchemeModel(extractor: extractor, colorCount: 1)
        #expect(model.colorCount == 3)
        model.colorCount = 12
        #expect(model.colorCount == 10)
        model.colorCount = 8
        model.photo = photo("a", "a")
        await model.extractColorScheme()
        #expect(extractor.requestedCounts == [8])
        #expect(model.history.first?.colorCount == 8)
    }

    @Test func exportsTheLatestSchemeInEveryPaletteFormat() async throws {
        let model = ColorSchemeModel(extractor: FakeColorSchemeExtractor())
        #expect(model.export(.json) == nil)
        model.photo = SelectedPhoto(name: "grey", source: .data(Data([0x80])))
        await model.extractColorScheme()
        for format in PaletteFormat.allCases {
            let data = try #require(model.export(format))
            #expect(try format.decode(data).colors.map(\.hex) == ["#808080"])
        }
        #expect(String(decoding: model.export(.json) ?? Data(), as: UTF8.self)
                == ##"{"colors":[{"hex":"#808080","weight":1,"name":"medium grey","textColor":"#000000","contrast":{"white":3.95,"black":5.32}}]}"## + "\n")
        #expect(String(decoding: model.export(.gpl) ?? Data(), as: UTF8.self).contains("Name: grey"))
    }

    @Test("a mood set on the model reaches the extractor and is kept in the record")
    func moodReachesTheExtractor() async throws {
        let extractor = MoodRecordingExtractor()
        let model = ColorSchemeModel(extractor: extractor)
        model.photo = SelectedPhoto(name: "grey", source: .data(Data([0x80])))
        model.mood = .deep
        await model.extractColorScheme()
        #expect(extractor.moods == [.deep])
        #expect(model.history.first?.mood == .deep)
        model.mood = nil
        await model.extractColorScheme()
        #expect(extractor.moods == [.deep, nil])
        #expect(model.history.first?.mood == nil)
    }

    @Test func exportsToAFileAtomicallyAndRefusesWhenThereIsNothing() async throws {
        let model = ColorSchemeModel(extractor: FakeColorSchemeExtractor())
        let url = FileManager.default.temporaryDirectory.appending(path: "scheme-\(UUID()).ase")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: ColorSchemeExportError.nothingToExport) { try model.export(.ase, to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))

        model.photo = photo("a", "a")
        await model.extractColorScheme()
        try model.export(.ase, to: url)
        #expect(try PaletteFormat.ase.decode(Data(contentsOf: url)).colors.count == 1)
    }

    @Test func anUnreadablePhotoLeavesAReasonAndTheHistoryAsItWas() async {
        let model = ColorSchemeModel()  // the real extractor
        model.photo = photo("notes", "just some text")
        await model.extractColorScheme()
        #expect(!model.isExtracting)
        #expect(model.scheme == nil)
        #expect(model.history.isEmpty)
        #expect(model.errorMessage?.contains("not a JPEG, PNG or WebP") == true)

        model.photo = SelectedPhoto(file: URL(fileURLWithPath: "/nonexistent/photo.jpg"))
        await model.extractColorScheme()
        #expect(model.errorMessage?.contains("no such file") == true)
    }

    @Test func theRealExtractorFindsTheColoursOfAPhoto() async throws {
        var image = Image(width: 40, height: 20, fill: RGBA8(r: 255, g: 0, b: 0))
        for y in 0..<20 { for x in 30..<40 { image[x, y] = RGBA8(r: 0, g: 0, b: 255) } }
        let model = ColorSchemeModel(colorCount: 3)
        model.photo = SelectedPhoto(name: "flag", source: .data(try ImageEncoder.png(image)))
        await model.extractColorScheme()
        #expect(model.errorMessage == nil)
        #expect(model.scheme?.colors.map(\.hex) == ["#FF0000", "#0000FF"])
        #expect(model.scheme?.colors.map(\.weight) == [0.75, 0.25])
    }
}

/// Records the mood of every request.
nonisolated final class MoodRecordingExtractor: ColorSchemeExtracting {
    private let recorded = Locked<[PaletteMood?]>([])
    var moods: [PaletteMood?] { recorded.withLock { $0 } }

    func extractColorScheme(from data: Data, count: Int) async throws -> PhotoColorScheme {
        try await extractColorScheme(from: data, count: count, mood: nil)
    }

    func extractColorScheme(from data: Data, count: Int, mood: PaletteMood?) async throws -> PhotoColorScheme {
        recorded.withLock { $0.append(mood) }
        return PhotoColorScheme(colors: [PaletteColor(red: 1, green: 2, blue: 3, weight: 1)])
    }
}
