import BoundedConcurrency
import ErrorReasons
import Foundation
import Testing
import TestSupport

/// How many jobs run at once, at most.
private final class Gauge: Sendable {
    private let state = Locked((running: 0, peak: 0))
    func enter() { state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) } }
    func leave() { state.withLock { $0.running -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

private struct Odd: Error, Equatable { let value: Int }

@Test("concurrentMap keeps the elements' order and never runs more than its limit at once")
func concurrentMapIsOrderedAndBounded() async {
    let gauge = Gauge()
    let out = await concurrentMap(Array(0..<40), limit: 3) { i in
        gauge.enter(); defer { gauge.leave() }
        await Task.yield()
        return i * i
    }
    #expect(out == (0..<40).map { $0 * $0 })
    #expect(gauge.peak <= 3 && gauge.peak >= 1)
}

@Test("The first error of a throwing concurrentMap is rethrown with its type and no more jobs start")
func concurrentMapRethrowsTheFirstError() async {
    let started = Locked(0)
    await #expect(throws: Odd(value: 1)) {
        _ = try await concurrentMap(Array(0..<100), limit: 1) { i throws(Odd) -> Int in
            started.withLock { $0 += 1 }
            if i % 2 == 1 { throw Odd(value: i) }
            return i
        }
    }
    #expect(started.withLock { $0 } == 2)
}

@Test("forEachConcurrently hands over every result on the caller's isolation, and starts none once cancelled")
@MainActor func forEachConcurrentlyReportsAndStopsWhenCancelled() async {
    var seen: [Int: Int] = [:]
    await forEachConcurrently(Array(0..<10), limit: 2, { $0 + 100 }) { index, value in
        MainActor.assertIsolated()
        seen[index] = value
    }
    #expect(seen == Dictionary(uniqueKeysWithValues: (0..<10).map { ($0, $0 + 100) }))

    let task = Task { @MainActor in
        withUnsafeCurrentTask { $0?.cancel() }
        var count = 0
        await forEachConcurrently(Array(0..<10), limit: 2, { $0 }) { _, _ in count += 1 }
        return count
    }
    #expect(await task.value == 0)
}

@Test("An error's cause is said in words, from POSIX and Foundation errors alike")
func errorReasonsInWords() {
    #expect(ErrorReason.of(POSIXError(.ENOSPC)) == "no space left on device")
    #expect(ErrorReason.of(POSIXError(.EACCES)) == "permission denied")
    #expect(ErrorReason.of(POSIXError(.EROFS)) == "read-only file system")
    #expect(ErrorReason.of(CocoaError(.fileReadNoSuchFile)) == "no such file")
    let wrapped = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                          userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
    #expect(ErrorReason.of(wrapped) == "no space left on device")
    do {
        _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
        Issue.record("read a file that does not exist")
    } catch {
        #expect(ErrorReason.of(error) == "no such file")
    }
    // Foundation on Linux wraps a read's errno as a Swift POSIXError: a folder read as a file.
    do {
        _ = try Data(contentsOf: FileManager.default.temporaryDirectory)
        Issue.record("read a folder as a file")
    } catch {
        #expect(ErrorReason.of(error) == "it is a folder")
    }
    let wrappedPOSIX = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileReadUnknown.rawValue,
                               userInfo: [NSUnderlyingErrorKey: POSIXError(.EISDIR)])
    #expect(ErrorReason.of(wrappedPOSIX) == "it is a folder")
}
