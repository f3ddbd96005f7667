import Foundation
import Hummingbird
import HummingbirdTesting
import Raster
import Testing
import StickerApp
import StickerWeb

/// The fake processor's 3×2 sticker has two subjects: its left two columns and its right column.
@MainActor
struct SubjectRoutesTests {
    private struct Listing: Decodable {
        struct Subject: Decodable { let rank: Int; let bbox: [Int]; let point: [Int]; let chosen: Bool }
        let width: Int, height: Int
        let chosen: [Int]
        let subjects: [Subject]
    }

    private func putRanks(_ client: some TestClientProtocol, _ id: UUID, _ json: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/stickers/photos/\(id)/subjects", method: .put,
                                 headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    private func stickerSize(_ client: some TestClientProtocol, _ id: UUID) async throws -> [Int] {
        let png = try await client.execute(uri: "/api/stickers/photos/\(id)/sticker.png", method: .get)
        let image = try ImageDecoder.decode(Data(buffer: png.body))
        return [image.width, image.height]
    }

    @Test("a processed photo lists its subjects, and toggling one re-cuts the sticker")
    func listingAndTogglingSubjects() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "good")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let listed = try await client.execute(uri: "/api/stickers/photos/\(id)/subjects", method: .get)
            #expect(listed.status == .ok)
            let listing = try JSONDecoder().decode(Listing.self, from: Data(buffer: listed.body))
            #expect(listing.width == 3 && listing.height == 2 && listing.chosen == [1, 2])
            #expect(listing.subjects.map(\.rank) == [1, 2] && listing.subjects.allSatisfy(\.chosen))
            #expect(listing.subjects.map(\.bbox) == [[0, 0, 2, 2], [2, 0, 3, 2]])
            #expect(try await stickerSize(client, id) == [3, 2])

            // Only the right subject: its one column (re-cut stickers get the style's 2 px padding).
            let right = try await putRanks(client, id, #"{"ranks": [2]}"#)
            #expect(right.status == .ok)
            #expect(try JSONDecoder().decode(Listing.self, from: Data(buffer: right.body)).chosen == [2])
            let oneColumn = try await stickerSize(client, id)
            #expect(oneColumn == [1 + 4, 2 + 4])
            let again = try await client.execute(uri: "/api/stickers/photos/\(id)/subjects", method: .get)
            #expect(try JSONDecoder().decode(Listing.self, from: Data(buffer: again.body)).subjects.map(\.chosen) == [false, true])

            // Both again: the whole sticker, two columns wider.
            #expect(try await putRanks(client, id, #"{"ranks": [1, 2]}"#).status == .ok)
            let both = try await stickerSize(client, id)
            #expect(both == [oneColumn[0] + 2, oneColumn[1]])
        }
    }

    @Test("bad choices are refused with the reason: none, beyond the subjects, JSON, unprocessed photo")
    func badChoicesAreRefused() async throws {
        try await withWebApp { client in
            let pending = try #require(try await client.upload(try samplePNG(), name: "p").decoded(Snapshot.self).photos.first?.id)
            let notYet = try await client.execute(uri: "/api/stickers/photos/\(pending)/subjects", method: .get)
            #expect(notYet.status == .conflict && notYet.errorMessage == "p is not processed yet")
            let notYetPut = try await putRanks(client, pending, #"{"ranks": [1]}"#)
            #expect(notYetPut.status == .conflict && notYetPut.errorMessage == "p is not processed yet")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let none = try await putRanks(client, id, #"{"ranks": []}"#)
            #expect(none.status == .unprocessableContent && none.errorMessage == "choose at least one subject")
            let beyond = try await putRanks(client, id, #"{"ranks": [1, 3]}"#)
            #expect(beyond.status == .unprocessableContent)
            #expect(beyond.errorMessage == "there is no subject 3: the photo has 2 subjects")
            let zero = try await putRanks(client, id, #"{"ranks": [0]}"#)
            #expect(zero.status == .unprocessableContent && zero.errorMessage?.contains("numbered from 1") == true)
            #expect(try await putRanks(client, id, #"{"ranks": "all"}"#).status == .badRequest)
            #expect(try await putRanks(client, UUID(), #"{"ranks": [1]}"#).status == .notFound)
            // Nothing refused changed the sticker.
            #expect(try await stickerSize(client, id) == [3, 2])
        }
    }

    @Test("the subjects come with a sticker found in the disk cache: chosen without the processor")
    func subjectsComeFromTheDiskCache() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "stickers-web-subjects-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let png = try samplePNG()
        try await withWebApp(cache: ProcessedPhotoDiskCache(folder: root)) { client in
            try await client.upload(png, name: "first")
            _ = try await client.processAll()
        }
        let processor = FakePhotoProcessor()
        try await withWebApp(processor: processor, cache: ProcessedPhotoDiskCache(folder: root)) { client in
            try await client.upload(png, name: "again")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let listed = try await client.execute(uri: "/api/stickers/photos/\(id)/subjects", method: .get)
            #expect(try JSONDecoder().decode(Listing.self, from: Data(buffer: listed.body)).subjects.count == 2)
            #expect(try await putRanks(client, id, #"{"ranks": [1]}"#).status == .ok)
            // The entry does not keep the style, so the re-cut gets the default one: compare widths.
            let leftColumns = try await stickerSize(client, id)
            #expect(try await putRanks(client, id, #"{"ranks": [1, 2]}"#).status == .ok)
            let both = try await stickerSize(client, id)
            #expect(both == [leftColumns[0] + 1, leftColumns[1]])
        }
        #expect(processor.calls == 0, "the sticker and its subjects came from the disk cache")
    }
}
