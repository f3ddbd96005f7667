import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import StickerWeb

@Suite struct UploadRoutesTests {
    @Test func aRawImageBodyBecomesAPendingPhotoNamedAfterTheFile() async throws {
        try await withWebApp { client in
            let response = try await client.upload(try samplePNG(), name: "cat.png")
            #expect(response.status == .created)
            let snapshot: Snapshot = try response.decoded()
            #expect(snapshot.photos.map(\.name) == ["cat"])
            #expect(snapshot.photos.first?.status == "pending")
            #expect(snapshot.progress.total == 1 && snapshot.progress.completed == 0)
            #expect(snapshot.limits.maxPhotos == 5)
        }
    }

    @Test func aMultipartFormAddsEachOfItsFiles() async throws {
        try await withWebApp { client in
            let (headers, body) = multipartBody([("a.png", try samplePNG()), ("dir/b.jpg", corruptJPEG)])
            let response = try await client.execute(uri: "/api/stickers/photos", method: .post, headers: headers, body: body)
            #expect(response.status == .created)
            let snapshot: Snapshot = try response.decoded()
            #expect(snapshot.photos.map(\.name) == ["a", "b"])
        }
    }

    @Test func somethingThatIsNotAnImageIsRefusedWithAClearMessage() async throws {
        try await withWebApp { client in
            let response = try await client.upload(Data("hello, I am text".utf8), name: "notes.png")
            #expect(response.status == .unsupportedMediaType)
            #expect(response.errorMessage == "notes is neither a photo nor a clip: JPEG, PNG or WebP photos and MP4/MOV, WebM/MKV, GIF or APNG clips are accepted")
            #expect(try await client.snapshot().photos.isEmpty)
        }
    }

    @Test func aMultipartFormWithOneNonImageAddsNothing() async throws {
        try await withWebApp { client in
            let (headers, body) = multipartBody([("a.png", try samplePNG()), ("b.txt", Data("text".utf8))])
            let response = try await client.execute(uri: "/api/stickers/photos", method: .post, headers: headers, body: body)
            #expect(response.status == .unsupportedMediaType)
            #expect(try await client.snapshot().photos.isEmpty)
        }
    }

    @Test func anUnnamedUploadIsCalledPhotoAndItsErrorsSayTheUpload() async throws {
        try await withWebApp { client in
            let text = try await client.execute(uri: "/api/stickers/photos", method: .post,
                                                headers: [.contentType: "image/jpeg"], body: ByteBuffer(string: "text"))
            #expect(text.errorMessage == "the upload is neither a photo nor a clip: JPEG, PNG or WebP photos and MP4/MOV, WebM/MKV, GIF or APNG clips are accepted")
            let good = try await client.execute(uri: "/api/stickers/photos", method: .post,
                                                headers: [.contentType: "image/png"], body: ByteBuffer(bytes: try samplePNG()))
            #expect(try good.decoded(Snapshot.self).photos.map(\.name) == ["photo"])
        }
    }

    @Test func anUnsupportedContentTypeIsRefused() async throws {
        try await withWebApp { client in
            let response = try await client.upload(try samplePNG(), name: "a", contentType: "text/plain")
            #expect(response.status == .unsupportedMediaType)
            #expect(response.errorMessage?.contains("text/plain") == true)
        }
    }

    @Test func anEmptyBodyIsABadRequest() async throws {
        try await withWebApp { client in
            let response = try await client.upload(Data(), name: "nothing.jpg")
            #expect(response.status == .badRequest)
            #expect(response.errorMessage == "nothing is empty")
        }
    }

    @Test func aMalformedMultipartBodyIsABadRequest() async throws {
        try await withWebApp { client in
            let response = try await client.execute(
                uri: "/api/stickers/photos", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=abc"],
                body: ByteBuffer(string: "--abc\r\nContent-Disposition: form-data; name=\"x\"; filename=\"a.png\"\r\n\r\nno end"))
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix("malformed multipart body") == true)
        }
    }

    @Test func anUploadOverTheSizeLimitIsRefusedWith413() async throws {
        try await withWebApp(limits: WebLimits(maxUploadBytes: 1_000, maxPhotos: 5)) { client in
            var big = try samplePNG()
            big.append(Data(repeating: 0, count: 2_000))
            let response = try await client.upload(big, name: "big.png")
            #expect(response.status == .contentTooLarge)
            #expect(response.errorMessage?.contains("limited to") == true)
            #expect(try await client.snapshot().photos.isEmpty)
        }
    }

    @Test func moreThanTheMaximumNumberOfPhotosIsRefused() async throws {
        try await withWebApp(limits: WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 2)) { client in
            let png = try samplePNG()
            #expect(try await client.upload(png, name: "1").status == .created)
            #expect(try await client.upload(png, name: "2").status == .created)
            let third = try await client.upload(png, name: "3")
            #expect(third.status == .unprocessableContent)
            #expect(third.errorMessage?.hasPrefix("at most 2 photos") == true)
        }
    }

    @Test func thePhotoItselfIsServedBack() async throws {
        try await withWebApp { client in
            let png = try samplePNG()
            let id = try #require(try await client.upload(png, name: "a").decoded(Snapshot.self).photos.first?.id)
            let original = try await client.execute(uri: "/api/stickers/photos/\(id)/original", method: .get)
            #expect(original.status == .ok)
            #expect(original.headers[.contentType] == "image/png")
            #expect(Data(buffer: original.body) == png)
        }
    }
}
