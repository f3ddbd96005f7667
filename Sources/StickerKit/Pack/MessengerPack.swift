import AtomicFiles
import BoundedConcurrency
import ErrorReasons
import Foundation
import Raster
import ZIPFoundation

/// Sticker packs that WhatsApp, Telegram and Signal accept, made from cut-out stickers.
///
/// WhatsApp: `.wastickers` files (a ZIP: `title.txt`, `author.txt`, `tray.png` 96×96, one 512×512
/// WebP per sticker), 3…30 stickers each: more stickers make several packs, `OUT-1.wastickers`,
/// `OUT-2.wastickers`…, of even sizes. Telegram and Signal: a ZIP of WebP stickers (the longer
/// side 512) with `manifest.json` naming each sticker's emoji (Telegram also `thumbnail.png`,
/// 100×100); more than a set holds splits the same way. Every sticker is fitted under the
/// platform's byte limit by `StickerSizeFitter`. All files are written or none.
public enum MessengerPack {
    /// A sticker to pack: its name (from the photo) and the cut-out as drawn.
    /// One sticker to fit: its pixels, or the PNG file a batch wrote (decoded only when its turn
    /// comes, so a pack of many stickers never holds them all).
    public struct Input: Sendable {
        public enum Source: Sendable { case image(Image), file(URL) }
        public var name: String
        public var source: Source
        public init(name: String, image: Image) { self.name = name; self.source = .image(image) }
        public init(name: String, file: URL) { self.name = name; self.source = .file(file) }

        func image() throws(Failure) -> Image {
            switch source {
            case .image(let image): return image
            case .file(let url):
                let data: Data
                do { data = try Data(contentsOf: url) } catch {
                    throw .io(path: url.path, reason: ErrorReason.of(error))
                }
                do { return try ImageDecoder.decode(data) } catch {
                    throw .encoding(name: name, reason: "its sticker file \(url.lastPathComponent) cannot be read: \(error.reason)")
                }
            }
        }
    }

    public struct Options: Sendable {
        public var platform: MessengerPlatform
        public var title: String
        public var author: String
        /// One emoji for every sticker; nil: each its own suggestion (`StickerEmoji.suggested`).
        public var emoji: String?
        /// Stickers encoded at once.
        public var concurrency: Int

        public init(platform: MessengerPlatform, title: String, author: String, emoji: String? = nil, concurrency: Int = 1) {
            self.platform = platform
            self.title = title
            self.author = author
            self.emoji = emoji
            self.concurrency = max(1, concurrency)
        }
    }

    /// What was written, per pack and per sticker (the CLI's `--json`).
    public struct Report: Sendable, Codable, Hashable {
        public struct Sticker: Sendable, Codable, Hashable {
            public var name: String
            public var file: String
            public var emoji: String
            public var width: Int
            public var height: Int
            public var bytes: Int
            /// "lossless" or "lossy".
            public var encoding: String
            /// The lossy quality, nil when lossless.
            public var quality: Int?
            public var scale: Double
            /// Wall time of drawing and fitting this sticker, and the CPU time of it (one thread:
            /// the part a busy machine cannot inflate by taking the core away).
            public var milliseconds: Double
            public var cpuMilliseconds: Double
        }
        public struct Pack: Sendable, Codable, Hashable {
            public var file: String
            public var title: String
            public var stickers: [Sticker]
        }
        public var platform: MessengerPlatform
        public var packs: [Pack]
    }

    public enum Failure: Error, Sendable, Equatable {
        /// Fewer stickers than a pack must hold (WhatsApp: 3).
        case tooFewStickers(count: Int, minimum: Int, platform: MessengerPlatform)
        /// libwebp cannot be used.
        case webpUnavailable(String)
        case encoding(name: String, reason: String)
        /// Writing failed: the file and the cause in words.
        case io(path: String, reason: String)
    }

    /// Fails early, before any photo is processed, when the pack cannot be made at all: libwebp
    /// missing, or OUT's folder not writable.
    public static func preflight(output: URL) throws(Failure) {
        do { try WebP.checkAvailable() } catch {
            if case .codecUnavailable(let reason) = error { throw .webpUnavailable(reason) }
            throw .webpUnavailable(error.reason)
        }
        let folder = output.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        // access(2) gives the cause: "no such file", "permission denied", "read-only file system".
        if let refusal = AtomicFileWriter.writeRefusal(output.deletingLastPathComponent()) {
            throw .io(path: output.path, reason: "\(ErrorReason.of(refusal)) (\(folder))")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .io(path: output.path, reason: "not a folder: \(folder)")
        }
    }

