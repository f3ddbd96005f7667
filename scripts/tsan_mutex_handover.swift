// Shows that ThreadSanitizer reports a race on a correct Synchronization.Mutex when it is contended
// (the reason for .ci/tsan-suppressions.txt). Threads add 1 to an Int inside one Mutex's withLock;
// the total always comes out right, so the lock excludes, yet TSan reports a "Swift access race"
// between two withLock bodies: on Linux a contended Mutex is handed to the waiter by the kernel
// (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI), with no user-space atomic for TSan to order the two by.
//
//   swiftc -swift-version 6 -sanitize=thread -g scripts/tsan_mutex_handover.swift -o /tmp/handover
//   /tmp/handover 4   # a WARNING each run (checked 3 of 3, Swift 6.3.1); /tmp/handover 1: none
import Foundation
import Synchronization

final class Counter: Sendable {
    let state = Mutex(0)

    func bump() {
        state.withLock { value in
            // Hold the lock a little, so that the other threads contend and sleep in the kernel.
            var spin = 0
            for i in 0..<200 { spin &+= i }
            value &+= 1 &+ (spin & 0)
        }
    }
}

let threads = Int(CommandLine.arguments.dropFirst().first ?? "4") ?? 4
let rounds = 20_000
let counter = Counter()
let finished = DispatchSemaphore(value: 0)  // a demonstration of threads: joined by a semaphore
for _ in 0..<threads {
    Thread {
        for _ in 0..<rounds { counter.bump() }
        finished.signal()
    }.start()
}
for _ in 0..<threads { finished.wait() }
let total = counter.state.withLock { $0 }
print("total \(total), expected \(threads * rounds)")
exit(total == threads * rounds ? 0 : 1)
