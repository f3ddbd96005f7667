import Foundation

/// A value guarded by a lock, for test doubles shared between tasks.
///
/// Why not `Synchronization.Mutex`: on Linux its lock is a futex inside the uninstrumented
/// libswiftSynchronization, so ThreadSanitizer cannot see the happens-before edge it creates and
/// reports false races on the data it guards (seen in CI). `NSLock` is a pthread mutex, which
/// ThreadSanitizer intercepts. `@unchecked Sendable` is sound: every access to `value` goes
/// through `withLock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
