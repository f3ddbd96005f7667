import Foundation
import Hummingbird
import HummingbirdTesting
import Raster
import Testing
@testable import StickerLibrary
import StickerWeb

struct ColorsState: Decodable {
    struct Record: Decodable {
        var id: UUID
        var photoName: String
        var colorCount: Int
        var colors: [Snapshot.Color]
        var isFavorite: Bool
    }
    var photoName: String?
    var colorCount: Int
    var minColorCount: Int
    var maxColorCount: Int
    var isExtracting: Bool
    var colors: [Snapshot.Color]?
    var error: String?
    var history: [Record]
    var favorites: [Record]
    var formats: [String]
}

/// A 4×4 PNG of four flat colours, one per quadrant.
func fourColorPNG() throws -> Data {
    var image = Image(width: 4, height: 4)
    let quadrants = [RGBA8(r: 220, g: 30, b: 30), RGBA8(r: 30, g: 180, b: 40), RGBA8(r: 20, g: 40, b: 200), RGBA8(r: 240, g: 220, b: 20)]
    for y in 0..<4 { for x in 0..<4 { image[x, y] = quadrants[(y / 2) * 2 + x / 2] } }
    return try ImageEncoder.png(image)
}

extension TestClientProtocol {
    @discardableResult
    func chooseColorPhoto(_ data: Data, name: String, contentType: String = "image/png") async throws -> TestResponse {
        try await execute(uri: "/api/colors/photo?name=\(name)", method: .post,
                          headers: [.contentType: contentType], body: ByteBuffer(bytes: data))
    }
}

@Suite struct ColorRoutesTests {
    @Test func theInitialStateOffersTheRangeAndFormats() async throws {
        try await withWebApp { client in
            let state: ColorsState = try await client.execute(uri: "/api/colors", method: .get).decoded()
            #expect(state.photoName == nil && state.colors == nil && state.history.isEmpty)
            #expect(state.minColorCount == 3 && state.maxColorCount == 10)
            #expect(state.formats == ["text", "json", "css", "gpl", "ase", "aco", "procreate", "sketchpalette", "scss", "tailwind"])
        }
    }

    @Test func extractingFindsTheColoursAndRecordsThemInTheHistory() async throws {
        try await withWebApp { client in
            let chosen: ColorsState = try await client.chooseColorPhoto(try fourColorPNG(), name: "quads.png").decoded()
            #expect(chosen.photoName == "quads")
            let response = try await client.execute(uri: "/api/colors/extract?count=4", method: .post)
            #expect(response.status == .ok)
            let state: ColorsState = try response.decoded()
            #expect(state.isExtracting == false)
            #expect(state.colorCount == 4)
            let colors = try #require(state.colors)
            #expect(!colors.isEmpty && colors.count <= 4)
            #expect(abs(colors.map(\.weight).reduce(0, +) - 1) < 0.01)
            #expect(state.history.map(\.photoName) == ["quads"])

            let photo = try await client.execute(uri: "/api/colors/photo", method: .get)
            #expect(photo.headers[.contentType] == "image/png")
        }
    }

