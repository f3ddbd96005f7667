import Foundation
import Raster

/// Finds the subject a person pointed at, with a closer look (the network again) when the first
/// look missed it: what the web app's click on a photo asks of the engine. `SubjectExtractor`
/// does it; a processor built on one passes the question on.
public protocol SubjectFinding: Sendable {
    func subject(at target: SubjectTarget, in image: Image, firstLook sticker: Sticker) async throws(SubjectAtTargetError) -> Sticker
}

extension SubjectExtractor: SubjectFinding {}

extension PhotoProcessor: SubjectFinding {
    @concurrent
    public func subject(at target: SubjectTarget, in image: Image, firstLook sticker: Sticker) async throws(SubjectAtTargetError) -> Sticker {
        try await subjectExtractor.subject(at: target, in: image, firstLook: sticker)
    }

}
