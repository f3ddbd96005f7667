import Foundation
import Raster
import StickerKit
import Testing
@testable import StickerApp

/// Issue 34, item 6: clips' animated stickers are entries of the one disk cache the processed
/// photos are in — found whole by another process, under the same size limit and least recently
/// used trim as photos, spared while a running process uses them, cleared by `cache clear` — and
/// keyed by a canonical, versioned encoding of every option (`AnimatedStickerKey`).
@Suite struct AnimatedStickerCacheTests {
    nonisolated static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "stickers-clip-cache-tests-\(UUID())")
    }

    nonisolated static func cache(_ folder: URL, limit: Int64 = .max) -> AnimatedStickerCache {
        AnimatedStickerCache(disk: ProcessedPhotoDiskCache(folder: folder, sizeLimit: limit))
    }

    nonisolated static func sticker(bytes: Int = 1000, fill: UInt8 = 7) -> FittedAnimation {
        FittedAnimation(data: Data(repeating: fill, count: bytes), width: 4, height: 3, frames: 2, framesPerSecond: 15,
                        quality: 80, scale: 1)
    }

    nonisolated static func key(_ clip: String, settings: String = "clip-settings") -> ProcessedPhotoDiskCache.Key {
        ProcessedPhotoDiskCache.Key(digest: clip, identity: settings, kind: .animated)
    }

    nonisolated static let firstFrame = Image(width: 4, height: 3, fill: RGBA8(r: 200, g: 10, b: 10))

    /// The sticker a look found, if it found one.
    nonisolated static func sticker(of hit: AnimatedStickerCache.Hit?) -> (sticker: FittedAnimation, first: Image,
                                                                          entry: AnimatedStickerCache.Entry)? {
        guard case .sticker(let sticker, let first, let entry)? = hit else { return nil }
        return (sticker, first, entry)
    }

    /// The names of the entries in `folder` (hidden folders left out).
    nonisolated static func entries(_ folder: URL) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") })
    }

    // MARK: The key

    /// The stored properties' names of `value`.
    nonisolated static func labels(_ value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    @Test("Every option of the rules, the style, the clip maker and the tracking is in the clip key: a field added to one fails here until the key carries it")
    func keyCarriesEveryOption() throws {
        var style = StickerStyle()
        style.shadow = StickerStyle.Shadow()
        let maker = ClipStickerMaker(predictor: BorderContrastSaliency())
        let key = AnimatedStickerKey(engine: "e", rules: ClipStickers.plainRules, style: style, maker: maker)
        #expect(Self.labels(ClipStickers.plainRules) == Self.labels(key.rules))
        #expect(Self.labels(CanvasFit()) == Self.labels(key.rules.canvas))
        #expect(Self.labels(style) == Self.labels(key.style))
        let shadow = try #require(key.style.shadow)
        #expect(Self.labels(StickerStyle.Shadow()) == Self.labels(shadow))
        #expect(Self.labels(maker.tracking) == Self.labels(key.tracking))
        #expect(Self.labels(PlateMatte()) == Self.labels(key.tracking.matte))
        // The maker's own settings: its predictor is the key's `engine`, its style the key's
        // `style`, its canvas the rules' canvas (set from them before every clip); the frames it
        // keeps between its passes change no output (a piece decoded once or twice is the same).
        #expect(Self.labels(maker).subtracting(["predictor", "style", "canvas", "tracking", "keptFramesBudget"]) == Self.labels(key.maker))
    }

    @Test("The clip key's encoding is pinned (sorted-keys JSON, versioned): changing it changes every clip's key")
    func keyEncodingIsPinned() {
        var style = StickerStyle(outlineWidth: 6, outlined: true, shadow: StickerStyle.Shadow(), effect: .comic)
        style.outlineFraction = 0.02
        style.outlineColor = RGBA8(r: 255, g: 255, b: 255)
        style.padding = 2
        var maker = ClipStickerMaker(predictor: BorderContrastSaliency())
        maker.workingSide = 768
        maker.maximumFramesPerSecond = 15
        maker.maximumPixelCount = 40_000_000
        maker.tracking.keyframeInterval = 3
        maker.tracking.previousWeight = 0
        maker.tracking.trackingReach = 12
        maker.tracking.refusesScenery = true
        let rules = AnimatedStickerRules.of(.telegram)
        let key = AnimatedStickerKey(engine: "engine-1;model=m", rules: rules, style: style, maker: maker)
        #expect(key.canonical == #"{"engine":"engine-1;model=m","maker":{"maximumFramesPerSecond":15,"maximumPixelCount":40000000,"workingSide":768},"#
                + #""rules":{"canvas":{"exactSide":true,"maximumSide":512,"square":false},"fileExtension":"webm","maximumBytes":262144,"#
                + #""maximumFramesPerSecond":30,"maximumSeconds":3,"platform":"telegram"},"#
                + ##""style":{"effect":"comic","outlineColor":"#FFFFFFFF","outlineFraction":0.02,"outlineWidth":6,"outlined":true,"##
                + #""padding":2,"shadow":{"blurFraction":0.02,"offsetFraction":0.01,"opacity":0.35}},"#
                + #""tracking":{"edgeSteepness":1.5,"keyframeInterval":3,"matte":{"bandReach":2,"clearingRamp":2,"crumbShare":0.05,"enclosedFill":0.15,"fitFactor":2,"#
                + #""fitRadius":5,"holeArea":16,"holeGain":0.25,"holeGrowth":3,"holeMatch":3,"holeTexturedMatch":6,"localRadius":6,"#
                + #""localReach":2,"matchFactor":2.5,"maximumNoise":0.05,"minimumContrast":0.1,"misplacement":0.3,"pixelMatch":1,"restoredShare":0.15,"restoresBeyond":3,"#
                + #""restoringMisplacement":0.075,"snap":0.04,"#
                + #""solvesLocally":true},"motionSubject":{"beyond":3,"minimumShare":0.0003,"presentShare":0.6,"speck":6},"#
                + #""plateAgreeing":2,"plateSamples":16,"#
                + #""plateSubjectReach":6,"previousWeight":0,"refusesScenery":true,"trackingReach":12,"usesBackgroundPlate":true},"#
                + #""version":18}"#)
        let name = key.diskKey(clipDigest: "c0ffee").name
        #expect(name.hasPrefix("c0ffee-clip-") && name.count == "c0ffee-clip-".count + 16, "\(name)")
    }

    @Test("Another style, other rules, another engine or tracking give another key; the same options the same key")
    func keyTellsOptionsApart() {
        let maker = ClipStickerMaker(predictor: BorderContrastSaliency())
        func name(_ engine: String = "e", _ rules: AnimatedStickerRules = ClipStickers.plainRules, _ style: StickerStyle = StickerStyle(),
                  _ maker: ClipStickerMaker = maker) -> String {
            AnimatedStickerKey(engine: engine, rules: rules, style: style, maker: maker).diskKey(clipDigest: "ab").name
        }
        var tracked = maker
        tracked.tracking.keyframeInterval += 1
        let names = [name(), name("f"), name("e", .of(.whatsapp)), name("e", ClipStickers.plainRules, StickerStyle(outlineWidth: 9)),
                     name("e", ClipStickers.plainRules, StickerStyle(), tracked)]
        #expect(Set(names).count == names.count)
        #expect(name() == name())
    }

    @Test("A processed photo's entry keeps the name it always had, so an existing cache keeps serving")
    func photoKeyNamesAreUnchanged() {
        // The name main's cache gave this key before clips joined it.
        #expect(ProcessedPhotoDiskCache.Key(digest: "ab12", identity: "fake-1").name == "ab12-f2dab5586dcab67e")
        #expect(!ProcessedPhotoDiskCache.Key.isAnimated(ProcessedPhotoDiskCache.Key(digest: "ab12", identity: "fake-1").name))
        #expect(ProcessedPhotoDiskCache.Key.isAnimated(Self.key("ab12").name))
    }

    // MARK: Entries

    @Test("A clip's animated sticker stored by one process is found whole by another, and counted beside the photos")
    func storedStickerIsFoundByAnotherProcess() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sticker = Self.sticker()
        let entry = try await Self.cache(folder).store(sticker, first: Self.firstFrame, fileExtension: "webp", key: Self.key("c1"))
        #expect(entry.sticker.lastPathComponent == "sticker.webp" && entry.firstFrame.lastPathComponent == "first.png")
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: ProcessedPhotoDiskCache(folder: folder)).lookup(Data("photo".utf8))

        let hit = try #require(Self.sticker(of: await Self.cache(folder).cached(Self.key("c1"))))
        #expect(hit.sticker == sticker)
        #expect(hit.first == Self.firstFrame)
        #expect(hit.entry == entry)
        #expect(await Self.cache(folder).cached(Self.key("c1", settings: "other settings")) == nil)
        let usage = await ProcessedPhotoDiskCache(folder: folder).usage()
        #expect(usage.entries == 2 && usage.animated == 1, "\(usage)")
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".partial") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    @Test("A clip with no clear subject is remembered: another process's look refuses it without work, and it is trimmed like any entry")
    func clipWithoutSubjectIsRemembered() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await Self.cache(folder).rememberNoClearSubject(Self.key("blank"))
        guard case .noClearSubject? = await Self.cache(folder).cached(Self.key("blank")) else {
            Issue.record("the verdict is not remembered")
            return
        }
        #expect(await Self.cache(folder).cached(Self.key("blank", settings: "other settings")) == nil)
        #expect(await ProcessedPhotoDiskCache(folder: folder).usage().animated == 1)
        #expect(await Self.cache(folder, limit: 1).trim() == 1)
    }

    @Test("A damaged clip entry (its sticker gone, its manifest broken) is no entry: removed, never a crash")
    func damagedEntryIsNoEntry() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = Self.cache(folder)
        let entry = try await cache.store(Self.sticker(), first: Self.firstFrame, fileExtension: "webm", key: Self.key("c1"))
        try FileManager.default.removeItem(at: entry.sticker)
        #expect(await cache.cached(Self.key("c1")) == nil)
        #expect(Self.entries(folder).isEmpty)
        let again = try await cache.store(Self.sticker(), first: Self.firstFrame, fileExtension: "webm", key: Self.key("c1"))
        try Data("{ not json".utf8).write(to: again.sticker.deletingLastPathComponent().appending(path: "entry.json"))
        #expect(await cache.cached(Self.key("c1")) == nil)
        #expect(Self.entries(folder).isEmpty)
    }

    @Test("Photos and clips are trimmed together, least recently used first, past one size limit")
    func photosAndClipsAreTrimmedTogether() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = ProcessedPhotoDiskCache(folder: folder)
        var sizes: [String: Int64] = [:]
        var total: Int64 = 0
        // Oldest first: a photo, a clip, a photo, a clip; each writer's process ends after it.
        for name in ["p1", "c1", "p2", "c2"] {
            if name.hasPrefix("p") {
                _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data(name.utf8))
            } else {
                _ = try await Self.cache(folder).store(Self.sticker(bytes: 3000), first: Self.firstFrame, fileExtension: "webp",
                                                       key: Self.key(name))
            }
            let now = await disk.usage().bytes
            sizes[name] = now - total
            total = now
            try await Task.sleep(for: .milliseconds(20))  // distinct modification times
        }
        // Room for the two newest alone: the photo and the clip used least recently go.
        let limit = try #require(sizes["p2"]) + (try #require(sizes["c2"]))
        #expect(await Self.cache(folder, limit: limit).trim() == 2)
        #expect(await Self.cache(folder).cached(Self.key("c2")) != nil)
        #expect(await Self.cache(folder).cached(Self.key("c1")) == nil)
        let photos = FakePhotoProcessor()
        let fresh = ProcessedPhotoCache(processor: photos, disk: disk)
        #expect(try await fresh.lookup(Data("p2".utf8)).origin == .disk)
        #expect(try await fresh.lookup(Data("p1".utf8)).origin == .computed)
    }

    @Test("A trim or clear in another process never removes a clip entry a running process uses; it goes once that process ends")
    func entriesInUseAreSpared() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["c1", "c2"] {
            _ = try await Self.cache(folder).store(Self.sticker(), first: Self.firstFrame, fileExtension: "webp", key: Self.key(name))
        }
        // A running server shows c1 (its card plays the entry's file).
        var serving: AnimatedStickerCache? = Self.cache(folder)
        let shown = try #require(Self.sticker(of: await serving?.cached(Self.key("c1"))))
        #expect(await Self.cache(folder, limit: 1).trim() == 1, "a make's trim evicts all it may")
        #expect(FileManager.default.fileExists(atPath: shown.entry.sticker.path))
        #expect(try await ProcessedPhotoDiskCache(folder: folder).clear().entries == 0, "cache clear spares it too")
        serving = nil  // the server stops
        let removed = try await ProcessedPhotoDiskCache(folder: folder).clear()
        #expect(removed.entries == 1 && removed.animated == 1)
        #expect(Self.entries(folder).isEmpty)
    }

    @Test("Two processes storing the same clip at once: one whole entry, the first kept, no half entry ever found")
    func concurrentStoresLeaveOneWholeEntry() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = Self.key("c1")
        // Caches of their own (registries of their own): as separate processes are.
        let stores = try await withThrowingTaskGroup(of: AnimatedStickerCache.Entry.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await Self.cache(folder).store(Self.sticker(fill: UInt8(index)), first: Self.firstFrame,
                                                       fileExtension: "webp", key: key)
                }
                group.addTask {
                    // A reader meanwhile finds nothing or a whole entry.
                    if let hit = Self.sticker(of: await Self.cache(folder).cached(key)) {
                        #expect(hit.sticker.bytes == 1000 && hit.first == Self.firstFrame)
                    }
                    return AnimatedStickerCache.Entry(sticker: URL(fileURLWithPath: "/"), firstFrame: URL(fileURLWithPath: "/"))
                }
            }
            var all: [AnimatedStickerCache.Entry] = []
            for try await entry in group { all.append(entry) }
            return all
        }
        #expect(stores.count == 16)
        #expect(Self.entries(folder).count == 1)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".partial") }
        #expect(hidden.isEmpty, "\(hidden)")
    }
}
