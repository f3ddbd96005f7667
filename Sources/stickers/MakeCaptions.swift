import ArgumentParser
import AtomicFiles
import BoundedConcurrency
import Foundation
import Raster
import StickerApp
import StickerKit

/// `make`'s captions: one for every sticker (`--caption`), and each photo's own, from a sidecar
/// `PHOTO.caption.txt` beside it or a `--captions FILE` (which wins). A caption is drawn on the
/// sticker the batch made (from the processed-photo cache: no network run) when the pack is put
/// together; the cache keeps the uncaptioned sticker, so changing a caption redoes nothing else.
struct MakeCaptionOptions: ParsableArguments {
    @OptionGroup var options: CaptionOptions

    @Option(help: ArgumentHelp("Each photo's own caption: lines 'NAME: TEXT' (NAME: the photo's file name, with or without "
                               + "its extension) or a JSON object of NAME: TEXT. A sidecar PHOTO.caption.txt gives one too.",
                               valueName: "file"))
    var captions: String?

    func validate() throws {
        if let captions, !FileManager.default.isReadableFile(atPath: captions) {
            throw ValidationError("--captions \(captions): no such readable file")
        }
    }

    /// Each file's caption (files without one are left out), every one checked (length, font)
    /// before any photo is processed: a bad one is a usage error (64).
    func captions(for files: [URL]) throws -> [URL: Caption] {
        let listed = try captions.map(Self.readCaptionsFile) ?? [:]
        var result: [URL: Caption] = [:]
        for file in files {
            let name = file.lastPathComponent, stem = file.deletingPathExtension().lastPathComponent
            let sidecar = file.deletingPathExtension().appendingPathExtension("caption.txt")
            let source: String, text: String
            if let given = listed[name] ?? listed[stem] {
                (source, text) = ("--captions \(captions ?? "") (\(name))", given)
            } else if let own = try? String(contentsOf: sidecar, encoding: .utf8) {
                (source, text) = (sidecar.path, own)
            } else if let single = options.caption {
                (source, text) = ("--caption", single)
            } else {
                continue
            }
            let caption = options.caption(text)
            try CaptionOptions.check(caption, source: source)
            result[file] = caption
        }
        return result
    }

    /// NAME → TEXT from a JSON object or from 'NAME: TEXT' lines (blank lines and '#' comments skipped).
    static func readCaptionsFile(_ path: String) throws -> [String: String] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ValidationError("--captions \(path) cannot be read")
        }
        if let object = try? JSONDecoder().decode([String: String].self, from: data) { return object }
        var result: [String: String] = [:]
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw ValidationError("--captions \(path), line \(number + 1): expected 'NAME: TEXT'")
            }
            result[trimmed[..<colon].trimmingCharacters(in: .whitespaces)] =
                trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }
}

enum MakeCaptions {
    /// The captioned stickers' files, in `folder`: for every photo with a caption, its sticker PNG
    /// read back, the caption drawn on it, written anew (the other files stay the cache's). Run
    /// `jobs` at a time.
    @concurrent
    static func render(_ work: [(id: SelectedPhoto.ID, files: StickerFiles, caption: Caption)], in folder: URL,
                       jobs: Int) async throws -> [SelectedPhoto.ID: StickerFiles] {
        guard !work.isEmpty else { return [:] }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try await concurrentMap(work, limit: jobs) { item async throws -> (SelectedPhoto.ID, StickerFiles) in
            let sticker = try ImageDecoder.decode(try Data(contentsOf: item.files.sticker))
            let captioned = try item.caption.apply(to: sticker)
            let url = folder.appending(path: "\(item.id.uuidString).sticker.png")
            try AtomicFileWriter.write(try ImageEncoder.png(captioned), to: url)
            var files = item.files
            files.sticker = url
            return (item.id, files)
        }
        return Dictionary(made, uniquingKeysWith: { first, _ in first })
    }

    /// The pack ZIP as `StickerViewModel.exportPack(to:)` writes it, with the captioned stickers in
    /// place of the cache's.
    @concurrent
    static func writePack(items: [StickerPack.Item], invalid: [StickerPack.InvalidPhoto], to url: URL) async throws {
        try StickerPack(items: items, invalidPhotos: invalid).write(to: url)
    }
}