    /// The files the packs go to: OUT itself for one pack, else OUT-1.EXT, OUT-2.EXT… beside it.
    public static func outputFiles(for output: URL, packCount: Int) -> [URL] {
        guard packCount > 1 else { return [output] }
        let folder = output.deletingLastPathComponent()
        let stem = output.deletingPathExtension().lastPathComponent
        let ext = output.pathExtension
        return (1...packCount).map { index in
            folder.appending(path: ext.isEmpty ? "\(stem)-\(index)" : "\(stem)-\(index).\(ext)")
        }
    }

    /// How many stickers go in each pack: as few packs as the maximum allows, sizes as even as can be.
    public static func packSizes(count: Int, limits: ClosedRange<Int>) -> [Int] {
        guard count > 0 else { return [] }
        let packs = (count + limits.upperBound - 1) / limits.upperBound
        return (0..<packs).map { count / packs + ($0 < count % packs ? 1 : 0) }
    }

    /// Encodes every sticker to fit and writes the pack(s).
    @concurrent
    public static func make(_ inputs: [Input], options: Options, output: URL,
                            warn: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        let rules = options.platform.rules
        guard inputs.count >= rules.stickersPerPack.lowerBound else {
            throw Failure.tooFewStickers(count: inputs.count, minimum: rules.stickersPerPack.lowerBound, platform: options.platform)
        }
        try preflight(output: output)
        let fitted = try await fitAll(inputs, rules: rules, concurrency: options.concurrency)
        for (input, sticker) in zip(inputs, fitted.map(\.sticker)) where !sticker.isLossless {
            if let quality = sticker.quality, quality < StickerSizeFitter.visibleQualityThreshold || sticker.scale < 1 {
                warn("\(input.name): WebP quality \(quality)\(sticker.scale < 1 ? ", subject shrunk to \(Int(sticker.scale * 100)) %" : "") to fit \(options.platform.displayName)'s \(rules.maxStickerBytes / 1024) KB limit (\(sticker.bytes) bytes)")
            }
        }

        let files = StickerPack.uniqueFileNames(inputs.map(\.name)).map { "\($0).webp" }
        let emoji = inputs.map { options.emoji ?? StickerEmoji.suggested(forName: $0.name) }
        let sizes = packSizes(count: inputs.count, limits: rules.stickersPerPack)
        let urls = outputFiles(for: output, packCount: sizes.count)
        var report = Report(platform: options.platform, packs: [])
        var archives: [(URL, [(String, Data)])] = []
        var start = 0
        for (index, size) in sizes.enumerated() {
            let range = start..<(start + size)
            start += size
            let title = sizes.count > 1 ? "\(options.title) (\(index + 1)/\(sizes.count))" : options.title
            var entries: [(String, Data)] = []
            var stickers: [Report.Sticker] = []
            for i in range {
                entries.append((files[i], fitted[i].sticker.webp))
                let sticker = fitted[i].sticker
                stickers.append(.init(name: inputs[i].name, file: files[i], emoji: emoji[i], width: sticker.width,
                                      height: sticker.height, bytes: sticker.bytes,
                                      encoding: sticker.isLossless ? "lossless" : "lossy", quality: sticker.quality,
                                      scale: sticker.scale, milliseconds: fitted[i].milliseconds,
                                      cpuMilliseconds: fitted[i].cpuMilliseconds))
            }
            entries += try packFiles(platform: options.platform, title: title, author: options.author,
                                     first: try inputs[range.lowerBound].image(), stickers: stickers)
            archives.append((urls[index], entries))
            report.packs.append(.init(file: urls[index].path, title: title, stickers: stickers))
        }
        try writeAll(archives)
        return report
    }

    // MARK: - Encoding

    struct Fitted: Sendable { var sticker: FittedSticker; var milliseconds: Double; var cpuMilliseconds: Double }

    /// Every input fitted, `concurrency` at a time (BoundedConcurrency's window), in order. A
    /// cancellation starts no further sticker and is thrown once the running ones end.
    private static func fitAll(_ inputs: [Input], rules: MessengerPlatform.Rules, concurrency: Int) async throws -> [Fitted] {
        try await concurrentMap(inputs, limit: concurrency) { input throws in
            try Task.checkCancellation()
            return try fit(input, rules: rules)
        }
    }

    /// One sticker on its canvas, fitted under the byte limit.
    static func fit(_ input: Input, rules: MessengerPlatform.Rules) throws(Failure) -> Fitted {
        let clock = ContinuousClock()
        let started = clock.now, startedCPU = threadCPUMilliseconds()
        let sticker = try fit(try input.image(), rules: rules, name: input.name)
        return Fitted(sticker: sticker, milliseconds: (clock.now - started) / .milliseconds(1),
                      cpuMilliseconds: threadCPUMilliseconds() - startedCPU)
    }

