import Foundation
import Raster
@testable import StickerKit
import Testing
import TestSupport

@Suite("Clips: decoding, tracking, animated containers")
struct ClipStickerTests {
    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "clip-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The WebP sticker of `piece` of `clip` into `output`, by contrast saliency without the plate
    /// (no network: only what is decoded, and when, is under test), its masks logged.
    func plainSticker(of clip: URL, piece: ClipPiece, output: URL, maximumFramesPerSecond: Double = 15) async throws
        -> (summary: AnimatedStickerSummary, masks: MaskLog) {
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.tracking.usesBackgroundPlate = false
        maker.maximumFramesPerSecond = maximumFramesPerSecond
        let masks = MaskLog()
        let summary = try await maker.make(clip: clip, piece: piece, format: .webp(quality: 80), output: output,
                                           masks: { index, alpha in await masks.add(index, alpha) })
        return (summary, masks)
    }

    static func frame(_ k: Int, width: Int = 64, height: Int = 48) -> Image {
        var image = Image(width: width, height: height)
        for y in 0..<height { for x in 0..<width where abs(x - 10 - 8 * k) < 8 && abs(y - 24) < 8 {
            image[x, y] = RGBA8(r: 200, g: 40, b: UInt8(40 * k), a: 255)
        } }
        return image
    }

