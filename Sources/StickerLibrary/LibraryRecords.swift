import Foundation
import GRDB
import StickerKit

/// A photo in the library: which bytes (digest), what it is called, where it came from.
public struct LibraryPhoto: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "photo"

    public enum Origin: String, Codable, Sendable {
        case upload, folder, space
    }

    public var id: UUID
    public var digest: String
    public var name: String
    public var byteCount: Int
    public var origin: Origin
    /// The file it was read from (folder and space photos).
    public var sourcePath: String?
    /// Its copy in the library's content-addressed files (uploads), relative to the files folder.
    public var storedFile: String?
    /// Its place in the selection.
    public var position: Int
    public var addedAt: Date

    public init(id: UUID, digest: String, name: String, byteCount: Int, origin: Origin, sourcePath: String? = nil,
                storedFile: String? = nil, position: Int, addedAt: Date = Date()) {
        self.id = id; self.digest = digest; self.name = name; self.byteCount = byteCount; self.origin = origin
        self.sourcePath = sourcePath; self.storedFile = storedFile; self.position = position; self.addedAt = addedAt
    }
}

/// What a photo became under one processor identity: file references (relative to the library's
/// files folder) and its colours, or why it cannot be used.
public struct LibraryResult: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "result"

    public enum Outcome: String, Codable, Sendable {
        case processed, unusable
    }

    public var photoDigest: String
    public var identity: String
    public var outcome: Outcome
    public var reason: String?
    public var stickerFile: String?
    public var gradientFile: String?
    public var maskFile: String?
    public var colors: [PaletteColor]?
    public var createdAt: Date
    /// The cut-out the sticker is drawn from (what a restyle starts from): the re-cut one when
    /// subjects were chosen. Nil in records made before schema v4.
    public var cutOutFile: String?
    /// The subjects the sticker keeps (0-based ranks), when the person chose; nil: as first made.
    public var chosenSubjects: [Int]?
    /// The sticker's style, when known; nil: as the processor made it.
    public var style: LibraryStyle?
    /// The caption drawn on the sticker, when the person gave one (nil in records before schema v6).
    public var caption: LibraryCaption?
    /// The brush strokes applied to the cut-out (`cutOutFile` and `maskFile` stay unedited).
    public var edits: BrushStrokes?
    /// The point whose closer look chose the cut-out (`[x, y]`), when a click did.
    public var chosenPoint: [Int]?

    public init(photoDigest: String, identity: String, outcome: Outcome, reason: String? = nil, stickerFile: String? = nil,
                gradientFile: String? = nil, maskFile: String? = nil, colors: [PaletteColor]? = nil, createdAt: Date = Date(),
                cutOutFile: String? = nil, chosenSubjects: [Int]? = nil, style: LibraryStyle? = nil,
                caption: LibraryCaption? = nil, edits: BrushStrokes? = nil, chosenPoint: [Int]? = nil) {
        self.photoDigest = photoDigest; self.identity = identity; self.outcome = outcome; self.reason = reason
        self.stickerFile = stickerFile; self.gradientFile = gradientFile; self.maskFile = maskFile
        self.colors = colors; self.createdAt = createdAt
        self.cutOutFile = cutOutFile; self.chosenSubjects = chosenSubjects; self.style = style
        self.caption = caption; self.edits = edits; self.chosenPoint = chosenPoint
    }
}

/// One extracted colour scheme of the history; a favourite when `favoritedAt` is set.
public struct LibraryColorScheme: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "colorScheme"

    public var id: UUID
    public var photoName: String
    public var colors: [PaletteColor]
    public var colorCount: Int
    public var createdAt: Date
    public var favoritedAt: Date?

    public init(id: UUID, photoName: String, colors: [PaletteColor], colorCount: Int, createdAt: Date, favoritedAt: Date? = nil) {
        self.id = id; self.photoName = photoName; self.colors = colors; self.colorCount = colorCount
        self.createdAt = createdAt; self.favoritedAt = favoritedAt
    }
}

/// A space photo the person saved (its file is where it was saved).
public struct SavedSpacePhoto: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "savedSpacePhoto"

    /// The catalog day, `yyyy-MM-dd`.
    public var date: String
    public var title: String
    public var file: String
    public var url: String?
    public var savedAt: Date

    public init(date: String, title: String, file: String, url: String?, savedAt: Date = Date()) {
        self.date = date; self.title = title; self.file = file; self.url = url; self.savedAt = savedAt
    }
}

/// A catalog entry as the API gave it (its JSON), kept for browsing offline later.
public struct CatalogEntryRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "catalogEntry"

    public var date: String
    public var json: String
    public var seenAt: Date

    public init(date: String, json: String, seenAt: Date = Date()) {
        self.date = date; self.json = json; self.seenAt = seenAt
    }
}

/// One of the Space tab's favourite photos: the API's entry as JSON, and its place in the list.
public struct SpaceFavoriteRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "spaceFavorite"

    public var date: String
    public var json: String
    public var position: Int

    public init(date: String, json: String, position: Int) {
        self.date = date; self.json = json; self.position = position
    }
}

/// A pack that was exported: written by `stickers make`, or downloaded from the web app.
public struct ExportedPack: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "pack"

    /// Who made the pack.
    public enum Origin: String, Codable, Sendable {
        /// `stickers make` wrote it to `path`.
        case make
        /// The web app sent it to the browser as a download named `path`.
        case download
    }

    public var id: Int64?
    /// Where `make` wrote it (absolute), or the file name a download was offered as.
    public var path: String
    public var stickerCount: Int
    public var identity: String?
    public var createdAt: Date
    /// `zip`, `whatsapp`, `telegram` or `signal`; nil in records made before schema v5.
    public var format: String?
    public var origin: Origin?
    public var byteCount: Int?
    /// The pack file's `ContentDigest` (hex): which bytes were handed out.
    public var digest: String?
    /// The stickers' names (the photos'), in the pack's order.
    public var stickers: [String]?

    public init(path: String, stickerCount: Int, identity: String?, createdAt: Date = Date(), format: String? = nil,
                origin: Origin? = nil, byteCount: Int? = nil, digest: String? = nil, stickers: [String]? = nil) {
        self.path = path; self.stickerCount = stickerCount; self.identity = identity; self.createdAt = createdAt
        self.format = format; self.origin = origin; self.byteCount = byteCount; self.digest = digest; self.stickers = stickers
    }

    /// The record of a pack whose bytes are `data`: their size and digest.
    public init(bytes data: Data, path: String, format: String, origin: Origin, stickers: [String], identity: String?, createdAt: Date = Date()) {
        self.init(path: path, stickerCount: stickers.count, identity: identity, createdAt: createdAt, format: format, origin: origin,
                  byteCount: data.count, digest: ContentDigest(data).hex, stickers: stickers)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
