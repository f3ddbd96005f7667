import ErrorReasons
import Foundation
import StickerKit

/// The animated packs of the Stickers tab: its clips' stickers fitted to a messaging app's rules
/// (Telegram: WebM video stickers; WhatsApp: animated WebP, in packs of their own since WhatsApp
/// cannot mix animated and still stickers; Signal: APNG), or a plain ZIP of animated WebPs,
/// through StickerKit's `AnimatedPack` as `stickers make` writes them. Each fitted sticker is
/// cached by the clip's digest, the rules and the style, so a second download does no work.
extension StickersService {
    /// One clip to pack: where its bytes are and the style it is shown in.
    nonisolated struct AnimatedPackItem: Sendable {
        var photo: SelectedPhoto
        var data: Data
        var style: StickerStyle?
    }

    /// A processed clip's animated sticker (an animated WebP, looping), as the page shows it.
    public func animatedSticker(_ id: SelectedPhoto.ID) async throws(ServiceError) -> Data {
        let (photo, files) = try files(of: id)
        guard files.isAnimated else { throw .notFound("\(photo.name) is a photo: its sticker is a still (sticker.png)") }
        do {
            return try await Self.read(files.sticker)
        } catch {
            throw .unusable("\(photo.name)'s animated sticker cannot be read: \(ErrorReason.of(error))")
        }
    }

    /// The animated pack of every processed clip, in selection order, for `platform` (nil: a
    /// plain ZIP of animated WebPs), recorded in the library. More than one pack holds is refused.
    public func animatedPack(for platform: MessengerPlatform?) async throws(ServiceError) -> PackDownload {
        guard let clipStickers = model.clipStickers else { throw .notReady("clips cannot be made into stickers here") }
        var items: [AnimatedPackItem] = []
        for photo in model.selection {
            guard let files = model.state(of: photo.id).files, files.isAnimated else { continue }
            guard let data = await model.loadPhoto(photo) else { continue }
            items.append(AnimatedPackItem(photo: photo, data: data, style: files.style))
        }
        guard !items.isEmpty else { throw .notReady("no animated stickers yet: add a clip and process it") }
        if let platform {
            let limits = platform.rules.stickersPerPack
            guard items.count <= limits.upperBound else {
                throw .unusable("a \(platform.displayName) pack holds at most \(limits.upperBound) stickers and \(items.count) clips "
                                + "are processed: remove some, or use `stickers make --for \(platform.rawValue)`")
            }
            guard items.count >= limits.lowerBound else {
                throw .unusable("a \(platform.displayName) pack needs at least \(limits.lowerBound) animated stickers "
                                + "and \(items.count) clip(s) are processed: add more clips")
            }
        }
        let ext = platform?.rules.fileExtension ?? "zip"
        let fileName = "stickers-animated.\(ext)"
        let data = try await packFolders.build(fileName) { url in
            // `AnimatedPack` names its file after the pack's: STEM-animated.EXT.
            try await Self.writeAnimatedPack(items, stickers: clipStickers, platform: platform,
                                             output: url.deletingLastPathComponent().appending(path: "stickers.\(ext)"))
        }
        await recordDownload(data, fileName: fileName, format: (platform?.rawValue ?? "zip") + "-animated",
                             stickers: items.map(\.photo.name))
        return PackDownload(data: data, fileName: fileName)
    }

    @concurrent private static func writeAnimatedPack(_ items: [AnimatedPackItem], stickers: ClipStickers,
                                                      platform: MessengerPlatform?, output: URL) async throws {
        let rules = ClipStickers.rules(for: platform)
        var inputs: [AnimatedPack.Input] = []
        for item in items {
            let (clip, temporary) = try StickerViewModel.clipFile(item.photo, data: item.data, scratch: stickers.scratch)
            defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
            let made: ClipStickers.Made
            do {
                made = try await stickers.sticker(clip: clip, rules: rules, style: item.style ?? StickerStyle())
            } catch let error as ClipError {
                throw ServiceError.unusable("\(item.photo.name) cannot be packed: \(error)")
            }
            inputs.append(.init(name: item.photo.name, sticker: made.sticker, firstFrame: made.firstFrame, cached: made.cached))
        }
        do {
            _ = try AnimatedPack.write(inputs, platform: platform, title: "Stickers (animated)", author: "Stickers",
                                       emoji: nil, output: output)
        } catch {
            throw ServiceError.unusable(error.reason)
        }
    }
}