    /// `image` drawn on `platform`'s canvas (subject fitted inside the margin) and encoded under
    /// its byte limit.
    public static func fit(_ image: Image, for platform: MessengerPlatform) throws(Failure) -> FittedSticker {
        try fit(image, rules: platform.rules, name: "sticker")
    }

    private static func fit(_ image: Image, rules: MessengerPlatform.Rules, name: String) throws(Failure) -> FittedSticker {
        let canvas = StickerCanvas(rules: rules, contentWidth: image.width, contentHeight: image.height)
        do {
            return try StickerSizeFitter.fit(limit: rules.maxStickerBytes) { scale in canvas.draw(image, scale: scale) }
        } catch {
            switch error {
            case .codec(.codecUnavailable(let reason)): throw .webpUnavailable(reason)
            case .codec(let codec): throw .encoding(name: name, reason: codec.reason)
            case .cannotFit(let limit, let smallest):
                throw .encoding(name: name, reason: "cannot fit under \(limit) bytes (smallest \(smallest) bytes)")
            }
        }
    }

    /// This thread's CPU time; `fit` is synchronous, so it runs on one thread from start to end.
    private static func threadCPUMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1e6
    }

    // MARK: - Pack files

    static func packFiles(platform: MessengerPlatform, title: String, author: String, first: Image,
                                  stickers: [Report.Sticker]) throws(Failure) -> [(String, Data)] {
        let rules = platform.rules
        func icon(_ name: String) throws(Failure) -> (String, Data) {
            let side = rules.iconSide ?? 96
            let canvas = StickerCanvas(squareSide: side, margin: max(1, side / 32), contentWidth: first.width, contentHeight: first.height)
            do {
                let png = try ImageEncoder.png(canvas.draw(first, scale: 1))
                guard png.count <= rules.maxIconBytes else {
                    throw Failure.encoding(name: name, reason: "the \(side)×\(side) icon is \(png.count) bytes, over \(rules.maxIconBytes)")
                }
                return (name, png)
            } catch let error as Failure { throw error } catch {
                throw .encoding(name: name, reason: "\(error)")
            }
        }
        func json(_ value: some Encodable) throws(Failure) -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do { return try encoder.encode(value) } catch { throw .encoding(name: "manifest.json", reason: "\(error)") }
        }
        switch platform {
        case .whatsapp:
            // Name and publisher: at most 128 characters each in WhatsApp's sticker-pack format.
            return [("title.txt", Data(String(title.prefix(128)).utf8)), ("author.txt", Data(String(author.prefix(128)).utf8)),
                    try icon("tray.png")]
        case .telegram:
            struct Entry: Encodable { let file: String; let emoji: [String] }
            struct Manifest: Encodable {
                let platform = "telegram"; let title: String; let author: String; let thumbnail: String; let stickers: [Entry]
            }
            let manifest = Manifest(title: title, author: author, thumbnail: "thumbnail.png",
                                    stickers: stickers.map { Entry(file: $0.file, emoji: [$0.emoji]) })
            return [try icon("thumbnail.png"), ("manifest.json", try json(manifest))]
        case .signal:
            struct Entry: Encodable { let file: String; let emoji: String }
            struct Manifest: Encodable {
                let platform = "signal"; let title: String; let author: String; let cover: String; let stickers: [Entry]
            }
            let manifest = Manifest(title: title, author: author, cover: stickers[0].file,
                                    stickers: stickers.map { Entry(file: $0.file, emoji: $0.emoji) })
            return [("manifest.json", try json(manifest))]
        }
    }

    // MARK: - Writing, all or nothing

    /// Each archive to a hidden temporary file beside its target; only when all are complete are
    /// they renamed into place. On any failure every temporary (and any already renamed) file is removed.
    static func writeAll(_ archives: [(URL, [(String, Data)])]) throws(Failure) {
        var temporaries: [(temporary: URL, target: URL)] = []
        var placed: [URL] = []
        do {
            for (target, entries) in archives {
                AtomicFileWriter.removeLeftovers(in: target.deletingLastPathComponent())
                let temporary = AtomicFileWriter.temporaryURL(for: target)
                temporaries.append((temporary, target))
                do {
                    let archive = try Archive(url: temporary, accessMode: .create)
                    for (name, data) in entries {
                        try Task.checkCancellation()
                        // WebP and PNG are compressed already; the text files are a few bytes.
                        // Dated as the ZIP packs are (SOURCE_DATE_EPOCH when set): the same stickers, the same bytes.
                        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count),
                                             modificationDate: Archive.entryDate(), compressionMethod: .none) { position, size in
                            data.subdata(in: Int(position)..<Int(position) + size)
                        }
                    }
                } catch is CancellationError {
                    throw Failure.io(path: target.path, reason: "interrupted")
                } catch {
                    throw Failure.io(path: target.path, reason: writeFailureReason(error, folder: target.deletingLastPathComponent(),
                                                                                    needed: entries.reduce(0) { $0 + $1.1.count }))
                }
            }
            for (temporary, target) in temporaries {
                guard rename(temporary.path, target.path) == 0 else {
                    throw Failure.io(path: target.path, reason: ErrorReason.words(for: errno))
                }
                placed.append(target)
            }
        } catch let failure as Failure {
            for (temporary, _) in temporaries { try? FileManager.default.removeItem(at: temporary) }
            for target in placed { try? FileManager.default.removeItem(at: target) }
            throw failure
        } catch {
            throw .io(path: archives.first?.0.path ?? "", reason: "\(error)")
        }
    }
}

