import Foundation
import Testing
@testable import StickerWeb

@Suite struct MultipartFormTests {
    @Test func theBoundaryIsReadFromTheContentType() {
        #expect(MultipartForm.boundary(fromContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartForm.boundary(fromContentType: "Multipart/Form-Data;boundary=\"q r\"") == "q r")
        #expect(MultipartForm.boundary(fromContentType: "multipart/form-data") == nil)
        #expect(MultipartForm.boundary(fromContentType: "image/png") == nil)
    }

    @Test func fileBytesArePreservedExactlyIncludingLineBreaks() throws {
        let bytes = Data([0x89, 0x0D, 0x0A, 0x2D, 0x2D, 0x00, 0xFF])
        let (_, buffer) = multipartBody([("x.png", bytes), ("y.png", Data("two".utf8))])
        let form = try MultipartForm(data: Data(buffer: buffer), boundary: "XyZ-boundary-42")
        #expect(form.files.map(\.fileName) == ["x.png", "y.png"])
        #expect(form.files.first?.data == bytes)
        #expect(form.files.allSatisfy { $0.fieldName == "photos" })
    }

    @Test func aBodyWithoutTheBoundaryIsMalformed() {
        #expect(throws: WebError.self) { try MultipartForm(data: Data("nothing".utf8), boundary: "abc") }
    }

    @Test func displayNamesDropFoldersAndExtensions() {
        #expect(UploadReader.displayName("a/b/cat.photo.jpg") == "cat.photo")
        #expect(UploadReader.displayName("C:\\x\\dog.png") == "dog")
        #expect(UploadReader.displayName(".png") == ".png")
        #expect(UploadReader.displayName("") == "photo")
    }
}
