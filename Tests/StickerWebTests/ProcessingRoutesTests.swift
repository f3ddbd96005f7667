import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import StickerWeb

@Suite struct ProcessingRoutesTests {
    @Test func processingStreamsProgressUntilEveryPhotoIsDone() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "good")
            try await client.upload(corruptJPEG, name: "broken", contentType: "image/jpeg")
            let (events, final) = try await client.processAll()
            #expect(events.last == "done")
            #expect(events.dropLast().allSatisfy { $0 == "progress" })
            #expect(final.isProcessing == false)
            #expect(final.progress.completed == 2 && final.progress.total == 2 && final.progress.fraction == 1)
            let good = try #require(final.photos.first { $0.name == "good" })
            #expect(good.status == "processed")
            #expect(good.colors.map(\.hex) == ["#C81E1E", "#14145A"])
            let broken = try #require(final.photos.first { $0.name == "broken" })
            #expect(broken.status == "invalid")
            #expect(broken.reason == "unreadable image: the image data is truncated")
        }
    }

    @Test("The snapshot tells an engine failure (status failed, engineFailure) from an invalid photo")
    func anEngineFailureIsNotAnInvalidPhoto() async throws {
        try await withWebApp { client in
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            try await client.upload(Data(png) + Data("engine".utf8), name: "engine")
            try await client.upload(corruptJPEG, name: "broken", contentType: "image/jpeg")
            let (_, final) = try await client.processAll()
            #expect(final.photos.first { $0.name == "engine" }?.status == "failed")
            #expect(final.photos.first { $0.name == "broken" }?.status == "invalid")
            #expect(final.engineFailure?.contains("no saliency map") == true)
        }
    }

    @Test func eventsWithNothingRunningEndAtOnceWithOneDoneEvent() async throws {
        try await withWebApp { client in
            let (events, final) = try await client.readEvents()
            #expect(events == ["done"])
            #expect(final.photos.isEmpty)
        }
    }

    @Test func aProcessedPhotoIsServedAsStickerAndGradientPNGs() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "good")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            for kind in ["sticker.png", "gradient.png"] {
                let response = try await client.execute(uri: "/api/stickers/photos/\(id)/\(kind)", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Data(buffer: response.body).starts(with: [0x89, 0x50, 0x4E, 0x47]))
            }
        }
    }

    @Test func stickerImagesOfPendingInvalidOrUnknownPhotosAreRefused() async throws {
        try await withWebApp { client in
            let pending = try #require(try await client.upload(try samplePNG(), name: "p").decoded(Snapshot.self).photos.first?.id)
            let notYet = try await client.execute(uri: "/api/stickers/photos/\(pending)/sticker.png", method: .get)
            #expect(notYet.status == .conflict)
            #expect(notYet.errorMessage == "p is not processed yet")

            try await client.upload(corruptJPEG, name: "broken", contentType: "image/jpeg")
            let final = try await client.processAll().final
            let broken = try #require(final.photos.first { $0.name == "broken" }?.id)
            let invalid = try await client.execute(uri: "/api/stickers/photos/\(broken)/gradient.png", method: .get)
            #expect(invalid.status == .conflict)
            #expect(invalid.errorMessage?.contains("cannot become a sticker") == true)

            let unknown = try await client.execute(uri: "/api/stickers/photos/\(UUID())/sticker.png", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage?.hasPrefix("no photo with id") == true)
            let malformed = try await client.execute(uri: "/api/stickers/photos/not-a-uuid/sticker.png", method: .get)
            #expect(malformed.status == .notFound)
        }
    }

    @Test func thePackIsAZipOfTheProcessedPhotos() async throws {
        try await withWebApp { client in
            let empty = try await client.execute(uri: "/api/stickers/pack.zip", method: .get)
            #expect(empty.status == .conflict)
            #expect(empty.errorMessage?.contains("no processed stickers") == true)

            try await client.upload(try samplePNG(), name: "good")
            try await client.upload(corruptJPEG, name: "broken", contentType: "image/jpeg")
            _ = try await client.processAll()
            let pack = try await client.execute(uri: "/api/stickers/pack.zip", method: .get)
            #expect(pack.status == .ok)
            #expect(pack.headers[.contentType] == "application/zip")
            #expect(pack.headers[.contentDisposition]?.contains("stickers.zip") == true)
            let zip = Data(buffer: pack.body)
            #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
            #expect(zip.range(of: Data("good.sticker.png".utf8)) != nil)
            #expect(zip.range(of: Data("broken.sticker.png".utf8)) == nil)
        }
    }

    @Test("Download for WhatsApp / Telegram / Signal: a pack each app accepts, or the reason it cannot be made")
    func messengerPacksDownload() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "good")
            _ = try await client.processAll()
            // One sticker: too few for WhatsApp (3…30), enough for Telegram and Signal.
            let whatsapp = try await client.execute(uri: "/api/stickers/pack/whatsapp", method: .get)
            #expect(whatsapp.status == .unprocessableContent)
            #expect(whatsapp.errorMessage?.contains("at least 3 stickers") == true)
            for (platform, marker) in [("telegram", "\"telegram\""), ("signal", "\"signal\"")] {
                let pack = try await client.execute(uri: "/api/stickers/pack/\(platform)", method: .get)
                #expect(pack.status == .ok)
                #expect(pack.headers[.contentDisposition]?.contains("stickers.zip") == true)
                let zip = Data(buffer: pack.body)
                #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
                #expect(zip.range(of: Data("good.webp".utf8)) != nil && zip.range(of: Data(marker.utf8)) != nil)
            }
            for _ in 0..<2 { try await client.upload(try samplePNG(), name: "more") }
            _ = try await client.processAll()
            let three = try await client.execute(uri: "/api/stickers/pack/whatsapp", method: .get)
            #expect(three.status == .ok)
            #expect(three.headers[.contentDisposition]?.contains("stickers.wastickers") == true)
            let wastickers = Data(buffer: three.body)
            #expect(wastickers.range(of: Data("tray.png".utf8)) != nil && wastickers.range(of: Data("title.txt".utf8)) != nil)
            let unknown = try await client.execute(uri: "/api/stickers/pack/myspace", method: .get)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func cancellingStopsTheBatchAndLeavesUnfinishedPhotosPending() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        try await withWebApp(processor: processor) { client in
            try await client.upload(try samplePNG(), name: "a")
            let started = try await client.execute(uri: "/api/stickers/process", method: .post)
            #expect(started.status == .accepted)
            #expect(try started.decoded(Snapshot.self).isProcessing)
            let cancelled = try await client.execute(uri: "/api/stickers/cancel", method: .post)
            #expect(cancelled.status == .ok)
            let (events, final) = try await client.readEvents()
            #expect(events.last == "done")
            #expect(final.isProcessing == false)
            #expect(final.photos.map(\.status) == ["pending"])
            #expect(final.progress.completed == 0)
        }
    }

    @Test func photosCanBeRemovedOneByOneOrAllAtOnce() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "a")
            let snapshot: Snapshot = try await client.upload(corruptJPEG, name: "b", contentType: "image/jpeg").decoded()
            let first = try #require(snapshot.photos.first?.id)
            let removed = try await client.execute(uri: "/api/stickers/photos/\(first)", method: .delete)
            #expect(try removed.decoded(Snapshot.self).photos.map(\.name) == ["b"])
            let again = try await client.execute(uri: "/api/stickers/photos/\(first)", method: .delete)
            #expect(again.status == .notFound)
            let cleared = try await client.execute(uri: "/api/stickers/photos", method: .delete)
            #expect(try cleared.decoded(Snapshot.self).photos.isEmpty)
        }
    }
}
