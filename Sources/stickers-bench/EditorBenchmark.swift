import Foundation
import Raster
import StickerKit

/// The editor's costs on a processed 2 MP photo, against processing it again: a caption drawn on
/// the styled sticker (short and long), and erase/restore strokes applied to the kept cut-out and
/// styled again. None of them runs the network.
///
/// The photo is `STICKERS_BENCH_PHOTO` if set, else the synthetic scene of the `sticker` suite,
/// reduced to 2 MP either way.
let editorSuite = BenchmarkSuite(name: "editor", summary: "captions and erase/restore on a processed 2 MP photo") {
    let jpeg = try StickerBench.photo()
    let full = try ImageDecoder.decode(jpeg)
    let scale = (2_000_000 / Double(full.pixelCount)).squareRoot()
    let photo = full.downsampled(width: Int(Double(full.width) * scale), height: Int(Double(full.height) * scale))
    let predictor = try await CutOutModel.load(threads: min(2, ProcessInfo.processInfo.activeProcessorCount))
    let extractor = SubjectExtractor(predictor: predictor)
    let sticker = try await extractor.extractSubject(from: photo)
    guard let cut = sticker.cutOut else { print("  failed: the sticker kept no cut-out"); return }
    print("  photo \(photo.width)×\(photo.height), sticker \(sticker.image.width)×\(sticker.image.height)")

    let process = try await measure("process the photo again (network and all)", iterations: 3) {
        _ = try await extractor.extractSubject(from: photo)
    }
    let short = Caption(text: "GOOD MORNING")
    let long = Caption(text: String(repeating: "when the coffee finally kicks in ", count: 6), position: .top)
    let shortTiming = try await measure("caption: short (12 characters)", iterations: 10) { _ = try short.apply(to: sticker.image) }
    let longTiming = try await measure("caption: long (\(long.text.count) characters)", iterations: 10) { _ = try long.apply(to: sticker.image) }
    let fitted = sticker.image.downsampled(toFit: 512)
    _ = try await measure("caption: short, on a 512 px sticker", iterations: 10) { _ = try short.apply(to: fitted) }

    // A brush stroke across the subject's middle (erase) and a block of background (restore).
    var erase = Mask(width: photo.width, height: photo.height), restore = erase
    let midY = cut.originY + cut.image.height / 2, thickness = max(8, photo.height / 30)
    for y in max(0, midY - thickness)..<min(photo.height, midY + thickness) {
        for x in cut.originX..<(cut.originX + cut.image.width) { erase.values[y * photo.width + x] = 255 }
    }
    for y in 0..<(photo.height / 6) { for x in 0..<(photo.width / 6) { restore.values[y * photo.width + x] = 255 } }
    let edits = CutOutEdits(erase: erase, restore: restore)
    let editTiming = try await measure("erase + restore, styled again", iterations: 10) {
        _ = try await sticker.edited(edits, photo: photo)
    }
    _ = try await measure("erase + restore, the cut-out alone", iterations: 10) { _ = try edits.apply(to: cut, photo: photo) }
    printRatio("re-processing vs short caption", baseline: process, candidate: shortTiming)
    printRatio("re-processing vs long caption", baseline: process, candidate: longTiming)
    printRatio("re-processing vs erase + restore", baseline: process, candidate: editTiming)
}
