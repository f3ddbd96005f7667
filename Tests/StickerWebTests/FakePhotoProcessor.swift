import Foundation
import Raster
import StickerKit
import TestSupport

/// A processor for the web tests: any JPEG or PNG bytes become a small red sticker (its left two columns
/// and its right column two subjects), except bytes
/// containing "corrupt", which are unreadable. It can hold every call until the test opens its
/// gate, so a test decides when a batch ends.
final class FakePhotoProcessor: PhotoProcessing {
    private let gate: Locked<Bool>
    private let callCount = Locked(0)

    init(gateOpen: Bool = true) {
        gate = Locked(gateOpen)
    }

    var calls: Int { callCount.withLock { $0 } }

    func openGate() { gate.withLock { $0 = true } }

    func process(data: Data) async throws -> ProcessedPhoto {
        callCount.withLock { $0 += 1 }
        // Polls the gate: a test-only wait that notices cancellation promptly.
        while !gate.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(2))
        }
        if data.range(of: Data("corrupt".utf8)) != nil {
            throw PhotoProcessingError.unreadable(.truncated)
        }
        if data.range(of: Data("engine".utf8)) != nil {
            throw PhotoProcessingError.engineFailure("the cut-out model failed: the network returned no saliency map")
        }
        let image = Image(width: 3, height: 2, fill: RGBA8(r: 200, g: 30, b: 30))
        return ProcessedPhoto(
            sticker: Sticker(image: image, mask: Mask(width: 3, height: 2, fill: 255),
                             cutOut: SubjectExtractor.CutOut(mask: Mask(width: 3, height: 2, fill: 255), image: image,
                                                             originX: 0, originY: 0, subjects: .sideBySide(image)),
                             style: .plain),
            colorScheme: PhotoColorScheme(colors: [
                PaletteColor(red: 200, green: 30, blue: 30, weight: 0.75),
                PaletteColor(red: 20, green: 20, blue: 90, weight: 0.25),
            ])
        )
    }
}
