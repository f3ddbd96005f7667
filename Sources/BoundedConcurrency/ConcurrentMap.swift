// The one way this package runs a collection of independent jobs on child tasks: a sliding window
// of at most `limit` running at once (one starts as one ends), results joined in the elements'
// order or handed over as they finish. Child tasks own their inputs (Sendable values); no shared
// mutable buffer.

/// `operation` on every element in child tasks, at most `limit` at a time, and `body` called with
/// each element's index and result as it finishes, on the caller's isolation (so it may update
/// main-actor state). Once the calling task is cancelled no further element is started; those
/// running finish (or see the cancellation themselves).
public func forEachConcurrently<Element: Sendable, Result: Sendable>(
    _ elements: some Sequence<Element>, limit: Int,
    _ operation: @escaping @Sendable (Element) async -> Result,
    onResult body: (Int, Result) -> Void,
    isolation: isolated (any Actor)? = #isolation
) async {
    // The group's body (and so `body`) runs on the caller's actor only if its closure captures
    // the isolated parameter (SE-0420): without the capture it ran `body` off the main actor.
    await withTaskGroup(of: (Int, Result).self, isolation: isolation) { group in
        _ = isolation
        var pending = elements.enumerated().makeIterator()
        func startNext() -> Bool {
            guard !Task.isCancelled, let (index, element) = pending.next() else { return false }
            group.addTask { (index, await operation(element)) }
            return true
        }
        for _ in 0..<max(1, limit) { guard startNext() else { break } }
        while let (index, result) = await group.next() {
            body(index, result)
            _ = startNext()
        }
    }
}

/// `transform` on every element in child tasks, at most `limit` at a time (all at once by
/// default), the results in the elements' order. A transform that cannot fail (`Failure` ==
/// `Never`) runs on every element, even after a cancellation (work that wants to stop checks for
/// it inside `transform`). Otherwise the first error cancels the jobs still running, starts no
/// more, and is rethrown with its type.
public func concurrentMap<Element: Sendable, Result: Sendable, Failure: Error>(
    _ elements: some Collection<Element>, limit: Int = .max,
    _ transform: @escaping @Sendable (Element) async throws(Failure) -> Result,
    isolation: isolated (any Actor)? = #isolation
) async throws(Failure) -> [Result] {
    var results = [Result?](repeating: nil, count: elements.count)
    var failure: Failure?
    await withTaskGroup(of: (Int, Swift.Result<Result, Failure>).self, isolation: isolation) { group in
        _ = isolation  // the body on the caller's actor (see above)
        var pending = elements.enumerated().makeIterator()
        func startNext() {
            guard failure == nil, let (index, element) = pending.next() else { return }
            group.addTask {
                do throws(Failure) { return (index, .success(try await transform(element))) } catch {
                    return (index, .failure(error))
                }
            }
        }
        for _ in 0..<max(1, min(limit, elements.count)) { startNext() }
        while let (index, result) = await group.next() {
            switch result {
            case .success(let value): results[index] = value
            case .failure(let error):
                if failure == nil { failure = error; group.cancelAll() }
            }
            startNext()
        }
    }
    if let failure { throw failure }
    return results.compactMap { $0 }  // no failure: every element ran
}
