import Foundation
import Hummingbird
import HummingbirdTesting
import StickerApp
import StickerKit
import StickerLibrary
import Testing
@testable import StickerWeb

/// The web app over a real library and disk cache: what it shows survives a restart.
@Suite struct LibraryPersistenceTests {
    struct Folders {
        let root = FileManager.default.temporaryDirectory.appending(path: "stickers-web-library-\(UUID())")
        var data: URL { root.appending(path: "data") }
        var cache: ProcessedPhotoDiskCache { ProcessedPhotoDiskCache(folder: root.appending(path: "cache")) }
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test("After a restart the photos, their stickers, the colour history and the favourites are all still there")
    func restartKeepsEverything() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let png = try samplePNG()
        let (photoID, schemeID, stickerBytes) = try await withWebApp(store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            try await client.upload(png, name: "cat")
            // The same bytes again are the photo already there: stored and listed once.
            let again = try await client.upload(png, name: "cat-again")
            #expect(again.status == .created)
            let (_, final) = try await client.processAll()
            #expect(final.photos.map(\.status) == ["processed"])
            let id = try #require(final.photos.first?.id)
            let sticker = try await client.execute(uri: "/api/stickers/photos/\(id)/sticker.png", method: .get)
            #expect(sticker.status == .ok)

            try await client.chooseColorPhoto(try fourColorPNG(), name: "quads.png")
            let state: ColorsState = try await client.execute(uri: "/api/colors/extract?count=3", method: .post).decoded()
            let scheme = try #require(state.history.first?.id)
            _ = try await client.execute(uri: "/api/colors/history/\(scheme)/favorite", method: .post)
            return (id, scheme, Data(buffer: sticker.body))
        }

        let processor = FakePhotoProcessor()
        try await withWebApp(processor: processor, store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            let snapshot = try await client.snapshot()
            #expect(snapshot.photos.map(\.id) == [photoID])
            #expect(snapshot.photos.map(\.status) == ["processed"])
            let sticker = try await client.execute(uri: "/api/stickers/photos/\(photoID)/sticker.png", method: .get)
            #expect(Data(buffer: sticker.body) == stickerBytes)
            let original = try await client.execute(uri: "/api/stickers/photos/\(photoID)/original", method: .get)
            #expect(Data(buffer: original.body) == png)
            let colors: ColorsState = try await client.execute(uri: "/api/colors", method: .get).decoded()
            #expect(colors.history.map(\.id) == [schemeID])
            #expect(colors.favorites.map(\.id) == [schemeID])
        }
        #expect(processor.calls == 0, "nothing was processed again")
    }

