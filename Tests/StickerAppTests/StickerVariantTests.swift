import Foundation
import StickerKit
import Testing
@testable import StickerApp

/// A photo's variant: one value whose identifier names its files.
@Suite struct StickerVariantTests {
    private static func digest(_ json: String) -> String {
        String(ContentDigest(Data(json.utf8)).hex.prefix(16))
    }

    @Test("A variant's id is the digest of its canonical encoding, which names only the fields away from their default")
    func idIsTheDigestOfTheCanonicalEncoding() {
        #expect(StickerVariant().id == Self.digest("{}"))
        #expect(StickerVariant(subjects: [1, 2]).id == Self.digest(#"{"subjects":[1,2]}"#))
        let comic = StickerStyle(outlineWidth: 6, effect: .comic)
        #expect(StickerVariant(style: comic).id != StickerVariant(style: comic, subjects: [0]).id)
        #expect(StickerVariant(style: comic).id == StickerVariant(style: comic, subjects: nil).id)
        #expect(StickerVariant(style: comic).id.count == 16)
    }

    @Test("Every variant of a photo lives in one folder per id, beside the photo's kept subjects")
    func oneFolderPerVariant() {
        let entry = URL(fileURLWithPath: "/cache/entry", isDirectory: true)
        var files = StickerFiles(sticker: entry.appending(path: "sticker.png"), gradient: entry.appending(path: "gradient.png"),
                                 mask: nil, cutOut: entry.appending(path: "cutout.png"), subjects: entry.appending(path: "subjects.json"),
                                 colorScheme: PhotoColorScheme(colors: []))
        let variant = StickerVariant(subjects: [1])
        #expect(variant.folder(for: files) == entry.appending(path: "variant-\(variant.id)", directoryHint: .isDirectory))
        // A re-cut sticker's cut-out lives in its variant's folder; its next variant still goes beside the subjects.
        files.cutOut = entry.appending(path: "variant-x/cutout.png")
        #expect(StickerVariant(style: StickerStyle(outlineWidth: 2), subjects: [1]).folder(for: files)?.deletingLastPathComponent().path
                == entry.path)
        files.subjects = nil
        files.cutOut = URL(fileURLWithPath: "/library/files/ab/cd.png")
        #expect(variant.folder(for: files)?.deletingLastPathComponent().path == "/library/files/ab")
        files.cutOut = nil
        #expect(variant.folder(for: files) == nil, "nothing kept to draw a variant from")
    }
}
