import Foundation
import Raster
import StickerKit
import StickerLibrary
import Testing
import TestSupport
@testable import StickerApp

/// A processor of real (small) photos: the subject is the 20×20 square at (10, 5) of a 40×30 PNG,
/// cut out with its own pixels; no outline (the plain style: 2 px of padding around the cut-out).
/// Counts its calls. Its closer look at a point finds the 8×8 square around the point.
nonisolated final class SquareProcessor: PhotoProcessing, SubjectFinding {
    private let callCount = Locked(0)
    private let lookCount = Locked(0)
    /// While true, a closer look waits (a test decides when it ends).
    let holdLooks = Locked(false)
    let outputIdentity = "square-1"
    var calls: Int { callCount.withLock { $0 } }
    var looks: Int { lookCount.withLock { $0 } }

    static let width = 40, height = 30
    static let square = Mask.Bounds(x: 10, y: 5, width: 20, height: 20)

    /// The photo: grey, the subject's square red with a blue right half.
    static let photo: Data = {
        var image = Image(width: width, height: height, fill: RGBA8(r: 128, g: 128, b: 128))
        for y in square.y..<(square.y + square.height) {
            for x in square.x..<(square.x + square.width) {
                image[x, y] = x < square.x + square.width / 2 ? RGBA8(r: 220, g: 20, b: 20) : RGBA8(r: 20, g: 20, b: 220)
            }
        }
        return (try? ImageEncoder.png(image)) ?? Data()
    }()

    static func cutOut(of image: Image, in box: Mask.Bounds) -> SubjectExtractor.CutOut {
        var mask = Mask(width: image.width, height: image.height)
        for y in box.y..<(box.y + box.height) { for x in box.x..<(box.x + box.width) { mask.values[y * image.width + x] = 255 } }
        return SubjectExtractor.CutOut(mask: mask, image: image.cropped(x: box.x, y: box.y, width: box.width, height: box.height),
                                       originX: box.x, originY: box.y)
    }

    func process(data: Data) async throws -> ProcessedPhoto {
        callCount.withLock { $0 += 1 }
        let image: Image
        do { image = try ImageDecoder.decode(data) } catch { throw PhotoProcessingError.unreadable(error) }
        let cut = Self.cutOut(of: image, in: Self.square)
        return ProcessedPhoto(sticker: Sticker(image: await StickerStyle.plain.apply(to: cut.image, bands: 1), mask: cut.mask,
                                               cutOut: cut, style: .plain),
                              colorScheme: PhotoColorScheme(colors: [PaletteColor(red: 220, green: 20, blue: 20, weight: 1)]))
    }

    func subject(at target: SubjectTarget, in image: Image, firstLook sticker: Sticker) async throws(SubjectAtTargetError) -> Sticker {
        lookCount.withLock { $0 += 1 }
        // Polls the gate: a test-only wait.
        while holdLooks.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
        guard case .point(let x, let y) = target else { throw .nothingThere }
        let box = Mask.Bounds(x: max(0, x - 4), y: max(0, y - 4), width: 8, height: 8)
        let cut = Self.cutOut(of: image, in: box)
        return Sticker(image: cut.image, mask: cut.mask, cutOut: cut, style: sticker.style)
    }
}

/// The editor's work on a processed photo — brush strokes, a caption, a click — through the
/// Stickers tab's service, as the web app drives it.
@Suite struct StickerEditorTests {
    struct Setup {
        let root = FileManager.default.temporaryDirectory.appending(path: "stickers-editor-tests-\(UUID())")
        let processor = SquareProcessor()

