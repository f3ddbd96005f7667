import Foundation
import Raster

/// Whether a file is a clip (video, GIF or animated PNG) rather than a photo: its first bytes or, for
/// the containers that carry no fixed magic, its extension. Still images (JPEG, PNG, WebP) are photos.
/// The one test `make`, `sticker` and the web app's uploads share.
public enum ClipDetection {
    public static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "webm", "mkv", "avi", "gif", "mpg", "mpeg",
                                                      "ts", "3gp", "ogv", "wmv", "flv"]

    /// Whether a file at `path` is a clip.
    public static func isClip(path: String) -> Bool {
        // Only a regular file is sniffed: opening a FIFO or a device to read its first bytes would
        // block (or consume them) before the batch and its Ctrl-C handler have started.
        // stat(2), not FileManager's attributes: those also look up the owner's and group's names
        // (nsswitch, /etc/passwd, /etc/group) for every photo of a batch.
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return videoExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        if ImageFormat.sniff(head) == .png {
            return isAnimatedPNG { offset in
                guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return Data() }
                return (try? handle.read(upToCount: 8)) ?? Data()
            }
        }
        return isClip(head: head, name: path)
    }

    /// Whether bytes starting with `head` (an upload's), named `name`, are a clip.
    /// An animated PNG is told by its chunks, read as far as `head` goes (an upload's whole bytes).
    public static func isClip(head: Data, name: String) -> Bool {
        if ImageFormat.sniff(head.prefix(16)) == .png {
            return isAnimatedPNG { offset in
                let start = head.startIndex + offset
                return start < head.endIndex ? head[start..<min(start + 8, head.endIndex)] : Data()
            }
        }
        let head = head.prefix(16)
        if let format = ImageFormat.sniff(head) { return format == .gif }
        let bytes = [UInt8](head)
        if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) { return true }  // MP4, MOV, 3GP
        if bytes.count >= 4, bytes[0..<4].elementsEqual([0x1A, 0x45, 0xDF, 0xA3]) { return true }  // Matroska, WebM
        return videoExtensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased())
    }

    /// Whether `data` is an animated WebP (RIFF `WEBP` with a `VP8X` header whose animation flag
    /// is set): how a recorded animated sticker is told from a still one.
    public static func isAnimatedWebP(_ data: Data) -> Bool { WebP.isAnimated(data) }

    /// The video stream of a clip that is probed, timed and decoded, as a stream specifier: the
    /// first that is not a cover picture (`V`). Named in every call, since ffmpeg left to itself
    /// decodes the largest stream while ffprobe's `v:0` is the first: a file with a small track
    /// first had its size and rate probed from one stream and its frames read from the other.
    public static let videoStream = "V:0"

    /// The arguments that name `clip`'s container to ffmpeg and ffprobe before `-i`, when probing
    /// by name would go wrong: a PNG (an APNG) is read with `-f apng`, else a name holding `%d`
    /// (`spin%d.png`) is taken by the image2 demuxer for a numbered sequence that does not exist.
    public static func inputFormatArguments(_ clip: URL) -> [String] {
        // A regular file only: a FIFO's first bytes would be waited for, then lost to ffmpeg.
        var status = stat()
        guard stat(clip.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: clip.path) else { return [] }
        defer { try? handle.close() }
        return ImageFormat.sniff((try? handle.read(upToCount: 16)) ?? Data()) == .png ? ["-f", "apng"] : []
    }

    /// The decoder ffmpeg must be told to use before `-i` to keep `clip`'s alpha: a WebM whose VP9
    /// or VP8 track says it carries alpha (Matroska's `AlphaMode` 1, as Telegram's video stickers
    /// and our own WebM do) has it in a side stream only libvpx decodes; ffmpeg's own VP9 decoder
    /// drops it, and the sticker would come back opaque.
    public static func inputDecoderArguments(_ clip: URL) -> [String] {
        var status = stat()
        guard stat(clip.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: clip.path) else { return [] }
        defer { try? handle.close() }
        return matroskaAlphaDecoder(head: (try? handle.read(upToCount: 8192)) ?? Data()).map { ["-c:v", $0] } ?? []
    }

    /// Whether `ffmpeg -decoders`' output lists `name` (a line of six flags, the name, its
    /// description); nil when it lists no decoder at all (not such a listing: the name stands).
    static func listsDecoder(_ name: String, in listing: String) -> Bool? {
        let decoders = listing.split(separator: "\n").compactMap { line -> Substring? in
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0].count == 6, words[0].allSatisfy({ "VASFXBDI.".contains($0) }) else { return nil }
            return words[1]
        }
        return decoders.isEmpty ? nil : decoders.contains(Substring(name))
    }

    /// libvpx's decoder for a Matroska head (its first kilobytes: the track entries come before
    /// the clusters) holding a VP9 or VP8 track with `AlphaMode` 1 (element 0x53C0, one byte, 1).
    static func matroskaAlphaDecoder(head: Data) -> String? {
        let bytes = [UInt8](head)
        guard bytes.count >= 4, bytes[0..<4].elementsEqual([0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        func contains(_ pattern: [UInt8]) -> Bool {
            guard bytes.count >= pattern.count else { return false }
            return (0...(bytes.count - pattern.count)).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
        }
        guard contains([0x53, 0xC0, 0x81, 0x01]) else { return nil }
        if contains(Array("V_VP9".utf8)) { return "libvpx-vp9" }
        if contains(Array("V_VP8".utf8)) { return "libvpx" }
        return nil
    }

    /// Whether a PNG is animated (APNG): an `acTL` chunk before its first `IDAT`, as the APNG
    /// specification puts it. `chunkHeader(offset)` gives the 8 bytes (length, type) at `offset`;
    /// only the chunks' headers are read, so a large `iCCP` or `eXIf` before `acTL` costs nothing.
    /// Such a PNG is decoded by ffmpeg as a clip; a viewer without APNG shows its first image.
    static func isAnimatedPNG(chunkHeader: (Int) -> Data) -> Bool {
        var offset = 8
        for _ in 0..<64 {
            let header = [UInt8](chunkHeader(offset))
            guard header.count == 8 else { return false }
            let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            switch String(decoding: header[4..<8], as: UTF8.self) {
            case "acTL": return true
            case "IDAT", "IEND": return false
            default: offset += 12 + length
            }
        }
        return false
    }
}
