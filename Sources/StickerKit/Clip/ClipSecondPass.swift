import Raster

/// A clip's second pass (`ClipStickerMaker`): each used frame cut out along its look in a child
/// task, styled and fitted to the canvas (encoded as far as can be done out of order), a few frames
/// a core under way at once; handed on with its mask in order (`InOrderFrames`). No batches: a core
/// never waits for a batch's slowest frame.
struct ClipSecondPass: Sendable {
    let cutter: ClipSubjectTracker.FrameCutter
    /// Every used frame's look, in order.
    let looks: [ClipSubjectTracker.Look]
    let style: StickerStyle
    let layout: CanvasLayout
    /// The masks' size (the clip's); nil: no masks.
    let maskSize: (width: Int, height: Int)?
    /// Frames under way at once.
    let underWay: Int

    /// Cuts out the frames `next` gives (nil: no more), one for each look, and hands each frame
    /// to show to `shown`, in order, with its mask.
    func run(next: () async throws -> Image?,
             shown: ((frame: CanvasLayout.Prepared, alpha: Mask?)) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: (index: Int, frame: CanvasLayout.Prepared, alpha: Mask?, unplaced: Bool).self) { group in
            var handed = 0
            var order = InOrderFrames<(frame: CanvasLayout.Prepared, alpha: Mask?)>()
            func receive() async throws {
                guard let made = try await group.next() else { return }
                for frame in order.arrive((made.frame, made.alpha), index: made.index, unplaced: made.unplaced) { try await shown(frame) }
            }
            while handed < looks.count, let frame = try await next() {
                try Task.checkCancellation()
                let index = handed, look = looks[index]
                handed += 1
                group.addTask { try await cut(frame, look: look, index: index) }
                while handed - order.settled >= underWay { try await receive() }
            }
            try Task.checkCancellation()
            while order.settled < handed { try await receive() }
            for unplaced in order.finish() { try await shown(unplaced) }
        }
    }

    private func cut(_ frame: Image, look: ClipSubjectTracker.Look, index: Int) async throws
        -> (index: Int, frame: CanvasLayout.Prepared, alpha: Mask?, unplaced: Bool) {
        let cut = await cutter.cut(frame, look: look)
        let alpha = maskSize.map { size in
            cut.alpha.width == size.width && cut.alpha.height == size.height ? cut.alpha : cut.alpha.resized(width: size.width, height: size.height)
        }
        return (index, try layout.prepare(style.apply(to: cut.image)), alpha, cut.unplaced)
    }
}