    @Test("After a restart a sticker can still be restyled and its subjects chosen, from the kept cut-out")
    func restartKeepsWhatRestylingNeeds() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let photoID = try await withWebApp(store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            try await client.upload(try samplePNG(), name: "cat")
            let (_, final) = try await client.processAll()
            return try #require(final.photos.first?.id)
        }
        let processor = FakePhotoProcessor()
        try await withWebApp(processor: processor, store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            let restyled = try await client.execute(uri: "/api/stickers/photos/\(photoID)/style", method: .put,
                                                    headers: [.contentType: "application/json"],
                                                    body: ByteBuffer(string: #"{"effect":"comic","outline":3}"#))
            #expect(restyled.status == .ok, "\(restyled.errorMessage ?? "")")
            let subjects = try await client.execute(uri: "/api/stickers/photos/\(photoID)/subjects", method: .get)
            #expect(subjects.status == .ok, "\(subjects.errorMessage ?? "")")
        }
        #expect(processor.calls == 0, "nothing was processed again")
    }

    @Test("After a restart a sticker shows the subjects chosen and the style picked, and the pack holds it so")
    func restartShowsTheChoiceAndStyle() async throws {
        struct StyledSnapshot: Decodable {
            struct Photo: Decodable { let id: UUID; let style: Style? }
            struct Style: Decodable, Equatable { let outline: Int?; let outlineColor: String?; let shadow: Bool?; let effect: String? }
            let photos: [Photo]
        }
        struct Listing: Decodable { let chosen: [Int] }
        let folders = Folders()
        defer { folders.remove() }
        let (photoID, seen, seenStyle) = try await withWebApp(store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            try await client.upload(try samplePNG(), name: "cat")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let chosen = try await client.execute(uri: "/api/stickers/photos/\(id)/subjects", method: .put,
                                                  headers: [.contentType: "application/json"], body: ByteBuffer(string: #"{"ranks": [2]}"#))
            #expect(chosen.status == .ok, "\(chosen.errorMessage ?? "")")
            let restyled = try await client.execute(uri: "/api/stickers/photos/\(id)/style", method: .put,
                                                    headers: [.contentType: "application/json"],
                                                    body: ByteBuffer(string: ##"{"effect":"comic","outline":3,"outlineColor":"#FF3366"}"##))
            #expect(restyled.status == .ok, "\(restyled.errorMessage ?? "")")
            let style = try #require(try restyled.decoded(StyledSnapshot.self).photos.first?.style)
            let sticker = try await client.execute(uri: "/api/stickers/photos/\(id)/sticker.png", method: .get)
            return (id, Data(buffer: sticker.body), style)
        }

        let processor = FakePhotoProcessor()
        try await withWebApp(processor: processor, store: try StickerLibrary(folder: folders.data), cache: folders.cache) { client in
            let snapshot: StyledSnapshot = try await client.execute(uri: "/api/stickers", method: .get).decoded()
            #expect(snapshot.photos.first?.style == seenStyle)
            #expect(seenStyle.effect == "comic" && seenStyle.outline == 3 && seenStyle.outlineColor == "#FF3366")
            let sticker = try await client.execute(uri: "/api/stickers/photos/\(photoID)/sticker.png", method: .get)
            #expect(sticker.status == .ok)
            #expect(Data(buffer: sticker.body) == seen, "the sticker as last seen, not as first made")
            let subjects: Listing = try await client.execute(uri: "/api/stickers/photos/\(photoID)/subjects", method: .get).decoded()
            #expect(subjects.chosen == [2])
            let pack = try await client.execute(uri: "/api/stickers/pack.zip", method: .get)
            #expect(Data(buffer: pack.body).range(of: seen) != nil, "the pack holds the sticker as last seen")
        }
        #expect(processor.calls == 0, "nothing was processed again")
    }

    @Test("Each pack downloaded is recorded in the library: format, stickers, size and digest of the bytes sent")
    func downloadsAreRecorded() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let store = try StickerLibrary(folder: folders.data)
        let (zip, telegram) = try await withWebApp(store: store, cache: folders.cache) { client in
            try await client.upload(try samplePNG(), name: "cat")
            _ = try await client.processAll()
            let zip = try await client.execute(uri: "/api/stickers/pack.zip", method: .get)
            let telegram = try await client.execute(uri: "/api/stickers/pack/telegram", method: .get)
            #expect(zip.status == .ok && telegram.status == .ok)
            // A refused download is no pack.
            #expect(try await client.execute(uri: "/api/stickers/pack/whatsapp", method: .get).status == .unprocessableContent)
            return (Data(buffer: zip.body), Data(buffer: telegram.body))
        }
        let packs = try await store.packs().sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        #expect(packs.map(\.format) == ["zip", "telegram"])
        #expect(packs.map(\.path) == ["stickers.zip", "stickers.zip"])
        #expect(packs.allSatisfy { $0.origin == .download && $0.stickers == ["cat"] && $0.stickerCount == 1 })
        #expect(packs.map(\.byteCount) == [zip.count, telegram.count])
        #expect(packs.map(\.digest) == [ContentDigest(zip).hex, ContentDigest(telegram).hex])
    }

    @Test("Handlers read and write the library while a batch runs and records its results")
    func handlersAndABatchAtOnce() async throws {
        let folders = Folders()
        defer { folders.remove() }
        let store = try StickerLibrary(folder: folders.data)
        let processor = FakePhotoProcessor(gateOpen: false)
        try await withWebApp(processor: processor, limits: WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 50),
                             store: store, cache: folders.cache) { client in
            for i in 0..<6 {
                var bytes = try samplePNG()
                bytes.append(contentsOf: [UInt8(i)])  // distinct digests
                try await client.upload(bytes, name: "p\(i)")
            }
            _ = try await client.execute(uri: "/api/stickers/process", method: .post)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for i in 0..<4 {
                        var bytes = try samplePNG()
                        bytes.append(contentsOf: [UInt8(100 + i)])
                        try await client.upload(bytes, name: "late\(i)")
                        _ = try await client.snapshot()
                    }
                }
                group.addTask {
                    for _ in 0..<10 { _ = try await store.photos(); _ = try await store.results(identity: "x") }
                }
                group.addTask {
                    try await client.chooseColorPhoto(try fourColorPNG(), name: "quads.png")
                    _ = try await client.execute(uri: "/api/colors/extract?count=3", method: .post)
                }
                try await group.waitForAll()
            }
            processor.openGate()
            let (_, final) = try await client.readEvents()
            #expect(final.photos.count == 10)
        }
        #expect(try await store.photos().count == 10)
        #expect(try await store.colorSchemes().history.count == 1)
    }
}