extension MessengerPack {
    /// ZIPFoundation reports a full disk as "Data.DataError error 1": when the folder has less
    /// room than the archive needs, say that instead.
    static func writeFailureReason(_ error: any Error, folder: URL, needed: Int) -> String {
        guard let cause = AtomicFileWriter.unwritableCause(folder, needing: needed) else { return ErrorReason.of(error) }
        if cause.code == .ENOSPC, let free = AtomicFileWriter.freeBytes(folder) {
            return "\(ErrorReason.words(for: ENOSPC)) (the pack needs about \(needed / 1024 + 1) KB, \(free / 1024) KB free)"
        }
        return ErrorReason.of(cause)
    }
}

extension MessengerPack.Failure {
    /// In words, for the person who asked for the pack.
    public var reason: String {
        switch self {
        case .tooFewStickers(let count, let minimum, let platform):
            "a \(platform.displayName) pack needs at least \(minimum) stickers, and only \(count) photo(s) could be made into one"
        case .webpUnavailable(let reason): reason
        case .encoding(let name, let reason): "\(name): \(reason)"
        case .io(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}

/// Where a sticker goes on a platform's canvas: scaled to fit inside the margin, centred.
struct StickerCanvas {
    private(set) var width: Int
    private(set) var height: Int
    /// The subject's size at scale 1.
    let fullWidth: Int
    let fullHeight: Int

    init(rules: MessengerPlatform.Rules, contentWidth: Int, contentHeight: Int) {
        self.init(squareSide: rules.canvasSide, margin: rules.margin, contentWidth: contentWidth, contentHeight: contentHeight)
        if !rules.squareCanvas {
            // The canvas hugs the subject: the longer side exactly the canvas side, the other in proportion.
            width = contentWidth >= contentHeight ? rules.canvasSide : fullWidth + 2 * rules.margin
            height = contentHeight > contentWidth ? rules.canvasSide : fullHeight + 2 * rules.margin
        }
    }

    init(squareSide: Int, margin: Int, contentWidth: Int, contentHeight: Int) {
        let box = squareSide - 2 * margin
        let factor = Double(box) / Double(max(contentWidth, contentHeight, 1))
        width = squareSide
        height = squareSide
        fullWidth = max(1, min(box, Int((Double(contentWidth) * factor).rounded())))
        fullHeight = max(1, min(box, Int((Double(contentHeight) * factor).rounded())))
    }

    /// The sticker resized to `scale` × its full fit, centred on a transparent canvas.
    func draw(_ sticker: Image, scale: Double) -> Image {
        let w = max(1, Int((Double(fullWidth) * scale).rounded()))
        let h = max(1, Int((Double(fullHeight) * scale).rounded()))
        let content: Image
        if w == sticker.width && h == sticker.height {
            content = sticker
        } else if w <= sticker.width && h <= sticker.height {
            content = sticker.downsampled(width: w, height: h)  // area average: no aliasing from large photos
        } else {
            content = sticker.resized(width: w, height: h)
        }
        var canvas = Image(width: width, height: height)
        let left = (width - w) / 2, top = (height - h) / 2
        canvas.pixels.withUnsafeMutableBufferPointer { target in
            content.pixels.withUnsafeBufferPointer { source in
                for y in 0..<h {
                    let from = y * w * 4, to = ((top + y) * width + left) * 4
                    for i in 0..<(w * 4) { target[to + i] = source[from + i] }
                }
            }
        }
        return canvas
    }
}
