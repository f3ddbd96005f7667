import Foundation
import Hummingbird
import HummingbirdTesting
import StickerApp
import Testing
@testable import StickerWeb

/// Every route that builds a pack holds one of the pack slots (`maxConcurrentPacks`, default 2).
@Suite struct PackLimitTests {
    /// Holds every pack build until opened, counting the builds that began: the test decides when
    /// packs finish, so "five at once" does not depend on timing.
    actor Gate {
        private(set) var entered = 0
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func pass() async {
            entered += 1
            guard !isOpen else { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }

    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var retryAfter: String?
        var body: Data
    }

    @Test("5 pack downloads at once against the default limit of 2: 3 get 503 with Retry-After, 2 get valid packs",
          arguments: ["pack.zip", "pack/whatsapp", "pack/telegram", "pack/signal"])
    func packsBeyondTheLimitAre503(route: String) async throws {
        let gate = Gate()
        let folders = PackFolders(newFolder: ScratchFolder.packFolders.newFolder, willBuild: { await gate.pass() })
        let limits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5)
        #expect(limits.maxConcurrentPacks == 2)
        let capacity = ServerCapacity(limits: limits)
        try await withWebApp(limits: limits, capacity: capacity, packFolders: folders) { client in
            for name in ["a", "b", "c"] {
                var png = try samplePNG()
                png.append(contentsOf: Array(name.utf8))  // three different photos
                try await client.upload(png, name: name)
            }
            #expect(try await client.processAll().final.photos.map(\.status) == ["processed", "processed", "processed"])

            let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let response = try await client.execute(uri: "/api/stickers/\(route)", method: .get)
                        return Answer(status: response.status, retryAfter: response.headers[.retryAfter], body: Data(buffer: response.body))
                    }
                }
                var answers: [Answer] = []
                for try await answer in group {
                    answers.append(answer)
                    // The refusals come at once while two builds are held; then let those finish.
                    if answers.count == 3 { await gate.open() }
                }
                return answers
            }
            let refused = answers.filter { $0.status == .serviceUnavailable }
            let packs = answers.filter { $0.status == .ok }
            #expect(refused.count == 3 && packs.count == 2, "\(answers.map(\.status))")
            #expect(refused.allSatisfy { $0.retryAfter == String(limits.retryAfterSeconds) })
            #expect(packs.allSatisfy { $0.body.starts(with: [0x50, 0x4B, 0x03, 0x04]) }, "each pack is a ZIP")
            #expect(await gate.entered == 2, "only the two packs with a slot began building")
        }
        #expect(capacity.inUse(.packs) == 0)
    }
}
