import AtomicFiles
import Foundation
import ZIPFoundation

/// A shareable sticker pack: a ZIP holding, per photo, `NAME.sticker.png` and `NAME.gradient.png`,
/// per clip `NAME.sticker.webp` (its animated sticker, the one the web app's card plays), plus
/// `palettes.json` (each photo's colours) and `manifest.json` (what is inside, and which photos
/// were left out and why).
public struct StickerPack: Sendable {
    /// A PNG (or a clip's animated WebP) in memory, or a file read only while the pack is written
    /// (a batch's packs are assembled from the files its photos were written to as they finished).
    public enum PNG: Sendable, Hashable {
        case data(Data)
        case file(URL)

        func bytes() throws -> Data {
            switch self {
            case .data(let data): data
            case .file(let url): try Data(contentsOf: url)
            }
        }
    }

    public struct Item: Sendable {
        public var name: String
        /// The sticker: a PNG, or a clip's animated WebP (`isAnimated`).
        public var sticker: PNG
        /// The sticker on a gradient of its colours; nil for a clip (it has neither).
        public var gradient: PNG?
        public var colorScheme: PhotoColorScheme
        /// Whether `sticker` is a clip's animated WebP: `NAME.sticker.webp` in the pack.
        public var isAnimated = false

        public init(name: String, stickerPNG: Data, gradientPNG: Data, colorScheme: PhotoColorScheme) {
            self.init(name: name, sticker: .data(stickerPNG), gradient: .data(gradientPNG), colorScheme: colorScheme)
        }

        public init(name: String, sticker: PNG, gradient: PNG, colorScheme: PhotoColorScheme) {
            self.name = name
            self.sticker = sticker
            self.gradient = gradient
            self.colorScheme = colorScheme
        }

        /// A processed photo's files, as the one PNG path wrote them; a processed clip's animated
        /// WebP (`files.isAnimated`: its `gradient` is its first frame, which the pack leaves out).
        public init(name: String, files: StickerFiles) {
            if files.isAnimated {
                self = .animated(name: name, webp: .file(files.sticker))
            } else {
                self.init(name: name, sticker: .file(files.sticker), gradient: .file(files.gradient), colorScheme: files.colorScheme)
            }
        }

        /// A clip's animated sticker (an animated WebP).
        public static func animated(name: String, webp: PNG) -> Item {
            Item(animatedNamed: name, webp: webp)
        }

        private init(animatedNamed name: String, webp: PNG) {
            self.name = name
            self.sticker = webp
            self.gradient = nil
            self.colorScheme = PhotoColorScheme(colors: [])
            self.isAnimated = true
        }

        /// The sticker's entry name in the archive for the entry stem `name`.
        func stickerFileName(_ name: String) -> String {
            isAnimated ? "\(name).sticker.webp" : StickerPNGs.Kind.sticker.fileName(for: name)
        }
    }

    public struct InvalidPhoto: Sendable, Codable, Hashable {
        public var name: String
        public var reason: String
        public init(name: String, reason: String) { self.name = name; self.reason = reason }
    }

    public var items: [Item]
    public var invalidPhotos: [InvalidPhoto]

    public init(items: [Item], invalidPhotos: [InvalidPhoto] = []) {
        self.items = items
        self.invalidPhotos = invalidPhotos
    }

    /// The entry names each item gets in the archive: its name made safe for a file name, with
    /// `-2`, `-3`… added when two photos share a name.
    public var entryNames: [String] { Self.uniqueFileNames(items.map(\.name)) }

    /// `names` made safe for file names and distinct (case-insensitively): `-2`, `-3`… added to
    /// repeats. Every pack (ZIP, messenger) names its entries so.
    public static func uniqueFileNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = safeFileName(name)
            var candidate = base
            var counter = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(base)-\(counter)"
                counter += 1
            }
            used.insert(candidate.lowercased())
            return candidate
        }
    }

    /// Writes the pack as a ZIP at `url`, atomically: an existing file is replaced only when the
    /// new one is complete.
    public func write(to url: URL) throws {
        let names = entryNames
        try AtomicFileWriter.write(to: url) { temporary in
            do {
                let archive = try Archive(url: temporary, accessMode: .create)
                for (item, name) in zip(items, names) {
                    try Task.checkCancellation()
                    // PNGs and WebPs are already compressed: storing them again compressed only costs time.
                    try archive.add(item.stickerFileName(name), try item.sticker.bytes(), compressed: false)
                    if let gradient = item.gradient {
                        try archive.add(StickerPNGs.Kind.gradient.fileName(for: name), try gradient.bytes(), compressed: false)
                    }
                }
                try archive.add("palettes.json", try palettesJSON(names: names), compressed: true)
                try archive.add("manifest.json", try manifestJSON(names: names), compressed: true)
            } catch {
                throw AtomicFileWriter.diagnose(error, writing: temporary)
            }
        }
    }

    func palettesJSON(names: [String]) throws -> Data {
        struct Color: Encodable { let hex: String; let weight: Double }
        struct Photo: Encodable { let name: String; let colors: [Color] }
        struct Palettes: Encodable { let photos: [Photo] }
        // A clip has no colours: the palettes are the photos'.
        let photos = zip(items, names).filter { !$0.0.isAnimated }.map { item, name in
            Photo(name: name, colors: zip(item.colorScheme.colors, item.colorScheme.jsonWeights).map { Color(hex: $0.hex, weight: $1) })
        }
        return try Self.encoder.encode(Palettes(photos: photos))
    }

    func manifestJSON(names: [String]) throws -> Data {
        /// `gradient` and `animated` are absent for a photo's sticker and a clip's respectively,
        /// so a pack of photos alone is what it always was.
        struct Entry: Encodable {
            let name: String
            let sticker: String
            let gradient: String?
            let colors: [String]
            let animated: Bool?
        }
        struct Manifest: Encodable {
            let format = "stickers-pack"
            let version = 1
            let stickers: [Entry]
            let invalid: [InvalidPhoto]
        }
        let entries = zip(items, names).map { item, name in
            Entry(name: name, sticker: item.stickerFileName(name),
                  gradient: item.gradient == nil ? nil : StickerPNGs.Kind.gradient.fileName(for: name),
                  colors: item.colorScheme.colors.map(\.hex), animated: item.isAnimated ? true : nil)
        }
        return try Self.encoder.encode(Manifest(stickers: entries, invalid: invalidPhotos))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func safeFileName(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            if CharacterSet.alphanumerics.contains(scalar) || "-_ .".unicodeScalars.contains(scalar) {
                return Character(scalar)
            }
            return "_"
        }
        let trimmed = String(allowed).trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        return trimmed.isEmpty ? "photo" : String(trimmed.prefix(100))
    }
}

extension Archive {
    /// The entries' modification time: now, or `SOURCE_DATE_EPOCH` (seconds since 1970) when set,
    /// the reproducible-builds convention, so the same photos and settings give the same bytes.
    static func entryDate() -> Date {
        guard let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = TimeInterval(text) else { return Date() }
        return Date(timeIntervalSince1970: seconds)
    }

    func add(_ path: String, _ data: Data, compressed: Bool) throws {
        try addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: Self.entryDate(),
                     compressionMethod: compressed ? .deflate : .none) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}
