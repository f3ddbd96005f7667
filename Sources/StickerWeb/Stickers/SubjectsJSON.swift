import Foundation
import Hummingbird
import StickerKit

/// A processed photo's subjects as the page shows them (`GET /api/stickers/photos/:id/subjects`):
///
///     {"width": 640, "height": 480, "chosen": [1, 2],
///      "subjects": [{"rank": 1, "bbox": [x0, y0, x1, y1], "point": [x, y], "share": 0.61, "chosen": true}, …]}
///
/// Ranks are 1-based, most salient first, as `stickers sticker --subject N`; boxes and points are
/// in the oriented photo's pixels, x1 and y1 exclusive, as `--list-subjects --json`.
struct SubjectsJSON: Codable, Sendable, Equatable, ResponseEncodable {
    struct Subject: Codable, Sendable, Equatable {
        var rank: Int
        var bbox: [Int]
        var point: [Int]
        var share: Double
        var chosen: Bool
    }

    var width: Int
    var height: Int
    var chosen: [Int]
    var subjects: [Subject]

    init(_ subjects: PhotoSubjects) {
        let chosen = Set(subjects.chosen)
        width = subjects.width
        height = subjects.height
        self.chosen = subjects.chosen.sorted().map { $0 + 1 }
        self.subjects = subjects.subjects.enumerated().map { rank, subject in
            Subject(rank: rank + 1,
                    bbox: [subject.bounds.x, subject.bounds.y, subject.bounds.x + subject.bounds.width, subject.bounds.y + subject.bounds.height],
                    point: [subject.pointX, subject.pointY], share: (subject.share * 1000).rounded() / 1000, chosen: chosen.contains(rank))
        }
    }
}

/// The subjects to keep (`PUT /api/stickers/photos/:id/subjects`): `{"ranks": [1, 3]}`, 1-based;
/// or the subject under a point the person clicked, `{"point": [x, y]}` (the photo's pixels as
/// the subjects are given), looked at closer when the first look found nothing there.
struct SubjectChoiceJSON: Codable, Sendable, Equatable, JSONRequestBody {
    var ranks: [Int]?
    var point: [Int]?

    /// The clicked point, if that is the choice; a malformed one, or both a point and ranks, is refused (400).
    func clickedPoint() throws(WebError) -> (x: Int, y: Int)? {
        guard let point else { return nil }
        guard ranks == nil else { throw .badRequest("give either ranks or a point, not both") }
        guard point.count == 2 else { throw .badRequest("a point is [x, y], not \(point)") }
        return (point[0], point[1])
    }

    /// The choice, 0-based; none is refused (422). Ranks beyond the photo's subjects are refused
    /// by the service (`PhotoSubjects.ranks(of:)`), which knows how many there are.
    func choice() throws(WebError) -> SubjectChoice {
        guard let ranks, !ranks.isEmpty else { throw .unprocessable("choose at least one subject") }
        if let bad = ranks.first(where: { $0 < 1 }) { throw .unprocessable("subjects are numbered from 1, not \(bad)") }
        return .ranks(Set(ranks.map { $0 - 1 }))
    }

    /// The JSON body of `request` (at most 4 KB).
    static func decode(_ request: Request) async throws(WebError) -> SubjectChoiceJSON {
        try await decode(request, tooLarge: "a choice of subjects is a list of ranks, at most 4 KB of JSON",
                         expected: "the choice is not the JSON expected ({\"ranks\": [1, 2]} or {\"point\": [x, y]})")
    }
}
