import Foundation
import StickerKit

/// The sticker editor of the Stickers tab: brush strokes, a caption, a click on the photo. Each
/// change is a new variant of the photo drawn from its kept cut-out (no network, except a closer
/// look at a point the first look missed), recorded in the library like a restyle.
extension StickersService {
    /// The brush strokes applied to a processed photo's cut-out; nil: none.
    public func edits(_ id: SelectedPhoto.ID) throws(ServiceError) -> BrushStrokes? {
        try processedFiles(id).edits
    }

    /// Applies `strokes` to the photo's kept cut-out, replacing those applied before (an empty
    /// list: the cut-out unedited). Beyond a limit, or painted at another shape: `.invalidRequest`.
    public func setEdits(_ id: SelectedPhoto.ID, _ strokes: BrushStrokes) async throws(ServiceError) {
        try refuseClip(id)
        if !strokes.isEmpty {
            do { try strokes.validate() } catch { throw .invalidRequest("the brush strokes cannot be used: \(error)") }
        }
        try await makeVariant(of: id, "edited") { model throws(VariantError) in
            try await model.edit(id, strokes: strokes.isEmpty ? nil : strokes)
        }
    }

    /// Draws `caption` on the photo's sticker (nil, or only spaces: no caption). Too long: `.invalidRequest`.
    public func setCaption(_ id: SelectedPhoto.ID, _ caption: Caption?) async throws(ServiceError) {
        try refuseClip(id)
        let caption = caption.flatMap { $0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        if let caption {
            guard caption.fontPath == nil else { throw .invalidRequest("a caption from the web app uses the default font") }
            do { try caption.validate() } catch { throw .invalidRequest(error.description) }
        }
        try await makeVariant(of: id, "captioned") { model throws(VariantError) in try await model.setCaption(id, caption) }
    }

    /// Cuts out the subject under pixel (`x`, `y`) of the photo (in the processed photo's pixels,
    /// as its subjects are given), as `stickers sticker --point` does: a large kept subject re-cut
    /// (no network), a small one or one the first look missed looked at closer (the network again,
    /// off the main actor; one closer look at a time).
    public func chooseSubject(_ id: SelectedPhoto.ID, atX x: Int, y: Int) async throws(ServiceError) {
        try refuseClip(id)
        let finder = model.cache.subjectFinder
        try await makeVariant(of: id, "cut out at that point") { model throws(VariantError) in
            try await model.chooseSubject(id, atX: x, y: y, finder: finder)
        }
    }

    /// A clip's animated sticker is not edited here: its subject is followed frame by frame, and
    /// strokes, a caption or a click are of one picture (`.unusable`).
    private func refuseClip(_ id: SelectedPhoto.ID) throws(ServiceError) {
        let files = try processedFiles(id)
        if files.isAnimated {
            throw .unusable("\(try photo(id).name) is a clip: the editor's strokes, caption and click are for a photo's sticker")
        }
    }

    /// The processed photo's current files (`.notReady` when it is not processed).
    func processedFiles(_ id: SelectedPhoto.ID) throws(ServiceError) -> StickerFiles {
        let photo = try photo(id)
        guard let files = model.state(of: id).files else { throw .notReady("\(photo.name) is not processed yet") }
        return files
    }
}
