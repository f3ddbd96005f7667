/// How long each of an animated sticker's frames shows, in milliseconds: the one currency of the
/// writers (WebP and APNG keep a delay per frame) and of WebM's constant rate (a frame repeated).
public enum FrameDurations {
    /// `count` frames `framesPerSecond` apart, rounded so their running total stays on the rate.
    public static func even(count: Int, framesPerSecond: Double) -> [Int] {
        func end(_ k: Int) -> Int { Int((Double(k) * 1000 / framesPerSecond).rounded()) }
        return (0..<count).map { end($0 + 1) - end($0) }
    }

    /// Every `step`-th frame kept, each lasting as long as the frames it stands for.
    public static func merged(_ milliseconds: [Int], step: Int) -> [Int] {
        guard step > 1 else { return milliseconds }
        return stride(from: 0, to: milliseconds.count, by: step).map { milliseconds[$0..<min($0 + step, milliseconds.count)].reduce(0, +) }
    }

    /// How many times each frame is written to a stream of a constant `framesPerSecond` (WebM) so
    /// that it shows when its time comes: once for each tick that starts within it (a frame
    /// shorter than a tick may get none). Half a millisecond of slack: durations are whole ones.
    public static func repeats(_ milliseconds: [Int], framesPerSecond: Double) -> [Int] {
        let tick = 1000 / framesPerSecond
        func ticks(before time: Int) -> Int { max(0, Int(((Double(time) - 0.5) / tick).rounded(.up))) }
        var start = 0
        return milliseconds.map { duration in
            defer { start += duration }
            return ticks(before: start + duration) - ticks(before: start)
        }
    }

    /// The constant rate a WebM shows frames of these durations at: `average`, raised towards the
    /// shortest frame's own rate so that it keeps a tick (a GIF's quick frames before a long pause
    /// would otherwise be dropped), at most `maximum`. Even durations (a video's) keep `average`.
    /// A raised rate is one of 5, 10, … 30 frames a second: a tick then divides a piece of whole
    /// fifths of a second, so the ticks never run past its end (Telegram's 3 s).
    /// Even frames whose last one a piece's end cut short by less than half a tick keep `average`:
    /// that frame's tick starts with it, and raising the rate for a few milliseconds would repeat
    /// frames unevenly (a 29.97 fps clip's 45 frames at 15 fps over 60 ticks at 20 fps, a judder).
    public static func constantRate(for milliseconds: [Int], average: Double, maximum: Double) -> Double {
        var considered = milliseconds[...]
        if considered.count > 1, let last = considered.last, let low = considered.dropLast().min(),
           let high = considered.dropLast().max(), high - low <= 2, last < low, Double(low - last) < 500 / average {
            considered = considered.dropLast()
        }
        guard let shortest = considered.min(), let longest = considered.max(), shortest > 0, longest - shortest > 2 else { return average }
        let wanted = max(average, 1000 / Double(shortest))
        return min(maximum, [5.0, 10, 15, 20, 25, 30].first { $0 >= wanted - 1e-9 } ?? maximum)
    }
}
