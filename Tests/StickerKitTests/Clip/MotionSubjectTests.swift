import Foundation
import Raster
@testable import StickerKit
import Synchronization
import Testing
import TestSupport

@Suite("Clips: a subject found by its motion where the network sees none")
struct MotionSubjectTests {
    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "motion-subject-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 2 s clip at 20 fps, 160 × 120: a ground of sharp-edged 8 px checks and soft waves, the
    /// camera panning 30 px a second (a fraction of a pixel a frame: a plate misplaced by a
    /// fraction would show every check's edge); with `ring`, a dark ring drawn in outline (line art:
    /// 3 px of stroke, the ground seen inside it) crossing the frame on its own, 50 px a second.
    /// With `logo`, a black box fixed to the frame's top right corner (a broadcaster's logo, a
    /// timestamp) over the panned ground; `speed`: the pan's, px a second. `flash`: the frame
    /// (0-based) lit half as bright again (a camera's flash).
    func pan(ring: Bool, logo: Bool = false, speed: Int = 30, flash: Int? = nil, in folder: URL) async throws -> URL {
        let ffmpeg = try ClipTools.require("ffmpeg")
        let clip = folder.appending(path: (ring ? "ring" : "pan") + (logo ? "-logo" : "") + (flash.map { "-flash\($0)" } ?? "") + "-\(speed).mp4")
        let u = "(X+T*\(speed))"
        let ground = "100+40*mod(floor(\(u)/8)+floor(Y/8),2)+15*sin(\(u)/5)*sin(Y/7)"
        let outline = "lt(abs(hypot(X-30-T*50,Y-60)-14),1.6)"
        var value = ring ? "if(\(outline),25,\(ground))" : ground
        if let flash { value = "if(eq(N,\(flash)),min(255,1.5*(\(value))),\(value))" }
        let geq = "geq=r='\(value)':g='\(value)':b='\(value)'" + (logo ? ",drawbox=x=120:y=8:w=30:h=14:color=black:t=fill" : "")
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=20:d=2",
                                                   "-vf", geq, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "14", clip.path]).status == 0)
        return clip
    }

    @Test("Line art the network does not see, moving apart from the panned ground, becomes the sticker; the pan alone stays refused")
    func outlineNoNetworkSeesIsCutOut() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        let output = folder.appending(path: "out.webp")
        let masks = MaskLog()
        let summary = try await maker.make(clip: try await pan(ring: true, in: folder), piece: ClipPiece(), format: .webp(quality: 80),
                                           output: output, masks: { index, alpha in await masks.add(index, alpha) })
        #expect(summary.frames == 20)
        // Every frame's mask lies on the ring (its centre 30 + 50 t px across), moving right with it.
        let centres = await masks.centres, areas = await masks.areas
        for (k, centre) in centres.enumerated() {
            let ring = 30 + 50 * Double(k) / 10  // used frames at 10 a second
            #expect(abs(centre - ring) < 6, "frame \(k): centre \(centre), ring \(ring)")
            #expect(areas[k] > 60 && areas[k] < 1500, "frame \(k): area \(areas[k])")
        }

        let panOnly = folder.appending(path: "pan-only.webp")
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: try await pan(ring: false, in: folder), piece: ClipPiece(), format: .webp(quality: 80), output: panOnly)
        }
        #expect(!FileManager.default.fileExists(atPath: panOnly.path))
    }

    @Test("Read a second time by motion, the progress never goes back and ends at every frame")
    func progressOfTheSecondReadingNeverGoesBack() async throws {
        // The network sees only a red square fixed in the panned scene: the first reading follows
        // it to the end and refuses it as scenery; the second finds the ring by its motion.
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try ClipTools.require("ffmpeg")
        let clip = folder.appending(path: "ring-and-square.mp4")
        let u = "(X+T*30)"
        let ground = "100+40*mod(floor(\(u)/8)+floor(Y/8),2)+15*sin(\(u)/5)*sin(Y/7)"
        let outline = "lt(abs(hypot(X-30-T*50,Y-60)-14),1.6)", square = "lt(abs(\(u)-120),12)*lt(abs(Y-30),12)"
        let grey = "if(\(outline),25,\(ground))"
        let geq = "geq=r='if(\(square),230,\(grey))':g='if(\(square),30,\(grey))':b='if(\(square),30,\(grey))'"
        try #require(try await ClipTools.runToEnd([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=160x120:r=20:d=2",
                                                   "-vf", geq, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "14", clip.path]).status == 0)
        let maker = ClipStickerMaker(predictor: RedSaliency(), style: .plain)
        let reports = Mutex<[Int]>([])
        let summary = try await maker.make(clip: clip, piece: ClipPiece(), format: .webp(quality: 80),
                                           output: folder.appending(path: "out.webp"),
                                           progress: { done in reports.withLock { $0.append(done) } })
        let seen = reports.withLock { $0 }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "\(seen)")
        #expect(seen.last == summary.frames)
    }

    @Test("A frame the plate does not fit (a flash) shows the frame before it again, not an empty one")
    func frameThePlateDoesNotFitRepeatsTheOneBefore() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        let masks = MaskLog()
        // Source frame 10 (the 6th used: frames used at 10 a second) is lit by a flash.
        let summary = try await maker.make(clip: try await pan(ring: true, flash: 10, in: folder), piece: ClipPiece(),
                                           format: .webp(quality: 80), output: folder.appending(path: "out.webp"),
                                           masks: { index, alpha in await masks.add(index, alpha) })
        #expect(summary.frames == 20)
        let centres = await masks.centres, areas = await masks.areas
        #expect(areas.allSatisfy { $0 > 60 }, "areas \(areas)")
        // The flash's frame holds the ring where the frame before held it; the next moves on.
        #expect(abs(centres[5] - centres[4]) < 1, "centres \(centres)")
        #expect(abs(centres[6] - centres[5] - 10) < 3, "centres \(centres)")
    }

    @Test("A first frame the plate does not fit shows the first that it fits")
    func firstFrameThePlateDoesNotFitShowsTheFirstPlaced() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        let masks = MaskLog()
        let summary = try await maker.make(clip: try await pan(ring: true, flash: 0, in: folder), piece: ClipPiece(),
                                           format: .webp(quality: 80), output: folder.appending(path: "out.webp"),
                                           masks: { index, alpha in await masks.add(index, alpha) })
        #expect(summary.frames == 20)
        let centres = await masks.centres, areas = await masks.areas, indexes = await masks.indexes
        #expect(indexes == Array(stride(from: 0, to: 40, by: 2)))
        #expect(areas.allSatisfy { $0 > 60 }, "areas \(areas)")
        #expect(abs(centres[0] - centres[1]) < 1, "centres \(centres)")
    }

    @Test("A logo fixed to the frame over a pan is no subject: refused alone, left out beside one")
    func logoFixedToTheFrameIsNoSubject() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        let output = folder.appending(path: "out.webp")
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: try await pan(ring: false, logo: true, speed: 60, in: folder), piece: ClipPiece(), format: .webp(quality: 80),
                                     output: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let masks = Masks()
        _ = try await maker.make(clip: try await pan(ring: true, logo: true, speed: 60, in: folder), piece: ClipPiece(), format: .webp(quality: 80),
                                 output: output, masks: { index, alpha in await masks.add(alpha) })
        // The masks hold the ring, not the logo (x 120…150, y 8…22: 420 px; a few of its edge's
        // pixels, which the codec rings against the passing ground, may differ in a frame), while
        // the ring is far from it (its centre at 30 + 5 k px in frame k).
        for (k, alpha) in await masks.all.prefix(13).enumerated() {
            var onRing = 0, onLogo = 0, elsewhere = 0
            let ring = 30 + 50 * Double(k) / 10
            for y in 0..<alpha.height {
                for x in 0..<alpha.width where alpha.values[y * alpha.width + x] >= 128 {
                    if (117...153).contains(x) && (5...25).contains(y) { onLogo += 1 }
                    else if abs(hypot(Double(x) - ring, Double(y) - 60) - 14) < 5 { onRing += 1 } else { elsewhere += 1 }
                }
            }
            #expect(onLogo <= 20 && onRing > 100 && onRing >= 4 * elsewhere, "frame \(k): ring \(onRing), logo \(onLogo), elsewhere \(elsewhere)")
        }
    }

    @Test("Without the motion rule, or with a subject asked for by point, a clip the network sees nothing in is refused")
    func motionRuleCanBeTurnedOff() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await pan(ring: true, in: folder)
        var maker = ClipStickerMaker(predictor: NothingSalient(), style: .plain)
        maker.tracking.motionSubject = nil
        let output = folder.appending(path: "out.webp")
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: clip, piece: ClipPiece(), format: .webp(quality: 80), output: output)
        }
        maker.tracking.motionSubject = MotionSubject()
        await #expect(throws: ClipError.cutOut(.noClearSubject)) {
            _ = try await maker.make(clip: clip, piece: ClipPiece(), first: .point(x: 30, y: 46), format: .webp(quality: 80), output: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

/// Every mask a sticker reported, in order.
private actor Masks {
    private(set) var all: [Mask] = []
    func add(_ alpha: Mask) { all.append(alpha) }
}

/// Sees red alone (a network that finds a red thing salient and nothing else), on a 40 × 40 grid.
private struct RedSaliency: SaliencyPredicting {
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        let side = 40
        var plane = Plane(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side {
                let i = ((y * image.height / side) * image.width + x * image.width / side) * 4
                plane.values[y * side + x] = Int(image.pixels[i]) - Int(image.pixels[i + 1]) > 100 ? 1 : 0
            }
        }
        return plane
    }
}
