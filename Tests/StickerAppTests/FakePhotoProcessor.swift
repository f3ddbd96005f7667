import Foundation
import Raster
import StickerKit
import TestSupport
@testable import StickerApp

/// A processor for model tests: counts its calls, treats bytes starting with "bad" as unreadable,
/// and can hold every call until the test opens its gate — so a test decides exactly when work ends.
nonisolated final class FakePhotoProcessor: PhotoProcessing {
    private let state = Locked(State())
    private struct State {
        var calls = 0
        var running = 0
        var maxRunning = 0
        var gateOpen = true
    }

    let outputIdentity: String

    init(gateOpen: Bool = true, identity: String = "fake-1") {
        outputIdentity = identity
        state.withLock { $0.gateOpen = gateOpen }
    }

    var calls: Int { state.withLock { $0.calls } }
    var maxConcurrentCalls: Int { state.withLock { $0.maxRunning } }

    func openGate() { state.withLock { $0.gateOpen = true } }

    func process(data: Data) async throws -> ProcessedPhoto {
        state.withLock {
            $0.calls += 1
            $0.running += 1
            $0.maxRunning = max($0.maxRunning, $0.running)
        }
        defer { state.withLock { $0.running -= 1 } }
        // Polls the gate: a test-only wait that also notices cancellation promptly.
        while !state.withLock({ $0.gateOpen }) {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await Task.sleep(for: .milliseconds(5))
        if data.starts(with: Array("bad".utf8)) {
            throw PhotoProcessingError.unreadable(.unsupportedFormat)
        }
        if data.starts(with: Array("engine".utf8)) {
            throw PhotoProcessingError.engineFailure("the cut-out model failed: the network returned no saliency map")
        }
        return Self.photo(for: data)
    }

    static func photo(for data: Data) -> ProcessedPhoto {
        let shade = data.first ?? 0
        let image = Image(width: 2, height: 2, fill: RGBA8(r: shade, g: 0, b: 0))
        return ProcessedPhoto(
            sticker: Sticker(image: image, mask: Mask(width: 2, height: 2, fill: 255)),
            colorScheme: PhotoColorScheme(colors: [PaletteColor(red: shade, green: 0, blue: 0, weight: 1)])
        )
    }
}

func photo(_ name: String, _ bytes: String) -> SelectedPhoto {
    SelectedPhoto(name: name, source: .data(Data(bytes.utf8)))
}