    @Test("An animated WebP is read by webpmux and Pillow: looping forever, every frame and its duration")
    func animatedWebP() async throws {
        let webpmux = try ClipTools.require("webpmux")
        var writer = AnimatedWebPWriter(width: 64, height: 48)
        for k in 0..<3 { try writer.add(Self.frame(k), milliseconds: [67, 66, 70][k], settings: .lossy(quality: 80)) }
        let file = try scratch().appending(path: "a.webp")
        try writer.data().write(to: file)
        let info = try await ClipTools.runToEnd([webpmux, "-info", file.path])
        #expect(info.status == 0, "\(info.errors)")
        #expect(info.output.contains("Canvas size: 64 x 48"))
        #expect(info.output.contains("Loop Count : 0"))
        #expect(info.output.contains("Number of frames: 3"))
        for duration in [67, 66, 70] { #expect(info.output.contains(" \(duration) "), "\(info.output)") }
        let pillow = try await ClipTools.pillowInfo(file)
        #expect(pillow["frames"] as? Int == 3)
        #expect(pillow["size"] as? [Int] == [64, 48])
        // Given back as a photo, it is refused as an animation, not as corrupt data.
        let bytes = try Data(contentsOf: file)
        #expect(ClipDetection.isAnimatedWebP(bytes))
        #expect(throws: ImageCodecError.animated) { try ImageDecoder.decode(bytes) }
        #expect(ImageCodecError.animated.reason.contains("animated WebP"))
    }

    @Test("An APNG is read by Pillow with its frames, durations and endless loop")
    func animatedPNG() async throws {
        var writer = AnimatedPNGWriter(width: 64, height: 48)
        for k in 0..<4 { try writer.add(Self.frame(k), milliseconds: 100) }
        let file = try scratch().appending(path: "a.png")
        try writer.data().write(to: file)
        let pillow = try await ClipTools.pillowInfo(file)
        #expect(pillow["format"] as? String == "PNG")
        #expect(pillow["frames"] as? Int == 4)
        #expect(pillow["animated"] as? Bool == true)
        #expect((pillow["durations"] as? [Double])?.allSatisfy { abs($0 - 100) < 0.5 } == true, "\(pillow)")
        #expect(pillow["loop"] as? Int == 0)
        // Our own decoder still reads the default image (the first frame).
        let still = try ImageDecoder.decode(try Data(contentsOf: file))
        #expect(still == Self.frame(0))
    }

    @Test("A GIF's centisecond delays do not halve its frame rate; a rate well above the cap is thinned")
    func frameStepToleratesCentisecondRounding() {
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 181.0 / 12, maximum: 15) == 1)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 15, maximum: 15) == 1)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 30000.0 / 1001, maximum: 15) == 2)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 30.3, maximum: 15) == 2)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 25, maximum: 15) == 2)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 60, maximum: 15) == 4)
        #expect(ClipStickerMaker.frameStep(sourceFramesPerSecond: 10, maximum: 15) == 1)
    }

    @Test("Frame durations: even on a rate, merged when frames are thinned, repeated on WebM's constant rate")
    func frameDurations() {
        #expect(FrameDurations.even(count: 4, framesPerSecond: 15) == [67, 66, 67, 67])
        #expect(FrameDurations.merged([100, 500, 100, 70, 30], step: 2) == [600, 170, 30])
        // A frame shows in the ticks that start within it: even frames one each, a long one several, a short one maybe none.
        #expect(FrameDurations.repeats(FrameDurations.even(count: 30, framesPerSecond: 15), framesPerSecond: 15) == Array(repeating: 1, count: 30))
        #expect(FrameDurations.repeats([100, 500, 100, 20, 80], framesPerSecond: 10) == [1, 5, 1, 1, 0])
        #expect(FrameDurations.repeats([20, 100], framesPerSecond: 10) == [1, 1])
        // WebM's rate: a video's even frames keep theirs; a GIF's quick frames raise it, to 30 at most.
        #expect(FrameDurations.constantRate(for: FrameDurations.even(count: 9, framesPerSecond: 15), average: 15, maximum: 30) == 15)
        #expect(FrameDurations.constantRate(for: [100, 500, 50], average: 6.7, maximum: 30) == 20)
        #expect(FrameDurations.constantRate(for: [20, 20, 2400], average: 1.2, maximum: 30) == 30)
        #expect(FrameDurations.constantRate(for: [70, 70, 300], average: 6.5, maximum: 30) == 15)
        // An even clip's last frame cut short by the piece's end: by a few milliseconds (29.97 fps
        // thinned to 14.985 in 3 s) the rate stays, one tick a frame; by half a tick or more it rises.
        let thinned = Array(FrameDurations.even(count: 45, framesPerSecond: 14.985).dropLast()) + [64]
        #expect(FrameDurations.constantRate(for: thinned, average: 14.985, maximum: 30) == 14.985)
        #expect(FrameDurations.repeats(thinned, framesPerSecond: 14.985) == Array(repeating: 1, count: 45))
        #expect(FrameDurations.constantRate(for: [2000, 1000], average: 0.5, maximum: 30) == 5)
        #expect(FrameDurations.constantRate(for: [500, 500, 200], average: 2, maximum: 30) == 5)
        // Whole fifths of a second: 3 s of 70 ms frames at 15 fps take 45 ticks, exactly 3 s.
        #expect(FrameDurations.repeats(Array(repeating: 70, count: 42) + [60], framesPerSecond: 15).reduce(0, +) == 45)
    }

    @Test("A GIF's own delays time its animated sticker in every format, not its average rate",
          arguments: ["webp", "png", "webm"])
    func gifDelaysTimeTheSticker(_ ext: String) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = try await ClipTools.discGIF(in: folder, delays: [100, 100, 100, 900, 100, 100, 100, 100])
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.tracking.usesBackgroundPlate = false
        let output = folder.appending(path: "out.\(ext)")
        let masks = MaskLog()
        // From 0.2 s: the frames that start there or later, the long one first.
        let summary = try await maker.make(clip: gif, piece: ClipPiece(start: 0.2, duration: 10),
                                           format: try #require(AnimatedFormat(pathExtension: ext)), output: output,
                                           masks: { index, alpha in await masks.add(index, alpha) })
        #expect(summary.frames == 6)
        #expect(await masks.indexes == [2, 3, 4, 5, 6, 7])
        if ext == "webm" {
            // A constant rate, the GIF's shortest frame's (10 fps): the long frame repeated nine
            // times, the sticker lasting its 1.4 s (six frames at the average rate would last 1.2 s).
            let probe = try await ClipTools.runToEnd([try ClipTools.require("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
                                                      "-show_entries", "stream=nb_read_frames,r_frame_rate", "-of", "csv=p=0", output.path])
            #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "10/1,14", "\(probe)")
        } else if ext == "webp" {
            #expect(try await ClipTools.webpDurations(output) == [100, 900, 100, 100, 100, 100])
        } else {
            let pillow = try await ClipTools.pillowInfo(output)
            #expect((pillow["durations"] as? [Double])?.map { Int($0.rounded()) } == [100, 900, 100, 100, 100, 100], "\(pillow)")
        }
    }

    @Test("A clip slower than its piece: the last frame shows to the piece's end only, in every format",
          arguments: ["webp", "png", "webm"])
    func theLastFrameEndsWithThePiece(_ ext: String) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2 frames a second: a 1.2 s piece holds the frames at 0, 0.5 and 1 s; the last shows 0.2 s.
        let clip = try await ClipTools.movingDisc(in: folder, fps: 2, seconds: 3)
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.tracking.usesBackgroundPlate = false
        let output = folder.appending(path: "out.\(ext)")
        let summary = try await maker.make(clip: clip, piece: ClipPiece(start: 0, duration: 1.2),
                                           format: try #require(AnimatedFormat(pathExtension: ext)), output: output)
        #expect(summary.frames == 3)
        if ext == "webm" {
            // A constant rate whose ticks divide 1.2 s (5 fps): six ticks, not 1.5 s of them.
            let probe = try await ClipTools.runToEnd([try ClipTools.require("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
                                                      "-show_entries", "stream=nb_read_frames,r_frame_rate", "-of", "csv=p=0", output.path])
            #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "5/1,6", "\(probe)")
        } else if ext == "webp" {
            #expect(try await ClipTools.webpDurations(output) == [500, 500, 200])
        } else {
            let pillow = try await ClipTools.pillowInfo(output)
            #expect((pillow["durations"] as? [Double])?.map { Int($0.rounded()) } == [500, 500, 200], "\(pillow)")
        }
    }

    @Test("A video whose frame rate varies (a phone's) is timed by its frames' own times, from the frame its start names, an edit list's cut frames left out")
    func variableRateVideoIsTimedByItsFrames() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let even = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        // The same 20 frames, the first five 0.2 s apart (a dim start), the rest 0.05 s.
        let clip = folder.appending(path: "vfr.mp4")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-y", "-i", even.path,
                                                 "-vf", "setpts='if(lt(N,5),N*0.2,1+(N-5)/20)/TB'", "-fps_mode", "passthrough",
                                                 "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", clip.path])
        try #require(made.status == 0, "\(made.errors)")
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.tracking.usesBackgroundPlate = false
        maker.maximumFramesPerSecond = 30
        let output = folder.appending(path: "out.webp")
        /// The piece of `file` made into a WebP: its frames, their masks' names and durations.
        func sticker(of file: URL, from start: Double) async throws -> (frames: Int, masks: [Int], durations: [Int]) {
            let masks = MaskLog()
            let summary = try await maker.make(clip: file, piece: ClipPiece(start: start, duration: 10), format: .webp(quality: 80),
                                               output: output, masks: { index, alpha in await masks.add(index, alpha) })
            return (summary.frames, await masks.indexes, try await ClipTools.webpDurations(output))
        }
        /// `clip` from `start` on, cut by stream copy: an MP4 edit list, its cut packets still listed
        /// (flag D) but never decoded.
        func streamCopy(from start: String, named name: String) async throws -> URL {
            let url = folder.appending(path: name)
            let copied = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-y", "-ss", start, "-i", clip.path,
                                                       "-c", "copy", url.path])
            try #require(copied.status == 0, "\(copied.errors)")
            return url
        }

        // From 0.5 s: the frame at 0.6 s first (the average rate, 11.4 fps, would have named frame 6).
        let whole = try await sticker(of: clip, from: 0.5)
        #expect(whole.frames == 17)
        #expect(whole.masks == Array(3..<20))
        #expect(whole.durations == [200, 200] + Array(repeating: 50, count: 15))

        // The same piece cut out by stream copy: the frames kept are timed as above, named from 0.
        let cut = try await sticker(of: try await streamCopy(from: "0.5", named: "cut.mp4"), from: 0)
        #expect(cut.masks == Array(0..<17))
        #expect(cut.durations == [200, 200] + Array(repeating: 50, count: 15))

        // Cut where the rate is even: the edit list's cut packets make the container's average
        // rate 9.8 fps for frames 20 a second apart; `--start 0.2` still begins at frame 4.
        let evenCut = try await sticker(of: try await streamCopy(from: "1.0", named: "even-cut.mp4"), from: 0.2)
        #expect(evenCut.masks == Array(4..<15))
        #expect(evenCut.durations == Array(repeating: 50, count: 11))
    }

    @Test("A piece of an MPEG-TS file of one group of pictures, where ffmpeg's seek decodes nothing, is reached by decoding up to it")
    func transportStreamPieceIsReachedByDecoding() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disc = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 2)
        let clip = folder.appending(path: "one-gop.ts")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-y", "-i", disc.path,
                                                 "-c:v", "libx264", "-g", "1000", "-bf", "2", "-pix_fmt", "yuv420p", clip.path])
        try #require(made.status == 0, "\(made.errors)")
        let (summary, masks) = try await plainSticker(of: clip, piece: ClipPiece(start: 1, duration: 3),
                                                      output: folder.appending(path: "out.webp"), maximumFramesPerSecond: 30)
        #expect(summary.frames == 20)
        #expect(await masks.indexes == Array(20..<40))
        // The disc in the second half of its path, moving on right.
        let centres = await masks.centres
        #expect(centres.first! > 90 && centres.last! > centres.first!, "\(centres)")

        // A keyframe every 10 s: the seek to 5 s decodes from the one at 10 s on (ffmpeg's frames
        // 200…, named 100…, exit 0 before). The disc is at x = 20 + 80·(t mod 1.5): 60 at 5 s, 100 at 10 s.
        let keyframes = folder.appending(path: "keyframe-every-10s.ts")
        let disc10 = "geq=r='if(lt(hypot(X-(20+mod(T,1.5)*80),Y-60),22),230,110+X/8)':g='if(lt(hypot(X-(20+mod(T,1.5)*80),Y-60),22),30,110+X/8)':b='if(lt(hypot(X-(20+mod(T,1.5)*80),Y-60),22),30,110+X/8)'"
        let long = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=20:d=12",
                                                 "-vf", disc10, "-c:v", "libx264", "-g", "200", "-bf", "0", "-pix_fmt", "yuv420p", keyframes.path])
        try #require(long.status == 0, "\(long.errors)")
        let (piece, later) = try await plainSticker(of: keyframes, piece: ClipPiece(start: 5, duration: 2),
                                                    output: folder.appending(path: "later.webp"), maximumFramesPerSecond: 30)
        #expect(piece.frames == 40)
        #expect(await later.indexes == Array(100..<140))
        let first = await later.centres.first!
        #expect(abs(first - 60) < 8, "\(first)")
    }

    @Test("A file of two video streams is probed, timed and decoded from the first, though the second is larger and the default")
    func twoVideoStreamsAreReadFromTheFirst() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disc = try await ClipTools.movingDisc(in: folder, fps: 10, seconds: 1)
        // ffmpeg left to itself decodes the larger second stream (20 fps, 320×240), marked the default.
        let clip = folder.appending(path: "two.mkv")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-y", "-i", disc.path,
                                                 "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=20:duration=1",
                                                 "-map", "0:v", "-map", "1:v", "-disposition:v:0", "0", "-disposition:v:1", "default",
                                                 "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        try #require(made.status == 0, "\(made.errors)")
        let (summary, masks) = try await plainSticker(of: clip, piece: ClipPiece(duration: 3), output: folder.appending(path: "out.webp"))
        #expect(summary.frames == 10)
        #expect(await masks.indexes == Array(0..<10))
        #expect(await masks.sizes.allSatisfy { $0 == (160, 120) })
        // The disc moving right, as in the first stream.
        let centres = await masks.centres
        #expect(centres.first! < 60 && centres.last! > 80, "\(centres)")
    }

    @Test("A video's frame times make a timeline only when they are uneven; B-frames' decoding order is sorted")
    func videoFrameTimesMakeATimelineWhenUneven() {
        // Even (a thirtieth apart, jittered by a millisecond): timed at the rate, as before.
        #expect(AnimatedImageTimeline.variableRate(presentationTimes: [0, 0.034, 0.066, 0.1, 0.133], start: 0) == nil)
        // In decoding order, from a clip whose start is 1 s: 0.1 s frames, then 0.05 s ones.
        let timeline = AnimatedImageTimeline.variableRate(presentationTimes: [1.0, 1.2, 1.1, 1.3, 1.25, 1.35], start: 1)
        #expect(timeline?.firstStart == 0)
        #expect(timeline?.frameMilliseconds == [100, 100, 50, 50, 50, 50])
        // Two frames at one time: unknown timing, even.
        #expect(AnimatedImageTimeline.variableRate(presentationTimes: [0, 0.1, 0.1, 0.3], start: 0) == nil)
    }

    @Test("A WebM with alpha (a video sticker) is decoded with it, by libvpx; other clips by ffmpeg's own decoders")
    func webmWithAlphaIsReadWithIt() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.maximumFramesPerSecond = 10
        let sticker = folder.appending(path: "sticker.webm")
        _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .webm(bitrate: nil), output: sticker)
        #expect(ClipDetection.inputDecoderArguments(sticker) == ["-c:v", "libvpx-vp9"])
        #expect(ClipDetection.inputDecoderArguments(clip).isEmpty)
        let opaque = folder.appending(path: "opaque.webm")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-i", clip.path, "-c:v", "libvpx-vp9", opaque.path])
        try #require(made.status == 0, "\(made.errors)")
        #expect(ClipDetection.inputDecoderArguments(opaque).isEmpty)

        let info = try await ClipInfo.probe(sticker)
        let reader = try ClipFrameReader(clip: sticker, info: info, piece: ClipPiece(), width: info.width, height: info.height)
        let first = try #require(try await reader.next())
        reader.close()
        let clear = (0..<(first.width * first.height)).filter { first.pixels[$0 * 4 + 3] < 8 }
        #expect(clear.count > first.width * first.height / 4, "the sticker's background comes back transparent")
    }

    @Test("A point off the clip's frame is refused as a photo's is, naming the frame's size; nothing written")
    func pointOffTheFrameIsRefused() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await ClipTools.movingDisc(in: folder, fps: 10, seconds: 1)
        // A network that finds nothing: a point checked only after the first look would say so instead.
        let maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        let output = folder.appending(path: "out.webp")
        await #expect(throws: ClipError.cutOut(.noSuchSubject(.pointOutsidePhoto(x: 9999, y: 5, width: 160, height: 120)))) {
            _ = try await maker.make(clip: clip, piece: ClipPiece(), first: .point(x: 9999, y: 5), format: .webp(quality: 80), output: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("ffmpeg's list of decoders is read by name: libvpx-vp9 is listed or not, never found in another's description; no listing says nothing")
    func decoderListing() {
        let listing = """
             VFS..D vp9                  Google VP9
             V..... libvpx-vp9           libvpx VP9 (codec vp9)
             V..... vp8_cuvid            Nvidia CUVID VP8 decoder (codec vp8)
            """
        #expect(ClipDetection.listsDecoder("libvpx-vp9", in: listing) == true)
        #expect(ClipDetection.listsDecoder("vp9", in: listing) == true)
        #expect(ClipDetection.listsDecoder("libvpx", in: listing) == false)
        #expect(ClipDetection.listsDecoder("libvpx-vp9", in: " VFS..D vp9                  Google VP9 (libvpx-vp9 absent)") == false)
        // Not a listing (an empty output, a wrapper's own text): unknown, and the decoder is asked for.
        #expect(ClipDetection.listsDecoder("libvpx-vp9", in: "") == nil)
        #expect(ClipDetection.listsDecoder("libvpx-vp9", in: "usage: ffmpeg [options]") == nil)
    }

    @Test("ffprobe's JSON gives size, frame rate and the video's own length; a file without a video stream is unreadable")
    func probeParsing() throws {
        let json = #"{"streams":[{"width":640,"height":480,"avg_frame_rate":"30000/1001","r_frame_rate":"30000/1001","duration":"2.5"}],"format":{"duration":"2.6"}}"#
        let info = try ClipInfo.parse(Data(json.utf8))
        #expect(info.width == 640 && info.height == 480)
        #expect(abs(info.framesPerSecond - 29.97) < 0.01)
        #expect(info.duration == 2.5)
        // Matroska: the track's own length from its tag, not the container's (its audio may run longer).
        let mkv = #"{"streams":[{"width":64,"height":48,"avg_frame_rate":"20/1","tags":{"DURATION":"00:00:02.050000000"}}],"format":{"duration":"4.01"}}"#
        #expect(try ClipInfo.parse(Data(mkv.utf8)).duration == 2.05)
        #expect(throws: ClipError.self) { try ClipInfo.parse(Data(#"{"streams":[],"format":{}}"#.utf8)) }
    }

    @Test("A subject carried along its motion lands where it moved, at its new size")
    func motionCarry() {
        func blob(_ cx: Float, _ cy: Float, _ r: Float) -> Plane {
            var plane = Plane(width: 80, height: 80)
            for y in 0..<80 { for x in 0..<80 where hypot(Float(x) - cx, Float(y) - cy) < r { plane[x, y] = 1 } }
            return plane
        }
        let a = blob(20, 30, 8), b = blob(50, 40, 12)
        let ma = SubjectMotion(a)!, mb = SubjectMotion(b)!
        let carried = ma.carry(a, to: mb)
        let moved = SubjectMotion(carried)!
        #expect(abs(moved.centerX - mb.centerX) < 1 && abs(moved.centerY - mb.centerY) < 1)
        #expect(abs(moved.size - mb.size) / mb.size < 0.08)
    }

    /// A textured ground 240×180 seen through a 160×120 window, panned `groundShift` px, and a
    /// 40 px square subject centred at (`subjectX`, 60): `outline`, only its 3 px dark border drawn
    /// (the ground seen through it), else filled. The mask is the whole square.
    static func panView(groundShift: Int, subjectX: Int, outline: Bool) -> (Image, Mask) {
        var image = Image(width: 160, height: 120), mask = Mask(width: 160, height: 120)
        for y in 0..<120 { for x in 0..<160 {
            let gx = x + groundShift
            let v = UInt8((gx * 7 + y * 13 + (gx * y) % 29) % 200 + 20)
            image[x, y] = RGBA8(r: v, g: v / 2, b: 255 - v)
            let dx = abs(x - subjectX), dy = abs(y - 60)
            guard dx < 20 && dy < 20 else { continue }
            mask[x, y] = 255
            if !outline { image[x, y] = RGBA8(r: 250, g: UInt8(((x - subjectX + 20) * 5) % 255), b: 40) } else if dx >= 17 || dy >= 17 {
                image[x, y] = RGBA8(r: 20, g: 20, b: 30)
            }
        } }
        return (image, mask)
    }

    /// The check's verdict after eight frames of `panView`, the camera moving `pan` px a frame and
    /// the subject `own` px.
    static func panVerdict(pan: Int, own: Int, outline: Bool = false) throws -> Bool {
        let (first, mask) = panView(groundShift: 0, subjectX: 80, outline: outline)
        var check = try #require(MovingSubjectCheck(frame: first, mask: mask))
        for k in 1...8 {
            let (frame, mask) = panView(groundShift: pan * k, subjectX: 80 - pan * k + own * k, outline: outline)
            check.observe(frame, mask: mask)
        }
        return check.isScenery
    }

    @Test("A subject panned with its background is scenery; one moving apart from it, or a still scene, is a subject")
    func movingSubject() throws {
        #expect(try Self.panVerdict(pan: 0, own: 0) == false, "a still scene keeps its subject")
        #expect(try Self.panVerdict(pan: 2, own: 0) == true, "panned together: scenery")
        #expect(try Self.panVerdict(pan: 1, own: 0) == true, "a slow pan, a pixel a frame: scenery")
        #expect(try Self.panVerdict(pan: 2, own: 2) == false, "the subject moves apart")
        #expect(try Self.panVerdict(pan: 0, own: 2) == false, "a still camera, a moving subject")
    }

    @Test("A subject drawn in outline, the background seen through it, moves apart by its outline; carried along, it is scenery")
    func outlineSubject() throws {
        #expect(try Self.panVerdict(pan: 2, own: 3, outline: true) == false, "the outline moves apart")
        #expect(try Self.panVerdict(pan: 2, own: 0, outline: true) == true, "carried with the background: scenery")
    }

    @Test("Of two salient regions, the one that stays with the panned background is scenery, the moving one the subject")
    func sceneryRegion() throws {
        // A textured ground panned 2 px a frame; a square fixed in it, and a disc moving on its own.
        func view(_ k: Int) -> Image {
            var image = Image(width: 160, height: 120)
            for y in 0..<120 { for x in 0..<160 {
                let gx = x + 2 * k
                let v = UInt8((gx * 7 + y * 13 + (gx * y) % 29) % 200 + 20)
                image[x, y] = RGBA8(r: v, g: v / 2, b: 255 - v)
                if abs(gx - 50) < 14 && abs(y - 30) < 14 { image[x, y] = RGBA8(r: 250, g: UInt8((gx * 9) % 255), b: 40) }
                if hypot(Double(x - 90 - 3 * k), Double(y - 80)) < 16 { image[x, y] = RGBA8(r: 40, g: UInt8((x * 11 + y * 5) % 255), b: 250) }
            } }
            return image
        }
        var square = Plane(width: 160, height: 120), disc = Plane(width: 160, height: 120)
        for y in 0..<120 { for x in 0..<160 {
            if abs(x - 50) < 14 && abs(y - 30) < 14 { square[x, y] = 1 }
            if hypot(Double(x - 90), Double(y - 80)) < 16 { disc[x, y] = 1 }
        } }
        var check = try #require(MovingSubjectCheck(frame: view(0), regions: [square, disc]))
        for k in 1...6 { check.observe(view(k), mask: nil) }
        #expect(check.sceneryRegions == [0])
        #expect(check.isScenery == false)
    }

    @Test("A subject followed across a clip keeps a steady mask that moves with it")
    func steadyMasks() async throws {
        let folder = try scratch()
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.maximumFramesPerSecond = 20
        let masks = MaskLog()
        _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .apng, output: folder.appending(path: "out.png"),
                                 masks: { index, alpha in await masks.add(index, alpha) })
        // The disc (radius 22, centre 20 + 90 t, 60) has the same area in every frame; so must its mask.
        let areas = await masks.areas, centres = await masks.centres
        #expect(areas.count == 20)
        let median = areas.sorted()[areas.count / 2]
        #expect(abs(median - Double.pi * 22 * 22) / (Double.pi * 22 * 22) < 0.15, "\(areas)")
        #expect(areas.allSatisfy { abs($0 - median) / median < 0.1 }, "\(areas)")
        for (k, centre) in centres.enumerated() where k > 0 && k < 19 {
            #expect(abs(centre - (20 + 90 * Double(k) / 20)) < 3, "frame \(k): \(centres)")
        }
    }

    @Test("Frames kept between the passes, or the piece decoded again (no budget, or one too small for it), make the same sticker and masks")
    func keptFramesMakeTheSameSticker() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        // Every other frame used (20 → 10 fps), so both passes skip the same frames.
        func sticker(budget: Int) async throws -> (bytes: Data, masks: [Int], areas: [Double]) {
            var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
            maker.maximumFramesPerSecond = 10
            maker.keptFramesBudget = budget
            let masks = MaskLog(), output = folder.appending(path: "budget-\(budget).webp")
            _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .webp(quality: 80), output: output,
                                     masks: { index, alpha in await masks.add(index, alpha) })
            return (try Data(contentsOf: output), await masks.indexes, await masks.areas)
        }
        let kept = try await sticker(budget: 56 << 20)
        #expect(kept.masks == Array(stride(from: 0, to: 20, by: 2)))
        // No budget; one of four frames (160 × 120 RGBA each), under the piece's ten.
        for budget in [0, 4 * 160 * 120 * 4] {
            let decodedAgain = try await sticker(budget: budget)
            #expect(decodedAgain.bytes == kept.bytes, "budget \(budget)")
            #expect(decodedAgain.masks == kept.masks && decodedAgain.areas == kept.areas, "budget \(budget)")
        }
    }

    @Test("A pan over a scene whose salient thing stays in it makes nothing: no clear subject")
    func panWithoutSubject() async throws {
        let folder = try scratch()
        let ffmpeg = try ClipTools.require("ffmpeg")
        let clip = folder.appending(path: "pan.mp4")
        // A textured ground and a red square fixed in it, the camera panning 30 px a second.
        let u = "(X+T*30)"
        let square = "lt(abs(\(u)-70),16)*lt(abs(Y-60),16)"
        let ground = "110+20*sin(\(u)/4)*sin(Y/5)"
        let geq = "geq=r='if(\(square),230,\(ground))':g='if(\(square),30,\(ground))':b='if(\(square),30,\(ground))'"
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=20:d=1.5", "-vf", geq,
                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "16", clip.path]).status == 0)
        let maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        let output = folder.appending(path: "out.webp")
        let masks = MaskLog()
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .webp(quality: 80), output: output,
                                     masks: { index, alpha in await masks.add(index, alpha) })
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The same scene with the camera still keeps its subject (a still camera proves nothing).
        let stillClip = folder.appending(path: "still.mp4")
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=20:d=1.5",
                                        "-vf", geq.replacingOccurrences(of: "T*30", with: "0"),
                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "16", stillClip.path]).status == 0)
        let summary = try await maker.make(clip: stillClip, piece: ClipPiece(), format: .webp(quality: 80), output: output)
        #expect(summary.frames > 0)
    }

    @Test("A video shown turned a quarter (a phone's portrait clip) has its shown size; a half turn keeps it")
    func probeRotation() throws {
        func size(_ streamExtra: String) throws -> (Int, Int) {
            let json = #"{"streams":[{"width":640,"height":480,"avg_frame_rate":"30/1""# + streamExtra + #"}],"format":{}}"#
            let info = try ClipInfo.parse(Data(json.utf8))
            return (info.width, info.height)
        }
        #expect(try size(#","side_data_list":[{"rotation":90}]"#) == (480, 640))
        #expect(try size(#","side_data_list":[{"rotation":-90}]"#) == (480, 640))
        #expect(try size(#","side_data_list":[{"rotation":270}]"#) == (480, 640))
        #expect(try size(#","side_data_list":[{"rotation":180}]"#) == (640, 480))
        #expect(try size(#","tags":{"rotate":"90","language":"und"}"#) == (480, 640))
        #expect(try size(#","tags":{}"#) == (640, 480))
    }

    @Test("A portrait phone clip (stored sideways, shown turned) is cut out upright at its shown size")
    func rotatedClip() async throws {
        let folder = try scratch()
        let ffmpeg = try ClipTools.require("ffmpeg")
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        let turned = folder.appending(path: "turned.mp4")
        let remuxed = try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-y", "-i", clip.path, "-c", "copy",
                                                    "-metadata:s:v:0", "rotate=90", turned.path])
        try #require(remuxed.status == 0, "ffmpeg could not turn the clip: \(remuxed.errors)")
        let info = try await ClipInfo.probe(turned)
        #expect(info.width == 120 && info.height == 160)
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        maker.maximumFramesPerSecond = 10
        let masks = MaskLog()
        let summary = try await maker.make(clip: turned, piece: ClipPiece(), format: .webp(quality: 80),
                                           output: folder.appending(path: "out.webp"),
                                           masks: { index, alpha in await masks.add(index, alpha, vertical: true) })
        #expect(summary.frames == 10)
        // Turned upright by ffmpeg, the disc that moved along the stored rows moves along the
        // shown columns (up, as ffmpeg shows this file), every mask at the shown size.
        let sizes = await masks.sizes
        #expect(sizes.allSatisfy { $0 == 120 && $1 == 160 }, "\(sizes)")
        let centres = await masks.centres
        #expect(zip(centres, centres.dropFirst()).allSatisfy { $0 > $1 + 2 }, "\(centres)")
    }

    @Test("Frames stream from ffmpeg one at a time at the size asked; closing early stops ffmpeg")
    func frameReader() async throws {
        let folder = try scratch()
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        let info = try await ClipInfo.probe(clip)
        #expect(info.width == 160 && info.height == 120 && abs(info.framesPerSecond - 20) < 0.01)
        let reader = try ClipFrameReader(clip: clip, info: info, piece: ClipPiece(duration: 10), width: 80, height: 60)
        var count = 0
        while let frame = try await reader.next() {
            #expect(frame.width == 80 && frame.height == 60)
            count += 1
        }
        #expect(count == 20)
        // A piece from the middle: only its frames.
        let middle = try ClipFrameReader(clip: clip, info: info, piece: ClipPiece(start: 0.5, duration: 0.25), width: 160, height: 120)
        var inPiece = 0
        while try await middle.next() != nil { inPiece += 1 }
        #expect(inPiece == 5)
        let early = try ClipFrameReader(clip: clip, info: info, piece: ClipPiece(duration: 10), width: 160, height: 120)
        _ = try await early.next()
        early.close()
        #expect(try await early.next() == nil)
    }

    @Test("An animated PNG is probed and decoded as a clip, a name holding %d included (not an image sequence)")
    func animatedPNGWithAPercentInItsName() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try await ClipTools.movingDisc(in: folder, fps: 10, seconds: 1)
        let apng = folder.appending(path: "spin%d.png")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-i", video.path, "-f", "apng", apng.path])
        try #require(made.status == 0, "\(made.errors)")
        #expect(ClipDetection.isClip(path: apng.path))
        let info = try await ClipInfo.probe(apng)
        #expect(info.width == 160 && info.height == 120 && abs(info.framesPerSecond - 10) < 0.01)
        let reader = try ClipFrameReader(clip: apng, info: info, piece: ClipPiece(duration: 10), width: 160, height: 120)
        var count = 0
        while try await reader.next() != nil { count += 1 }
        #expect(count == 10)
    }

    @Test("ffmpeg's reasons reach the user without its demuxer names and addresses")
    func ffmpegReasonsAreReadable() {
        let log = "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55ebe75e8000] moov atom not found\n/tmp/a b.mp4: Invalid data found when processing input\n"
        #expect(ErrorLog.readable(log) == "moov atom not found; /tmp/a b.mp4: Invalid data found when processing input")
        #expect(ErrorLog.readable("[gif @ 0x1] x\n[in] keep me") == "x; [in] keep me")
        // Only whole lines when the log is longer than the limit.
        #expect(ErrorLog.readable("first line\nsecond line\nthird", maximumLength: 20) == "second line; third")
    }

    @Test("A piece's first frame index names the frame ffmpeg starts it with, a start between two frames included",
          arguments: [0.05, 0.06, 0.04, 0.51, 0.333, 0.949])
    func firstFrameIndexIsTheFrameFFmpegStartsWith(_ start: Double) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        let info = try await ClipInfo.probe(clip)
        let whole = try ClipFrameReader(clip: clip, info: info, piece: ClipPiece(duration: 10), width: 160, height: 120)
        var frames: [Image] = []
        while let frame = try await whole.next() { frames.append(frame) }
        let piece = ClipPiece(start: start, duration: 1)
        let reader = try ClipFrameReader(clip: clip, info: info, piece: piece, width: 160, height: 120)
        let first = try #require(try await reader.next())
        let index = piece.firstFrameIndex(framesPerSecond: info.framesPerSecond)
        #expect(frames.firstIndex(of: first) == index, "start \(start): index \(index)")
    }

    @Test("Frames fitted by ffmpeg before the probe come at the size fittedSize computes from it",
          arguments: [(250, 130, 97), (130, 250, 97), (160, 120, 768), (161, 121, 80)])
    func framesFittedBeforeTheProbe(_ width: Int, _ height: Int, _ side: Int) async throws {
        let folder = try scratch()
        let clip = try await ClipTools.movingDisc(in: folder, width: width, height: height, fps: 10, seconds: 1)
        let reader = try ClipFrameReader(clip: clip, piece: ClipPiece(duration: 10), fittingIn: side)
        let info = try await ClipInfo.probe(clip)
        let size = ClipFrameReader.fittedSize(width: info.width, height: info.height, maximumSide: side)
        #expect(max(size.width, size.height) == min(side, max(width, height)))
        reader.expectFrames(width: size.width, height: size.height)
        // A size off by one pixel would leave the last frame cut short (an error) or the count wrong.
        var count = 0
        while let frame = try await reader.next() {
            #expect(frame.width == size.width && frame.height == size.height)
            count += 1
        }
        #expect(count == 10)
    }

    @Test("A clip cut short is unreadable, named as such, and makes no sticker, whatever its container",
          arguments: [("mp4", [String]()), ("mp4", ["-c:v", "libx264", "-movflags", "+faststart"]),
                      ("mkv", ["-c:v", "libx264"]), ("webm", ["-c:v", "libvpx-vp9", "-b:v", "200k"]),
                      ("gif", []), ("apng", ["-f", "apng", "-plays", "0"])])
    func truncatedClip(_ ext: String, _ encoding: [String]) async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var clip = try await ClipTools.movingDisc(in: folder, seconds: 2)
        if !encoding.isEmpty || ext != "mp4" {
            let other = folder.appending(path: "whole.\(ext)")
            let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-i", clip.path] + encoding + [other.path])
            try #require(made.status == 0, "\(made.errors)")
            clip = other
        }
        // Whole, it decodes to its end without a complaint.
        let info = try await ClipInfo.probe(clip)
        let whole = try ClipFrameReader(clip: clip, piece: ClipPiece(), fittingIn: 160)
        whole.expectFrames(width: info.width, height: info.height)
        whole.expectedFrameCount = ClipPiece().expectedFrameCount(info: info)
        while try await whole.next() != nil {}
        #expect(try AnimatedImageTimeline.read(contentsOf: clip)?.frameMilliseconds.count ?? 40 == 40)
        // Cut short, past its first frames: ffmpeg still decodes what is there, mostly without failing.
        let bytes = try Data(contentsOf: clip)
        let cut = folder.appending(path: "cut.\(ext)")
        try bytes.prefix(bytes.count * (ext == "mp4" && encoding.isEmpty ? 1 : 2) / 3).write(to: cut)
        let maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        let output = folder.appending(path: "out.webp")
        await #expect(throws: ClipError.self) {
            _ = try await maker.make(clip: cut, piece: ClipPiece(), format: .webp(quality: 80), output: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("A clip becomes an animated sticker in each format, the subject followed in every frame",
          arguments: ["webp", "png", "webm"])
    func everyFormat(_ ext: String) async throws {
        let folder = try scratch()
        let clip = try await ClipTools.movingDisc(in: folder, fps: 20, seconds: 1)
        var maker = ClipStickerMaker(predictor: ContrastSaliency(), style: StickerStyle())
        maker.maximumFramesPerSecond = 10
        let output = folder.appending(path: "out.\(ext)")
        let masks = MaskLog()
        let summary = try await maker.make(clip: clip, piece: ClipPiece(), format: try #require(AnimatedFormat(pathExtension: ext)),
                                           output: output, masks: { index, alpha in await masks.add(index, alpha) })
        #expect(summary.frames == 10)
        #expect(summary.framesPerSecond == 10)
        #expect(max(summary.width, summary.height) <= 512)
        let indexes = await masks.indexes
        #expect(indexes == Array(stride(from: 0, to: 20, by: 2)))
        // The disc moves right: each mask's centre of mass moves right with it.
        let centres = await masks.centres
        #expect(zip(centres, centres.dropFirst()).allSatisfy { $1 > $0 + 2 }, "\(centres)")
        let bytes = try Data(contentsOf: output)
        #expect(bytes.count == summary.bytes)
        switch ext {
        case "webm":
            let ffprobe = try ClipTools.require("ffprobe")
            let probe = try await ClipTools.runToEnd([ffprobe, "-v", "error", "-show_streams", "-show_format", "-of", "json", output.path])
            #expect(probe.output.contains("\"codec_name\": \"vp9\""))
            #expect(probe.output.contains("\"alpha_mode\": \"1\""))
            #expect(!probe.output.contains("\"codec_type\": \"audio\""))
        default:
            let pillow = try await ClipTools.pillowInfo(output)
            #expect(pillow["frames"] as? Int == 10)
            #expect(pillow["size"] as? [Int] == [summary.width, summary.height])
        }
    }

    @Test("A clip with no subject in its first frame makes nothing")
    func noSubject() async throws {
        let folder = try scratch()
        let ffmpeg = try ClipTools.require("ffmpeg")
        let clip = folder.appending(path: "grey.mp4")
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=96x64:r=10:d=1",
                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path]).status == 0)
        let maker = ClipStickerMaker(predictor: ContrastSaliency(), style: .plain)
        let output = folder.appending(path: "out.webp")
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .webp(quality: 80), output: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

/// The masks a clip's sticker reported, in order.
actor MaskLog {
    private(set) var indexes: [Int] = []
    private(set) var centres: [Double] = []
    /// Each mask's area in pixels (alpha / 255 summed).
    private(set) var areas: [Double] = []
    private(set) var sizes: [(Int, Int)] = []

    /// `vertical`: the centre's row rather than its column.
    func add(_ index: Int, _ alpha: Mask, vertical: Bool = false) {
        indexes.append(index)
        sizes.append((alpha.width, alpha.height))
        var sum = 0.0, mass = 0.0
        for (i, v) in alpha.values.enumerated() {
            sum += Double(vertical ? i / alpha.width : i % alpha.width) * Double(v)
            mass += Double(v)
        }
        centres.append(mass > 0 ? sum / mass : -1)
        areas.append(mass / 255)
    }
}

/// A predictor that never finds a subject.
struct NothingSalient: SaliencyPredicting {
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane { throw .noClearSubject }
}