        /// A service over this setup's library and cache (a "restart" is a second one).
        @MainActor func service() throws -> StickersService {
            let cache = ProcessedPhotoCache(processor: processor, disk: ProcessedPhotoDiskCache(folder: root.appending(path: "cache")))
            return StickersService(model: StickerViewModel(cache: cache), maxPhotos: 10,
                                   store: try StickerLibrary(folder: root.appending(path: "data")))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// A service with the square photo uploaded and processed; its id.
    @MainActor static func processed(_ setup: Setup) async throws -> (StickersService, SelectedPhoto.ID) {
        let service = try setup.service()
        try await service.add([.init(name: "square", data: SquareProcessor.photo)])
        service.startProcessing()
        while service.isProcessing { try await Task.sleep(for: .milliseconds(5)) }
        let id = try #require(service.overview.photos.first?.photo.id)
        #expect(service.model.state(of: id).files != nil)
        return (service, id)
    }

    @MainActor static func sticker(_ service: StickersService, _ id: SelectedPhoto.ID) async throws -> Image {
        try ImageDecoder.decode(try await service.png(id, .sticker))
    }

    /// An erase stroke over the photo's left half, the square's included (painted at twice the
    /// photo's size: columns 0…19 of the photo).
    static let eraseLeft = BrushStrokes(width: 80, height: 60, strokes: [
        .init(mode: .erase, radius: 20, points: [[19, 0], [19, 59]]),
    ])

    @Test("An erase stroke removes the painted part of the sticker, from the kept cut-out, with no network run")
    func eraseRemovesThePaintedPart() async throws {
        let setup = Setup()
        defer { setup.remove() }
        let (service, id) = try await Self.processed(setup)
        let before = try await Self.sticker(service, id)
        #expect(before.width == 24 && before.height == 24)

        try await service.setEdits(id, Self.eraseLeft)
        let after = try await Self.sticker(service, id)
        #expect(after.height == 24)
        #expect(after.width <= 15, "the left half is erased: \(after.width) px wide")
        // What is left is the blue half, unchanged (inside the 2 px padding).
        #expect(after[after.width - 3, 12] == RGBA8(r: 20, g: 20, b: 220, a: 255))
        #expect(service.model.state(of: id).files?.edits == Self.eraseLeft)
        #expect(try service.edits(id) == Self.eraseLeft)
        #expect(setup.processor.calls == 1, "edits are drawn from the kept cut-out")

        // Restoring over the erase (a later stroke wins) brings back the photo where painted: the
        // square's left half, and the grey beside it (photo columns 0…29, in the 2 px padding).
        var both = Self.eraseLeft
        both.strokes.append(.init(mode: .restore, radius: 20, points: [[19, 0], [19, 59]]))
        try await service.setEdits(id, both)
        let restored = try await Self.sticker(service, id)
        #expect(restored.width == 34 && restored[14, 12] == RGBA8(r: 220, g: 20, b: 20) && restored[4, 12] == RGBA8(r: 128, g: 128, b: 128))
        // No strokes: the sticker as first made.
        try await service.setEdits(id, BrushStrokes(width: 80, height: 60, strokes: []))
        #expect(try await Self.sticker(service, id) == before)
        #expect(service.model.state(of: id).files?.edits == nil)
    }

    @Test("Edits and a caption are kept in the library: after a restart the sticker is the edited one, and the pack has it")
    func editsSurviveARestart() async throws {
        let setup = Setup()
        defer { setup.remove() }
        let (first, id) = try await Self.processed(setup)
        try await first.setEdits(id, Self.eraseLeft)
        try await first.setCaption(id, Caption(text: "Hi", position: .top, color: RGBA8(r: 255, g: 210, b: 63)))
        let edited = try await first.png(id, .sticker)
        let captioned = try ImageDecoder.decode(edited)
        #expect(captioned.height > 24, "the caption adds a band: \(captioned.height) px high")

        let second = try setup.service()
        try await second.restore()
        let files = try #require(second.model.state(of: id).files)
        #expect(files.edits == Self.eraseLeft)
        #expect(files.caption?.text == "Hi" && files.caption?.position == .top && files.caption?.color.hex == "#FFD23F")
        #expect(try await second.png(id, .sticker) == edited)
        let pack = try await second.zipPack()
        #expect(pack.data.range(of: edited) != nil, "the ZIP holds the edited, captioned sticker")
        #expect(setup.processor.calls == 1)

        // A restyle after the restart keeps the strokes and the caption.
        try await second.restyle(id, with: StickerStyle(outlineWidth: 2))
        let restyled = try #require(second.model.state(of: id).files)
        #expect(restyled.edits == Self.eraseLeft && restyled.caption?.text == "Hi")
        // Removing the caption gives back the edited sticker in the new style, no taller than it.
        try await second.setCaption(id, nil)
        #expect(try await Self.sticker(second, id).height < captioned.height)
    }

    @Test("A click on the photo where no subject was found cuts out what a closer look finds there")
    func clickLooksCloser() async throws {
        let setup = Setup()
        defer { setup.remove() }
        let (service, id) = try await Self.processed(setup)
        try await service.chooseSubject(id, atX: 34, y: 25)
        let files = try #require(service.model.state(of: id).files)
        #expect(files.chosenPoint == [34, 25] && files.chosenSubjects == nil)
        #expect(setup.processor.looks == 1)
        let sticker = try await Self.sticker(service, id)
        #expect(sticker.width == 12 && sticker[2, 2] == RGBA8(r: 128, g: 128, b: 128, a: 255), "the grey around the point")
        // Its cut-out is what later edits and restyles start from, after a restart too.
        let second = try setup.service()
        try await second.restore()
        try await second.restyle(id, with: .plain)
        #expect(try await Self.sticker(second, id).width == 12)
    }

    @Test("One closer look at a time: a second click meanwhile is refused as not now, the first one finishes")
    func oneCloserLookAtATime() async throws {
        let setup = Setup()
        defer { setup.remove() }
        let (service, id) = try await Self.processed(setup)
        setup.processor.holdLooks.withLock { $0 = true }
        async let first: Void = service.chooseSubject(id, atX: 34, y: 25)
        while setup.processor.looks == 0 { try await Task.sleep(for: .milliseconds(2)) }
        do {
            try await service.chooseSubject(id, atX: 5, y: 5)
            Issue.record("a second closer look ran at once")
        } catch {
            #expect(error == .notReady("square cannot be cut out at that point: another closer look is running: try again when it has finished"))
        }
        setup.processor.holdLooks.withLock { $0 = false }
        try await first
        #expect(service.model.state(of: id).files?.chosenPoint == [34, 25])
        #expect(setup.processor.looks == 1)
    }

    @Test("A clip's animated sticker is not edited: strokes, a caption or a click on it are refused as unusable")
    func clipsAreNotEdited() async throws {
        let service = StickersService(model: StickerViewModel(processor: SquareProcessor()), maxPhotos: 10)
        try await service.add([.init(name: "clip", data: Data("a clip".utf8))])
        let id = try #require(service.overview.photos.first?.photo.id)
        let folder = URL(fileURLWithPath: "/nonexistent", isDirectory: true)
        var files = StickerFiles(sticker: folder.appending(path: "sticker.webp"), gradient: folder.appending(path: "gradient.png"),
                                 mask: nil, colorScheme: PhotoColorScheme(colors: []))
        files.isAnimated = true
        service.model.restore([id: files])
        let expected = ServiceError.unusable("clip is a clip: the editor's strokes, caption and click are for a photo's sticker")
        await #expect(throws: expected) { try await service.setCaption(id, Caption(text: "x")) }
        await #expect(throws: expected) { try await service.setEdits(id, Self.eraseLeft) }
        await #expect(throws: expected) { try await service.chooseSubject(id, atX: 1, y: 1) }
    }

    @Test("Bad edits and captions are refused with typed errors, and the sticker is left as it was")
    func badInputIsRefused() async throws {
        let setup = Setup()
        defer { setup.remove() }
        let (service, id) = try await Self.processed(setup)
        let before = try await service.png(id, .sticker)
        func refusal(_ body: () async throws(ServiceError) -> Void) async -> ServiceError? {
            do { try await body() } catch { return error }
            return nil
        }
        let zeroRadius = BrushStrokes(width: 40, height: 30, strokes: [.init(mode: .erase, radius: 0, points: [[1, 1]])])
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(id, zeroRadius) }?.isInvalidRequest == true)
        let noPoints = BrushStrokes(width: 40, height: 30, strokes: [.init(mode: .erase, radius: 3, points: [])])
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(id, noPoints) }?.isInvalidRequest == true)
        let tooMany = BrushStrokes(width: 40, height: 30, strokes: Array(repeating: .init(mode: .erase, radius: 3, points: [[1, 1]]),
                                                                         count: BrushStrokes.maximumStrokes + 1))
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(id, tooMany) }?.isInvalidRequest == true)
        let otherShape = BrushStrokes(width: 40, height: 40, strokes: [.init(mode: .erase, radius: 3, points: [[1, 1]])])
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(id, otherShape) }?.isUnusable == true)
        let everything = BrushStrokes(width: 40, height: 30, strokes: [.init(mode: .erase, radius: 40, points: [[20, 15]])])
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(id, everything) }?.isUnusable == true)
        let long = Caption(text: String(repeating: "a", count: Caption.maximumLength + 1))
        #expect(await refusal { () throws(ServiceError) in try await service.setCaption(id, long) }?.isInvalidRequest == true)
        #expect(await refusal { () throws(ServiceError) in try await service.chooseSubject(id, atX: 400, y: 2) }?.isUnusable == true)
        let unknown = UUID()
        #expect(await refusal { () throws(ServiceError) in try await service.setEdits(unknown, Self.eraseLeft) }
                == .notFound("no photo with id \(unknown.uuidString)"))
        #expect(try await service.png(id, .sticker) == before)
        #expect(service.model.state(of: id).files?.edits == nil)

        try await service.add([.init(name: "later", data: Data("not processed".utf8))])
        let later = try #require(service.overview.photos.last?.photo.id)
        #expect(await refusal { () throws(ServiceError) in try await service.setCaption(later, Caption(text: "x")) }
                == .notReady("later is not processed yet"))
    }
}

extension ServiceError {
    var isInvalidRequest: Bool { if case .invalidRequest = self { true } else { false } }
    var isUnusable: Bool { if case .unusable = self { true } else { false } }
}
