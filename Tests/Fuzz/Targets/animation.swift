// libFuzzer target: a GIF's block walk and an APNG's chunk walk (AnimatedImageTimeline, with
// ClipDetection's acTL sniffing), on any bytes: they read a clip's structure before ffmpeg does.
import Foundation
import Raster

/// ClipError's one case the walks throw (the real type carries StickerKit's extraction errors,
/// which would pull the whole pipeline into this binary).
public enum ClipError: Error, Equatable {
    case unreadable(String)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnimation(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // As sniffed (GIF or PNG magic), and forced down each walk whatever the bytes start with.
    for read in [{ try AnimatedImageTimeline.read(data) }, { try AnimatedImageTimeline.gif(data) },
                 { try AnimatedImageTimeline.apng(data) }] as [() throws -> AnimatedImageTimeline?] {
        if let timeline = try? read() {
            precondition(timeline.frameSeconds.allSatisfy { $0 >= 0 && $0.isFinite }, "a frame of negative or endless time")
            _ = timeline.frameMilliseconds
        }
    }
    return 0
}
