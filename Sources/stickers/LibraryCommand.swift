import ArgumentParser
import Foundation
import StickerApp
import StickerLibrary

/// `stickers library packs`: what the library records (for now, the packs handed out: written
/// by `make`, downloaded from the web app).
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Show what the library records.",
        discussion: """
            The library is kept under $\(StickerPaths.dataVariable), else $XDG_DATA_HOME/stickers \
            (default ~/.local/share/stickers).
            """,
        subcommands: [Packs.self]
    )

    struct Packs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "packs",
            abstract: "List the packs made, newest first: written by make or downloaded from the web app.")

        @Option(help: ArgumentHelp("The library's folder.", valueName: "DIR"))
        var dataDir: String?

        @Flag(help: "Print JSON: {\"packs\":[{\"path\":…,\"format\":…,\"origin\":…,\"stickers\":[…],\"bytes\":N,\"digest\":…,\"createdAt\":…}, …]}.")
        var json = false

        @MainActor func run() async throws {
            let packs: [ExportedPack]
            do {
                packs = try await StickerLibrary(folder: StickerPaths.dataDirectory(explicit: dataDir)).packs()
            } catch {
                throw fail("\(error)", ExitStatus.ioError)
            }
            if json {
                try print(PacksReport(packs).json())
                return
            }
            if packs.isEmpty { print("No packs recorded yet.") }
            let dates = ISO8601DateFormatter()
            for pack in packs {
                let size = pack.byteCount.map { String(format: ", %.1f MB", Double($0) / 1_048_576) } ?? ""
                let how = pack.origin == .download ? "downloaded" : "written"
                print("\(dates.string(from: pack.createdAt))  \(pack.format ?? "zip")  \(pack.path): "
                      + "\(pack.stickerCount) sticker(s)\(size), \(how)")
            }
        }
    }
}

/// `library packs --json` (stable: scripts read it).
struct PacksReport: Encodable {
    struct Pack: Encodable {
        let path: String
        let format: String?
        let origin: String?
        let stickerCount: Int
        let stickers: [String]?
        let bytes: Int?
        let digest: String?
        let createdAt: Date
    }

    let packs: [Pack]

    init(_ packs: [ExportedPack]) {
        self.packs = packs.map {
            Pack(path: $0.path, format: $0.format, origin: $0.origin?.rawValue, stickerCount: $0.stickerCount, stickers: $0.stickers,
                 bytes: $0.byteCount, digest: $0.digest, createdAt: $0.createdAt)
        }
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
