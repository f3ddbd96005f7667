import Foundation
import Testing
@testable import SpacePhotos

private func decode(_ json: String) throws -> SpacePhoto {
    try JSONDecoder().decode(SpacePhoto.self, from: Data(json.utf8))
}

@Test func aRecordedItemDecodesWithItsExplanationAsDescription() throws {
    let photo = try decode(#"""
        {"copyright":"\nJane Doe\n","date":"2024-01-02","explanation":"A nebula.","hdurl":"https://apod.nasa.gov/apod/image/2401/x_big.jpg",
         "media_type":"image","service_version":"v1","title":"Horsehead","url":"https://apod.nasa.gov/apod/image/2401/x.jpg",
         "resource":{"image_set":"apod"},"concept_tags":false}
        """#)
    #expect(photo.title == "Horsehead")
    #expect(photo.description == "A nebula.")
    #expect(photo.day == "2024-01-02")
    #expect(photo.id == "2024-01-02")
    #expect(photo.mediaType == .image)
    #expect(photo.url.absoluteString == "https://apod.nasa.gov/apod/image/2401/x.jpg")
    #expect(photo.hdurl?.absoluteString == "https://apod.nasa.gov/apod/image/2401/x_big.jpg")
    #expect(photo.copyright == "Jane Doe")
    #expect(photo.thumbnailURL == nil)
}

@Test func theDayIsMidnightUTCWhateverTheLocalZone() throws {
    let photo = try decode(#"{"date":"2000-03-01","explanation":"","media_type":"image","title":"t","url":"https://x.org/a.jpg"}"#)
    #expect(photo.date == Date(timeIntervalSince1970: 951_868_800))
}

@Test func aVideoKeepsItsThumbnailAndASchemeRelativeURLBecomesHTTPS() throws {
    let photo = try decode(#"""
        {"date":"2012-05-06","explanation":"e","media_type":"video","title":"v",
         "url":"//www.youtube.com/embed/abc?rel=0","thumbnail_url":"https://img.youtube.com/vi/abc/0.jpg"}
        """#)
    #expect(photo.mediaType == .video)
    #expect(photo.url.absoluteString == "https://www.youtube.com/embed/abc?rel=0")
    #expect(photo.thumbnailURL?.absoluteString == "https://img.youtube.com/vi/abc/0.jpg")
}

@Test func anUnknownMediaTypeIsOther() throws {
    let photo = try decode(#"{"date":"2024-01-02","explanation":"","media_type":"interactive","title":"t","url":"https://x.org/"}"#)
    #expect(photo.mediaType == .other)
}

@Test func anUnusableOptionalLinkIsDroppedButTheItemKept() throws {
    let photo = try decode(#"{"date":"2024-01-02","explanation":"","media_type":"image","title":"t","url":"https://x.org/a.jpg","hdurl":"not a url","copyright":"  "}"#)
    #expect(photo.hdurl == nil)
    #expect(photo.copyright == nil)
}

@Test(arguments: [
    (#"{"explanation":"","media_type":"image","title":"t","url":"https://x.org/a.jpg"}"#, "date"),
    (#"{"date":"2024-1-2","explanation":"","media_type":"image","title":"t","url":"https://x.org/a.jpg"}"#, "date"),
    (#"{"date":"2024-01-02","explanation":"","media_type":"image","title":"t","url":"ftp://x.org/a.jpg"}"#, "url"),
    (#"{"date":"2024-01-02","explanation":"","media_type":"image","title":"t"}"#, "url"),
])
func anItemWithoutAUsableRequiredFieldFails(json: String, field: String) {
    #expect {
        try decode(json)
    } throws: { error in
        SpacePhotoPage.describe(error).contains(field)
    }
}

@Test func encodingRoundTripsThroughTheAPIFieldNames() throws {
    let original = try decode(#"""
        {"copyright":"Jane","date":"2024-01-02","explanation":"e","hdurl":"https://x.org/b.jpg","media_type":"video",
         "thumbnail_url":"https://x.org/t.jpg","title":"t","url":"https://x.org/a"}
        """#)
    let data = try JSONEncoder().encode(original)
    let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(fields["explanation"] as? String == "e")
    #expect(fields["media_type"] as? String == "video")
    #expect(fields["date"] as? String == "2024-01-02")
    #expect(try JSONDecoder().decode(SpacePhoto.self, from: data) == original)
}

@Test(arguments: ["2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-02x", "24-01-02", "2024/01/02", "２０２４-01-02"])
func aDayThatDoesNotExistIsRejected(text: String) {
    #expect(APODDay.date(from: text) == nil)
}

@Test func daysRoundTripAcrossCenturiesAndLeapDays() throws {
    for text in ["1995-06-16", "2000-02-29", "2024-12-31", "2100-01-01"] {
        let date = try #require(APODDay.date(from: text))
        #expect(APODDay.string(from: date) == text)
    }
}