    @Test("A scheme the library cannot keep is still shown, and the page is told why with a 507")
    func aSchemeTheLibraryCannotKeepIsA507() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-colors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try StickerLibrary(folder: folder)  // made with room, then only read
        let readOnly = try StickerLibrary(folder: folder) { $0.readonly = true }
        try await withWebApp(store: readOnly) { client in
            try await client.chooseColorPhoto(try fourColorPNG(), name: "quads.png")
            let response = try await client.execute(uri: "/api/colors/extract?count=4", method: .post)
            #expect(response.status.code == 507)
            let message = try #require(response.errorMessage)
            #expect(message.contains("the colour scheme was made, but the library could not keep it"), "\(message)")
            #expect(message.contains(readOnly.databasePath), "\(message)")
            let state: ColorsState = try await client.execute(uri: "/api/colors", method: .get).decoded()
            #expect(state.colors?.isEmpty == false)
        }
    }

    @Test func extractingWithoutAPhotoIsAConflict() async throws {
        try await withWebApp { client in
            let response = try await client.execute(uri: "/api/colors/extract?count=5", method: .post)
            #expect(response.status == .conflict)
            #expect(response.errorMessage == "choose a photo first")
            let photo = try await client.execute(uri: "/api/colors/photo", method: .get)
            #expect(photo.status == .notFound)
        }
    }

    @Test func aColourCountOutsideThreeToTenIsABadRequest() async throws {
        try await withWebApp { client in
            try await client.chooseColorPhoto(try fourColorPNG(), name: "q")
            for count in ["2", "11", "many", ""] {
                let response = try await client.execute(uri: "/api/colors/extract?count=\(count)", method: .post)
                #expect(response.status == .badRequest, "count=\(count)")
                #expect(response.errorMessage?.hasPrefix("count must be") == true)
            }
        }
    }

    /// `fourColorPNG()` with an `acTL` chunk (2 frames, CRC right) after its IHDR: an APNG's header.
    static func animatedPNG() throws -> Data {
        let png = try fourColorPNG()
        let body = Data("acTL".utf8) + Data([0, 0, 0, 2, 0, 0, 0, 0])
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        let chunk = Data([0, 0, 0, 8]) + body + Data([UInt8(crc >> 24), UInt8(crc >> 16 & 255), UInt8(crc >> 8 & 255), UInt8(crc & 255)])
        return png.prefix(33) + chunk + png.dropFirst(33)
    }

    @Test func aNonImageIsRefusedAndAnUnreadableImageFailsWithItsReason() async throws {
        try await withWebApp { client in
            let text = try await client.chooseColorPhoto(Data("plain text".utf8), name: "a.png")
            #expect(text.status == .unsupportedMediaType)
            // A clip (here a GIF's header) makes an animated sticker in the sticker tab, never a palette.
            let clip = try await client.chooseColorPhoto(Data("GIF89a".utf8) + Data(count: 64), name: "moving.gif", contentType: "image/gif")
            #expect(clip.status == .unsupportedMediaType && clip.errorMessage == "moving is a clip: choose a photo (JPEG, PNG or WebP)")
            // An animated PNG is a clip to the sticker tab, but its default image is a photo here.
            let apng: ColorsState = try await client.chooseColorPhoto(try Self.animatedPNG(), name: "spin.png").decoded()
            #expect(apng.photoName == "spin")

            try await client.chooseColorPhoto(corruptJPEG, name: "broken.jpg", contentType: "image/jpeg")
            let response = try await client.execute(uri: "/api/colors/extract?count=5", method: .post)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage?.isEmpty == false)
            let state: ColorsState = try await client.execute(uri: "/api/colors", method: .get).decoded()
            #expect(state.error == response.errorMessage)
            #expect(state.history.isEmpty)
        }
    }

    @Test func aPhotoOfTheStickerTabCanBeChosen() async throws {
        try await withWebApp { client in
            let id = try #require(try await client.upload(try fourColorPNG(), name: "shared").decoded(Snapshot.self).photos.first?.id)
            let state: ColorsState = try await client.execute(uri: "/api/colors/photo?sticker=\(id)", method: .post).decoded()
            #expect(state.photoName == "shared")
            let unknown = try await client.execute(uri: "/api/colors/photo?sticker=\(UUID())", method: .post)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func favouritesToggleAndUnknownSchemesAre404() async throws {
        try await withWebApp { client in
            try await client.chooseColorPhoto(try fourColorPNG(), name: "q")
            let state: ColorsState = try await client.execute(uri: "/api/colors/extract?count=3", method: .post).decoded()
            let id = try #require(state.history.first?.id)
            let liked: ColorsState = try await client.execute(uri: "/api/colors/history/\(id)/favorite", method: .post).decoded()
            #expect(liked.favorites.map(\.id) == [id])
            #expect(liked.history.first?.isFavorite == true)
            let unliked: ColorsState = try await client.execute(uri: "/api/colors/history/\(id)/favorite", method: .post).decoded()
            #expect(unliked.favorites.isEmpty)
            let unknown = try await client.execute(uri: "/api/colors/history/\(UUID())/favorite", method: .post)
            #expect(unknown.status == .notFound)
            let wrongMethod = try await client.execute(uri: "/api/colors/history/\(id)/favorite", method: .get)
            #expect(wrongMethod.status == .methodNotAllowed)
        }
    }

    @Test func schemesExportInEachFormatAsADownload() async throws {
        try await withWebApp { client in
            let early = try await client.execute(uri: "/api/colors/export?format=gpl", method: .get)
            #expect(early.status == .conflict)

            try await client.chooseColorPhoto(try fourColorPNG(), name: "quads")
            let state: ColorsState = try await client.execute(uri: "/api/colors/extract?count=3", method: .post).decoded()
            let gpl = try await client.execute(uri: "/api/colors/export?format=gpl", method: .get)
            #expect(gpl.status == .ok)
            #expect(gpl.headers[.contentDisposition] == "attachment; filename=\"quads.gpl\"")
            #expect(String(buffer: gpl.body).hasPrefix("GIMP Palette"))
            let json = try await client.execute(uri: "/api/colors/export?format=json&id=\(state.history[0].id)", method: .get)
            #expect(json.headers[.contentType] == "application/json")
            #expect(String(buffer: json.body).contains("\"colors\""))
            let ase = try await client.execute(uri: "/api/colors/export?format=ase", method: .get)
            #expect(Data(buffer: ase.body).starts(with: Array("ASEF".utf8)))

            let unknownFormat = try await client.execute(uri: "/api/colors/export?format=bmp", method: .get)
            #expect(unknownFormat.status == .badRequest)
            #expect(unknownFormat.errorMessage?.contains("text, json, css, gpl, ase") == true)
            let unknownID = try await client.execute(uri: "/api/colors/export?format=css&id=\(UUID())", method: .get)
            #expect(unknownID.status == .notFound)
        }
    }
}
