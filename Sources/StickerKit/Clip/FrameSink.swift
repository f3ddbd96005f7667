import Foundation
import Raster

/// Where each styled frame goes on the canvas, and how it is encoded out of order (in parallel).
struct CanvasLayout: Sendable {
    /// nil: the frames are kept unencoded.
    let format: AnimatedFormat?
    let width: Int, height: Int
    /// Where the styled frame goes on the canvas, and at what size.
    let placed: (x: Int, y: Int, width: Int, height: Int)

    enum Prepared: Sendable {
        case webpChunks(Data), png(Data), raw(Image)
    }

    init(format: AnimatedFormat?, canvas: CanvasFit, styledSize: (width: Int, height: Int)) {
        self.format = format
        let longer = Double(max(styledSize.width, styledSize.height))
        let scale = canvas.exactSide || canvas.square ? Double(canvas.maximumSide) / longer : min(1, Double(canvas.maximumSide) / longer)
        var w = max(2, Int((Double(styledSize.width) * scale).rounded())), h = max(2, Int((Double(styledSize.height) * scale).rounded()))
        w = min(w, canvas.maximumSide); h = min(h, canvas.maximumSide)
        if case .webm = format { w -= w & 1; h -= h & 1 }  // 4:2:0 needs even sides
        (width, height) = canvas.square ? (canvas.maximumSide, canvas.maximumSide) : (w, h)
        placed = ((width - w) / 2, (height - h) / 2, w, h)
    }

    /// The styled frame on the canvas, encoded as far as can be done out of order.
    func prepare(_ styled: Image) throws -> Prepared {
        var frame = styled.resized(width: placed.width, height: placed.height, filter: .area)
        if placed.width != width || placed.height != height {
            var canvas = Image(width: width, height: height)
            for y in 0..<placed.height {
                let from = y * placed.width * 4, to = ((placed.y + y) * width + placed.x) * 4
                canvas.pixels.replaceSubrange(to..<(to + placed.width * 4), with: frame.pixels[from..<(from + placed.width * 4)])
            }
            frame = canvas
        }
        switch format {
        case .webp(let quality):
            // Method 3, not 4: d02's sticker took ~0.2 s less CPU (4 % of the clip) for 6 % more
            // bytes; d01's bytes are the same (docs/benchmarks.md, issue 34). Packs have their own
            // size targets and encoder settings (`AnimatedStickerFitter`).
            return .webpChunks(try AnimatedWebPWriter.imageChunks(of: WebP.encode(frame, .lossy(quality: quality, method: 3))))
        case .apng: return .png(try ImageEncoder.png(frame))
        case .webm, nil: return .raw(frame)
        }
    }
}

/// The encoder side of the pipeline: adds the prepared frames in order and finishes the file.
struct FrameSink {
    let layout: CanvasLayout
    let output: URL?
    let fps: Double
    /// The frames, when no format was given, and how long each shows.
    private(set) var kept: [Image] = []
    private(set) var keptMilliseconds: [Int] = []
    private var webp: AnimatedWebPWriter?
    private var apng: AnimatedPNGWriter?
    private var webm: WebMEncoder?
    private var elapsedMilliseconds = 0, frames = 0

    /// The rate WebM's frames are written at (each repeated over the ticks it covers).
    let webmFramesPerSecond: Double

    init(format: AnimatedFormat?, output: URL?, canvas: CanvasFit, fps: Double, webmFramesPerSecond: Double? = nil,
         styledSize: (width: Int, height: Int)) throws {
        layout = CanvasLayout(format: format, canvas: canvas, styledSize: styledSize)
        self.output = output
        self.fps = fps
        self.webmFramesPerSecond = webmFramesPerSecond ?? fps
        switch format {
        case .webp: webp = AnimatedWebPWriter(width: layout.width, height: layout.height)
        case .apng: apng = AnimatedPNGWriter(width: layout.width, height: layout.height)
        case .webm(let bitrate):
            guard let output else { break }
            webm = try WebMEncoder(output: output, width: layout.width, height: layout.height, framesPerSecond: self.webmFramesPerSecond, bitrate: bitrate)
        case nil: break
        }
    }

    /// Adds the next frame in order, showing `given` milliseconds (nil: its duration keeps the
    /// running total on the frame rate). WebM's rate is constant: a frame is written as many times
    /// as the ticks it covers (a GIF's long pause repeats one frame; VP9 spends next to nothing on it).
    mutating func add(_ frame: CanvasLayout.Prepared, milliseconds given: Int? = nil) async throws {
        frames += 1
        let end = Int((Double(frames) * 1000 / fps).rounded())
        let milliseconds = max(8, given ?? (end - elapsedMilliseconds))
        elapsedMilliseconds += milliseconds
        switch frame {
        case .webpChunks(let chunks): webp?.add(encodedFrame: chunks, milliseconds: milliseconds)
        case .png(let png): try apng?.add(png: png, milliseconds: milliseconds)
        case .raw(let image):
            if let webm {
                let repeats = FrameDurations.repeats([elapsedMilliseconds - milliseconds, milliseconds], framesPerSecond: webmFramesPerSecond)[1]
                for _ in 0..<repeats { try await webm.add(image) }
            } else {
                kept.append(image)
                keptMilliseconds.append(milliseconds)
            }
        }
    }

    /// Writes the file (WebP, APNG) or lets ffmpeg finish it (WebM); returns its size in bytes.
    mutating func finish() async throws -> Int {
        if let webp, let output {
            let data = webp.data()
            try data.write(to: output)
            return data.count
        }
        if let apng, let output {
            let data = apng.data()
            try data.write(to: output)
            return data.count
        }
        guard let webm, let output else { return 0 }
        try await webm.finish()
        return (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
    }

    func cancel() { webm?.cancel() }

    /// Kills the encoder's ffmpeg (WebM) and awaits its end.
    func stop() async { await webm?.stop() }
}
