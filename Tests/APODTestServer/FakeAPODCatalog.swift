import Foundation

/// Recorded-shape APOD items (the fields and quirks of real answers: credits wrapped in
/// newlines, `service_version`, extra fields, a video with `thumbnail_url`) with image links that
/// point back at the fake server (`{base}`).
public enum FakeAPODCatalog {
    /// Templates cycled through for `count=N` and picked by day for `date=D`; `{date}` is filled in.
    public static let templates: [String] = [
        #"""
        {"copyright":"\nJane Doe\n","date":"{date}","explanation":"A dark nebula shaped like a horse's head rises from a glowing cloud.","hdurl":"{base}/image/{date}/horsehead_hd.jpg","media_type":"image","service_version":"v1","title":"The Horsehead Nebula","url":"{base}/image/{date}/horsehead.png"}
        """#,
        #"""
        {"date":"{date}","explanation":"Saturn's rings seen edge-on from a spacecraft.","hdurl":"{base}/image/{date}/saturn_hd.jpg","media_type":"image","service_version":"v1","title":"Saturn Edge-On","url":"{base}/image/{date}/saturn.png","resource":{"image_set":"apod","planet":"saturn"},"concept_tags":false}
        """#,
        #"""
        {"date":"{date}","explanation":"A time-lapse video of the aurora over a frozen lake.","media_type":"video","service_version":"v1","thumbnail_url":"{base}/image/{date}/aurora_thumb.jpg","title":"Aurora Time-Lapse","url":"https://www.youtube.com/embed/fake-aurora?rel=0"}
        """#,
        #"""
        {"copyright":"Observatory Team","date":"{date}","explanation":"The Moon passes in front of the Pleiades.","media_type":"image","service_version":"v1","title":"Moon Meets Pleiades","url":"{base}/image/{date}/pleiades.png"}
        """#,
    ]

    /// A video the API sent without a thumbnail (saved never, listed always).
    public static let videoWithoutThumbnail = #"""
        {"date":"2024-03-01","explanation":"An embedded video.","media_type":"video","service_version":"v1","title":"Video Without Thumbnail","url":"https://www.youtube.com/embed/fake-video"}
        """#

    /// An item missing its `url` (skipped by the client with a reason).
    public static let missingURL = #"""
        {"date":"2024-03-02","explanation":"No link.","media_type":"image","service_version":"v1","title":"Missing URL"}
        """#

    /// The first day the API serves, and the day `count` answers start from.
    public static let firstDay = "1995-06-16"
    public static let countStartDay = "2024-01-01"

    /// A 4×3 PNG: the standard-size image of every photo.
    public static let pngBytes = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAGElEQVR4nGNkYDghx8AAQSwMNgxwgMIBADB+AaQHNOxDAAAAAElFTkSuQmCC"
    ) ?? Data()

    /// An 8×6 JPEG: the HD images and video thumbnails.
    public static let jpegBytes = Data(base64Encoded:
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAGAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDgdL8JWv8AeNFFFfoNXF1ub4jxsvxtf2K99n//2Q=="
    ) ?? Data()

    /// The item the API would answer for `day`, its links rooted at `base`.
    public static func item(day: String, template index: Int, base: String) -> String {
        templates[index % templates.count]
            .replacingOccurrences(of: "{date}", with: day)
            .replacingOccurrences(of: "{base}", with: base)
    }

    /// `count` items on consecutive days from `countStartDay`, cycling through the templates.
    public static func page(count: Int, base: String) -> String {
        let start = day(countStartDay)
        let items = (0..<count).map { offset in
            item(day: dayString(start + TimeInterval(offset) * 86_400), template: offset, base: base)
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// A day's template is fixed by the day, so a test can predict it.
    public static func templateIndex(forDay text: String) -> Int {
        Int(day(text).timeIntervalSince1970 / 86_400) % templates.count
    }

    /// Every `yyyy-MM-dd` from `start` through `end`.
    static func days(from start: String, through end: String) -> [String] {
        let first = day(start), last = day(end)
        guard first <= last else { return [] }
        return stride(from: first.timeIntervalSince1970, through: last.timeIntervalSince1970, by: 86_400).map {
            dayString(Date(timeIntervalSince1970: $0))
        }
    }

    static func day(_ text: String) -> Date {
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current)
            .year().month().day().dateSeparator(.dash)
        return (try? style.parse(text)) ?? Date(timeIntervalSince1970: 0)
    }

    static func dayString(_ date: Date) -> String {
        Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current)
            .year().month().day().dateSeparator(.dash).format(date)
    }
}
