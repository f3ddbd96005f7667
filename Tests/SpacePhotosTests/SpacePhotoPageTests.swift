import Foundation
import Raster
import Testing
@testable import SpacePhotos

private let good = #"{"date":"2024-01-01","explanation":"e","media_type":"image","title":"Good","url":"https://x.org/a.jpg"}"#

@Test func aMalformedItemIsSkippedWithAReasonAndTheRestKept() throws {
    let body = "[\(good), {\"date\":\"2024-01-02\",\"title\":\"No URL\",\"explanation\":\"e\",\"media_type\":\"image\"}, 42]"
    let page = try SpacePhotoPage.decode(Data(body.utf8))
    #expect(page.photos.map(\.title) == ["Good"])
    #expect(page.skipped.count == 2)
    #expect(page.skipped[0].index == 1)
    #expect(page.skipped[0].label == "2024-01-02")
    #expect(page.skipped[0].reason == "missing field 'url'")
    #expect(page.skipped[0].description == "item 1 (2024-01-02): missing field 'url'")
    #expect(page.skipped[1].index == 2)
}

@Test func aSingleObjectAnswerIsAPageOfOne() throws {
    let page = try SpacePhotoPage.decode(Data(good.utf8))
    #expect(page.photos.count == 1)
    #expect(page.skipped.isEmpty)
}

@Test func aRepeatedDayIsListedOnce() throws {
    let page = try SpacePhotoPage.decode(Data("[\(good),\(good)]".utf8))
    #expect(page.photos.count == 1)
    #expect(page.skipped.map(\.reason) == ["duplicate day"])
}

@Test(arguments: [#"[{"date":"2024-01-01","title":"cut"#, "<html>Service Unavailable</html>", #""just a string""#, ""])
func aBodyThatIsNotAPageIsAMalformedResponse(body: String) {
    #expect {
        try SpacePhotoPage.decode(Data(body.utf8))
    } throws: { error in
        if case .malformedResponse = error as? APODError { true } else { false }
    }
}

@Test func imagesAreToldByTheirFirstBytes() {
    #expect(ImageFormat.sniff(Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
    #expect(ImageFormat.sniff(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == .png)
    #expect(ImageFormat.sniff(Data("GIF89a".utf8)) == .gif)
    #expect(ImageFormat.sniff(Data("RIFF\0\0\0\0WEBP".utf8)) == .webp)
    #expect(ImageFormat.sniff(Data("<html>".utf8)) == nil)
    #expect(ImageFormat.sniff(Data()) == nil)
}

@Test func theImageToSaveIsTheHDOneOnlyWhenAskedAndAVideosThumbnail() throws {
    let base = URL(string: "https://x.org/")!
    var photo = SpacePhoto(
        title: "Horsehead Nebula: Dark & Dusty!", description: "", date: APODDay.date(from: "2024-01-02")!,
        url: base.appending(path: "a.jpg"), hdurl: base.appending(path: "a_hd.jpg"))
    #expect(photo.imageURL(hd: false)?.lastPathComponent == "a.jpg")
    #expect(photo.imageURL(hd: true)?.lastPathComponent == "a_hd.jpg")
    #expect(photo.fileName(hd: true, format: .jpeg) == "apod-2024-01-02-horsehead-nebula-dark-dusty-hd.jpg")
    #expect(photo.fileName(hd: false, format: .png) == "apod-2024-01-02-horsehead-nebula-dark-dusty.png")

    photo.mediaType = .video
    #expect(photo.imageURL(hd: true) == nil)
    #expect(photo.unsavableReason == "a video without a thumbnail")
    photo.thumbnailURL = base.appending(path: "t.jpg")
    #expect(photo.imageURL(hd: true)?.lastPathComponent == "t.jpg")
    #expect(photo.fileName(hd: true, format: .jpeg) == "apod-2024-01-02-horsehead-nebula-dark-dusty-thumbnail.jpg")

    photo.mediaType = .other
    #expect(photo.imageURL(hd: false) == nil)
}

@Test func theAPIKeyComesFromTheCommandLineThenTheEnvironmentThenTheDemoKey() {
    #expect(APODConfiguration.resolveAPIKey(explicit: "mine", environment: ["APOD_API_KEY": "env"]) == "mine")
    #expect(APODConfiguration.resolveAPIKey(explicit: nil, environment: ["APOD_API_KEY": "env"]) == "env")
    #expect(APODConfiguration.resolveAPIKey(explicit: "", environment: [:]) == "DEMO_KEY")
    #expect(APODConfiguration(environment: [:]).baseURL.absoluteString == "https://api.nasa.gov/planetary/apod")
}

@Test func retryAfterIsReadAsSecondsOrAnHTTPDate() {
    #expect(APODClient.parseRetryAfter("120") == .seconds(120))
    #expect(APODClient.parseRetryAfter(" 0 ") == .zero)
    #expect(APODClient.parseRetryAfter("soon") == nil)
    #expect(APODClient.parseRetryAfter("-3") == nil)
    #expect(APODClient.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == .zero)
}

@Test func backoffGrowsExponentiallyWithJitterUpToTheCap() {
    let policy = RetryPolicy(initialBackoff: .seconds(1), maxBackoff: .seconds(5))
    for attempt in 1...6 {
        let full = min(Duration.seconds(1 << (attempt - 1)), .seconds(5))
        let pause = policy.backoff(afterAttempt: attempt)
        #expect(pause >= full / 2 && pause <= full)
    }
}
