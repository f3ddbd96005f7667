import ArgumentParser
import Foundation
import StickerKit

/// `make --for`: a plain ZIP (the default) or a pack a messaging app accepts.
enum PackTarget: String, ExpressibleByArgument, CaseIterable {
    case zip, whatsapp, telegram, signal

    var platform: MessengerPlatform? { MessengerPlatform(rawValue: rawValue) }
}

extension MessengerPack.Failure {
    @MainActor var exitStatus: ExitCode {
        switch self {
        case .tooFewStickers, .encoding: ExitStatus.dataError
        case .webpUnavailable: ExitStatus.unavailable
        case .io: ExitStatus.ioError
        }
    }
}

/// `make --for … --json`: the packs written, each sticker's bytes, quality and scale, and the
/// photos skipped.
struct MessengerMakeReport: Encodable {
    let pack: MessengerPack.Report
    let invalid: [MakeReport.Invalid]
    /// The clips' animated stickers, in packs of their own.
    var animated: AnimatedPack.Report? = nil

    func print(json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Swift.print(String(decoding: try encoder.encode(self), as: UTF8.self))
            return
        }
        for made in pack.packs {
            let bytes = made.stickers.map(\.bytes)
            Swift.print("Wrote \(made.file): \(made.stickers.count) \(pack.platform.displayName) sticker(s), largest \(bytes.max() ?? 0) bytes.")
        }
        for made in animated?.packs ?? [] { Swift.print("Wrote \(made.file): \(made.stickers.count) animated sticker(s).") }
        if !invalid.isEmpty { Swift.print("\(invalid.count) photo(s) skipped.") }
    }
}
