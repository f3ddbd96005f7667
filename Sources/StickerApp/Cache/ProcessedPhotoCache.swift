import Foundation
import StickerKit

/// Remembers what each distinct photo became, keyed by the digest of its bytes, so a photo is
/// decoded and processed at most once, however many times and from however many tasks it is asked
/// for.
///
/// Concurrent requests for the same photo share one in-flight task. That task is cancelled only
/// when every task waiting on it has been cancelled: one impatient caller never spoils the result
/// for the others. Failures that describe the photo itself (unreadable, no subject) are remembered
/// too; cancellations and engine failures (the model cannot run) are not: they are not the photo's.
public actor ProcessedPhotoCache {
    private enum Entry {
        case inFlight(Task<ProcessedPhoto, any Error>, waiters: Int)
        case finished(Result<ProcessedPhoto, PhotoProcessingError>)
    }

    private let processor: any PhotoProcessing
    private var entries: [ContentDigest: Entry] = [:]

    public init(processor: any PhotoProcessing) {
        self.processor = processor
    }

    /// The processed photo for `data`, computed now or remembered from before.
    public func processedPhoto(for data: Data) async throws -> ProcessedPhoto {
        let key = ContentDigest(data)
        let task: Task<ProcessedPhoto, any Error>
        switch entries[key] {
        case .finished(let result)?:
            return try result.get()
        case .inFlight(let running, let waiters)?:
            entries[key] = .inFlight(running, waiters: waiters + 1)
            task = running
        case nil:
            let processor = self.processor
            task = Task { try await processor.process(data: data) }
            entries[key] = .inFlight(task, waiters: 1)
        }
        return try await withTaskCancellationHandler {
            try await result(of: task, for: key)
        } onCancel: {
            Task { await self.waiterCancelled(key) }
        }
    }

    /// Forgets everything (e.g. after the engine's settings changed).
    public func removeAll() {
        for case .inFlight(let task, _) in entries.values { task.cancel() }
        entries.removeAll()
    }

    /// The number of photos whose result is remembered.
    public var count: Int {
        entries.values.count { if case .finished = $0 { true } else { false } }
    }

    private func result(of task: Task<ProcessedPhoto, any Error>, for key: ContentDigest) async throws -> ProcessedPhoto {
        do {
            let photo = try await task.value
            entries[key] = .finished(.success(photo))
            return photo
        } catch let error as PhotoProcessingError where error.isPhotoProblem {
            entries[key] = .finished(.failure(error))
            throw error
        } catch {
            // Cancelled, or the engine failed: forget it, so the next request tries again.
            if case .inFlight(let running, _)? = entries[key], running == task { entries[key] = nil }
            try Task.checkCancellation()
            throw error
        }
    }

    private func waiterCancelled(_ key: ContentDigest) {
        guard case .inFlight(let task, let waiters)? = entries[key] else { return }
        if waiters <= 1 {
            task.cancel()
            entries[key] = nil
        } else {
            entries[key] = .inFlight(task, waiters: waiters - 1)
        }
    }
}
