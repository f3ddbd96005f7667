import APODTestServer
import Foundation
import HummingbirdTesting
import Testing

struct SpaceState: Decodable {
    struct Item: Decodable {
        var id: String
        var title: String
        var date: String
        var mediaType: String
        var previewURL: String?
        var isSaved: Bool
        var unsavableReason: String?
    }
    var items: [Item]
    var isLoading: Bool
    var hasLoaded: Bool
    var error: String?
    var libraryPath: String
}

/// The web app with its space tab talking to a fresh fake APOD server, saving into a fresh folder.
func withSpaceApp(_ test: @escaping @Sendable (any TestClientProtocol, FakeAPODServer, URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-web-space-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try await FakeAPODServer.withRunning { server in
        try await withWebApp(catalogAPI: server.apiURL, savedPhotos: folder) { client in
            try await test(client, server, folder)
        }
    }
}

@Suite struct SpaceRoutesTests {
    @Test func beforeAnyLoadTheListIsEmpty() async throws {
        try await withWebApp { client in
            let state: SpaceState = try await client.execute(uri: "/api/space", method: .get).decoded()
            #expect(state.items.isEmpty && !state.hasLoaded && !state.isLoading && state.error == nil)
        }
    }

    @Test func refreshListsPhotosWithTheirPreviews() async throws {
        try await withSpaceApp { client, _, _ in
            let response = try await client.execute(uri: "/api/space/refresh", method: .post)
            #expect(response.status == .ok)
            let state: SpaceState = try response.decoded()
            #expect(state.hasLoaded && !state.isLoading)
            #expect(state.items.count == 4)
            #expect(state.items.allSatisfy { $0.previewURL?.hasPrefix("http://127.0.0.1:") == true })
            let video = try #require(state.items.first { $0.mediaType == "video" })
            #expect(video.previewURL?.contains("thumb") == true)
        }
    }

    @Test func aFailingServiceIsA502WithItsMessage() async throws {
        try await withSpaceApp { client, server, _ in
            await server.state.enqueueAPI(.apiError(status: 400, message: "Bad key"))
            let response = try await client.execute(uri: "/api/space/refresh", method: .post)
            #expect(response.status == .badGateway)
            #expect(response.errorMessage?.contains("Bad key") == true)
            let state: SpaceState = try await client.execute(uri: "/api/space", method: .get).decoded()
            #expect(state.error?.contains("Bad key") == true)
        }
    }

    @Test func aSavedPhotoBecomesASticker() async throws {
        try await withSpaceApp { client, _, folder in
            let listed: SpaceState = try await client.execute(uri: "/api/space/refresh", method: .post).decoded()
            let photo = try #require(listed.items.first { $0.mediaType == "image" })

            let early = try await client.execute(uri: "/api/space/photos/\(photo.id)/sticker", method: .post)
            #expect(early.status == .conflict)
            #expect(early.errorMessage?.contains("save") == true)

            let saved = try await client.execute(uri: "/api/space/photos/\(photo.id)/save", method: .post)
            #expect(saved.status == .ok)
            #expect(try saved.decoded(SpaceState.self).items.first { $0.id == photo.id }?.isSaved == true)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1 && files[0].hasPrefix("apod-\(photo.date)"))

            let made = try await client.execute(uri: "/api/space/photos/\(photo.id)/sticker", method: .post)
            #expect(made.status == .accepted)
            let location = try #require(made.headers[.location])
            let final = try await client.readEvents().final
            #expect(final.photos.count == 1 && final.photos[0].status == "processed")
            let sticker = try await client.execute(uri: location, method: .get)
            #expect(sticker.status == .ok && sticker.headers[.contentType] == "image/png")
        }
    }

    @Test func savingInHighResolutionWritesTheHDImage() async throws {
        try await withSpaceApp { client, _, folder in
            let listed: SpaceState = try await client.execute(uri: "/api/space/refresh", method: .post).decoded()
            let photo = try #require(listed.items.first { $0.title == "The Horsehead Nebula" })
            let saved = try await client.execute(uri: "/api/space/photos/\(photo.id)/save?hd=1", method: .post)
            #expect(saved.status == .ok)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1 && files[0].contains("-hd."))
        }
    }

    @Test("A photo that cannot be written is a 507 naming the place and the cause, and changes nothing")
    func anUnwritableFolderIsAClearError() async throws {
        // Root writes anywhere: a file where the folder should be is what refuses the write here
        // (a full disk and a read-only folder are in scripts/full_disk_check.sh).
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-web-blocker-\(UUID().uuidString)")
        let content = Data("a file where the folder should be".utf8)
        try content.write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        try await FakeAPODServer.withRunning { server in
            try await withWebApp(catalogAPI: server.apiURL, savedPhotos: blocker) { client in
                let listed: SpaceState = try await client.execute(uri: "/api/space/refresh", method: .post).decoded()
                let photo = try #require(listed.items.first { $0.mediaType == "image" })
                let response = try await client.execute(uri: "/api/space/photos/\(photo.id)/save", method: .post)
                #expect(response.status.code == 507)
                let message = try #require(response.errorMessage)
                // The cause in words, not Foundation's generic sentence.
                #expect(message.contains("could not be written to \(blocker.path): a file of that name already exists"), "\(message)")
            }
        }
        #expect(try Data(contentsOf: blocker) == content)
    }

    @Test func aVideoWithoutAThumbnailCannotBeSaved() async throws {
        try await withSpaceApp { client, server, _ in
            await server.state.enqueueAPI(.items([FakeAPODCatalog.videoWithoutThumbnail]))
            let listed: SpaceState = try await client.execute(uri: "/api/space/refresh", method: .post).decoded()
            let video = try #require(listed.items.first)
            #expect(video.previewURL == nil && video.unsavableReason != nil)
            let response = try await client.execute(uri: "/api/space/photos/\(video.id)/save", method: .post)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorMessage?.contains("cannot be saved") == true)
        }
    }

    @Test func unknownPhotosAndWrongMethodsAreRefused() async throws {
        try await withSpaceApp { client, _, _ in
            _ = try await client.execute(uri: "/api/space/refresh", method: .post)
            let unknown = try await client.execute(uri: "/api/space/photos/1900-01-01/save", method: .post)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorMessage == "no space photo with id 1900-01-01")
            let wrong = try await client.execute(uri: "/api/space/refresh", method: .get)
            #expect(wrong.status == .methodNotAllowed)
        }
    }
}
