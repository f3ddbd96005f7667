import Foundation
import Raster
import StickerKit
import StickerLibrary
import Testing
import TestSupport
@testable import StickerApp

/// Clips in the Stickers tab, driven through the service as the web app does: a clip is a
/// photo-like item whose sticker is an animated WebP, made off the main actor through the
/// animated-sticker cache, recorded in the library, restyled, and packed for the messaging apps.
/// The cut-out is `BorderContrastSaliency` (a subject on a plain ground), the decoding real ffmpeg.
@Suite struct ClipServiceTests {
    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "stickers-clip-service-\(UUID())")
    }

    private static func service(_ folder: URL, store: StickerLibrary?) -> StickersService {
        let model = StickerViewModel(processor: FakePhotoProcessor())
        model.clipStickers = ClipStickers(maker: ClipStickerMaker(predictor: BorderContrastSaliency()),
                                          cache: .inside(cacheDirectory: folder.appending(path: "cache")),
                                          scratch: folder)
        return StickersService(model: model, maxPhotos: 10, store: store)
    }

    private static func processAll(_ service: StickersService) async {
        service.startProcessing()
        for await _ in service.updates() {}
    }

    private static func state(_ service: StickersService, _ name: String) -> StickerViewModel.PhotoState? {
        service.overview.photos.first { $0.photo.name == name }?.state
    }

    @Test("An uploaded clip becomes a playing animated WebP, is recorded in the library, and a restart does no work")
    func clipIsProcessedRecordedAndRestored() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try await ClipTools.movingDisc(in: folder)
        let store = try StickerLibrary(folder: folder.appending(path: "data"))
        let service = Self.service(folder, store: store)
        try await service.add([.init(name: "disc", data: try Data(contentsOf: clip))])
        await Self.processAll(service)

        let files = try #require(Self.state(service, "disc")?.files, "the clip is processed: \(String(describing: Self.state(service, "disc")))")
        #expect(files.isAnimated)
        #expect(Self.state(service, "disc")?.isFromCache == false, "made by work the first time")
        let id = try #require(service.overview.photos.first?.photo.id)
        let webp = try await service.animatedSticker(id)
        #expect(ClipDetection.isAnimatedWebP(webp), "the sticker is an animated WebP")
        let first = try await service.png(id, .sticker)
        #expect(ImageFormat.sniff(first) == .png, "sticker.png is its first frame, a still")

        // A restart: the library gives the clip back, animated, with no work at all.
        let again = Self.service(folder, store: try StickerLibrary(folder: folder.appending(path: "data")))
        try await again.restore()
        let restored = try #require(Self.state(again, "disc"))
        #expect(restored.files?.isAnimated == true && restored.isFromCache, "restored as made: \(restored)")
    }

    @Test("A second run over the same clip comes from the cache; a restyle makes it in the new style")
    func secondRunIsCachedAndRestyleWorks() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try await ClipTools.movingDisc(in: folder)
        let first = Self.service(folder, store: nil)
        try await first.add([.init(name: "disc", data: try Data(contentsOf: clip))])
        await Self.processAll(first)
        let made = try #require(Self.state(first, "disc")?.files)

        let second = Self.service(folder, store: nil)
        try await second.add([.init(name: "disc", data: try Data(contentsOf: clip))])
        await Self.processAll(second)
        #expect(Self.state(second, "disc")?.isFromCache == true, "the second run does no work")

        let id = try #require(second.overview.photos.first?.photo.id)
        try await second.restyle(id, with: StickerStyle(outlineWidth: 12))
        let restyled = try #require(Self.state(second, "disc")?.files)
        #expect(restyled.isAnimated && restyled.sticker != made.sticker, "a new sticker in the new style")
        #expect(ClipDetection.isAnimatedWebP(try await second.animatedSticker(id)))
    }

    @Test("A clip with no subject and a corrupt clip each say why, as the photo's reason")
    func unusableClipsSayWhy() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try await ClipTools.movingDisc(in: folder)
        let bytes = try Data(contentsOf: clip)
        let ffmpeg = try ClipTools.require("ffmpeg")
        let blank = folder.appending(path: "blank.mp4")
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=10:d=1",
                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", blank.path]).status == 0)
        let service = Self.service(folder, store: nil)
        try await service.add([.init(name: "blank", data: try Data(contentsOf: blank)),
                               .init(name: "cut", data: bytes.prefix(bytes.count / 3))])
        await Self.processAll(service)
        #expect(Self.state(service, "blank")?.problem?.reason.contains("no clear subject") == true,
                "\(String(describing: Self.state(service, "blank")))")
        #expect(Self.state(service, "cut")?.problem?.reason.contains("not a readable clip") == true,
                "\(String(describing: Self.state(service, "cut")))")

        // The verdict on the blank clip is the clip's own: cached, so another run says it at once.
        #expect(await ProcessedPhotoDiskCache.standard(cacheDirectory: folder.appending(path: "cache")).usage().animated == 1)
        let again = Self.service(folder, store: nil)
        try await again.add([.init(name: "blank", data: try Data(contentsOf: blank))])
        await Self.processAll(again)
        #expect(Self.state(again, "blank")?.problem?.reason.contains("no clear subject") == true)
    }

    @Test("The ZIP pack holds each clip's animated WebP, the one its card plays, named like the stills and beside them")
    func zipPackHoldsTheClips() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try await ClipTools.movingDisc(in: folder)
        let service = Self.service(folder, store: nil)
        try await service.add([.init(name: "photo", data: Data("photo".utf8)), .init(name: "disc", data: try Data(contentsOf: clip))])
        await Self.processAll(service)
        let id = try #require(service.overview.photos.first { $0.photo.name == "disc" }?.photo.id)
        let shown = try await service.animatedSticker(id)

        let pack = try await service.zipPack()
        let saved = folder.appending(path: pack.fileName)
        try pack.data.write(to: saved)
        let listing = try await ClipTools.runToEnd(["unzip", "-Z1", saved.path])
        #expect(Set(listing.output.split(separator: "\n").map(String.init))
                == ["photo.sticker.png", "photo.gradient.png", "disc.sticker.webp", "palettes.json", "manifest.json"], "\(listing.output)")
        let extracted = folder.appending(path: "extracted.webp")
        #expect(try await ClipTools.runToEnd(["unzip", "-o", "-j", saved.path, "disc.sticker.webp", "-d", folder.path]).status == 0)
        try FileManager.default.moveItem(at: folder.appending(path: "disc.sticker.webp"), to: extracted)
        #expect(try Data(contentsOf: extracted) == shown, "the pack's clip is the card's animated WebP")
    }

    @Test("The Telegram animated pack is a ZIP of WebM video stickers; still packs leave the clips out")
    func animatedTelegramPack() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try await ClipTools.movingDisc(in: folder)
        let service = Self.service(folder, store: nil)
        try await service.add([.init(name: "disc", data: try Data(contentsOf: clip))])
        await Self.processAll(service)
        let pack = try await service.animatedPack(for: .telegram)
        #expect(pack.fileName == "stickers-animated.zip")
        let saved = folder.appending(path: pack.fileName)
        try pack.data.write(to: saved)
        let listing = try await ClipTools.runToEnd(["unzip", "-l", saved.path])
        #expect(listing.output.contains("disc.webm"), "\(listing.output)")
        await #expect(throws: ServiceError.self) { _ = try await service.messengerPack(for: .telegram) }
    }
}
