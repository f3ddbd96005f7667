import Foundation
import Testing
import TestSupport
import Raster
@testable import StickerKit

/// The real U²-Net-p model, fetched the way the product fetches it (once, into the user cache),
/// loaded once for all tests of this file.
actor SubjectTestModel {
    static let shared = SubjectTestModel()
    private var loading: Task<Result<U2NetSaliency, any Error>, Never>?

    /// The predictor; when the model cannot be had here, the test fails in CI and is skipped
    /// elsewhere (`NeededResource`), never passing silently.
    func predictor() async throws -> U2NetSaliency {
        if loading == nil {
            loading = Task {
                do {
                    return .success(try await CutOutModel.load(threads: 1) { print("[SubjectModelTests] \($0)") })
                } catch {
                    return .failure(error)
                }
            }
        }
        let result = await loading!.value  // set just above
        var reason = ""
        if case .failure(let error) = result { reason = "\(error)" }
        return try NeededResource.require(try? result.get(), "the cut-out model", reason: reason)
    }
}

private let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples")

@Test func theRealModelCutsOutAPortraitAtItsOrientedSize() async throws {
    let predictor = try await SubjectTestModel.shared.predictor()
    let data = try Data(contentsOf: samples.appendingPathComponent("astronaut-portrait-exif6.jpg"))
    let info = try ImageDecoder.info(data)
    let photo = try ImageDecoder.decode(data)
    let sticker = try await SubjectExtractor(predictor: predictor).extractSubject(from: photo)
    // Stored 512×384 with EXIF orientation 6: displayed (and masked) 384×512.
    #expect(sticker.mask.width == info.width && sticker.mask.height == info.height)
    #expect(sticker.mask.width == 384 && sticker.mask.height == 512)
    // The astronaut fills the middle; the top corners are background.
    #expect(sticker.mask[192, 300] == 255)
    #expect(sticker.mask[5, 5] == 0)
}

@Test func theRealModelFindsNoSubjectInAFlatPicture() async throws {
    let predictor = try await SubjectTestModel.shared.predictor()
    var gradient = Image(width: 200, height: 150)
    for y in 0..<150 { for x in 0..<200 { gradient[x, y] = RGBA8(r: UInt8(180 + y / 3), g: UInt8(60 + y), b: 50) } }
    await #expect(throws: SubjectExtractionError.noClearSubject) {
        _ = try await SubjectExtractor(predictor: predictor).extractSubject(from: gradient)
    }
}
