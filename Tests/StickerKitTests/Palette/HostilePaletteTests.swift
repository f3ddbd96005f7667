import Foundation
import Testing
@testable import StickerKit

/// Palette files made to break the readers (found by the palette fuzz target, or read off the code
/// next to what it found): each is refused with an error or read into weights the writers can use.
@Suite struct HostilePaletteTests {
    /// The sunset .ase with its first colour's red channel replaced by `bits` (an f32).
    private func sunsetASE(redChannel bits: UInt32) throws -> Data {
        var data = try golden(.ase)
        let red = try #require(data.firstRange(of: Data("RGB ".utf8))).upperBound
        data.replaceSubrange(red..<red + 4, with: withUnsafeBytes(of: bits.bigEndian, Array.init))
        return data
    }

    @Test("an ASE colour channel of NaN, infinity or 1e38 is refused, not a trap")
    func nonFiniteASEChannel() throws {
        for bits in [Float.nan.bitPattern, Float.infinity.bitPattern, (-Float.infinity).bitPattern] {
            #expect(throws: PaletteDecodingError.self) { try PaletteFormat.ase.decode(try sunsetASE(redChannel: bits)) }
        }
        // Finite but far outside 0…1 (the fuzzer's case: -1e38 trapped converting to Int) is clamped.
        let read = try PaletteFormat.ase.decode(try sunsetASE(redChannel: Float(-1e38).bitPattern))
        #expect(read.colors.first?.red == 0)
        #expect(try PaletteFormat.ase.decode(try sunsetASE(redChannel: Float(1e38).bitPattern)).colors.first?.red == 255)
    }

    @Test("a share of inf%, nan% or a negative one is not read as a weight")
    func nonFiniteShares() throws {
        for share in ["inf%", "nan%", "1e309%", "-5%"] {
            #expect(throws: PaletteDecodingError.self) { try PaletteFormat.text.decode(Data("#E63946  \(share)\n".utf8)) }
            let gpl = try PaletteFormat.gpl.decode(Data("GIMP Palette\n230  57  70\t#E63946 \(share)\n".utf8))
            #expect(gpl.colors.map(\.weight) == [0])
        }
        // An infinite weight used to reach the writers, whose rounding trapped on it.
        let scheme = try PaletteFormat.css.decode(Data(":root {\n  --palette-1: #E63946; /* inf% */\n}\n".utf8))
        #expect(PaletteFormat.text.encode(scheme) == Data("#E63946  0.0%\n".utf8))
    }

    @Test("a GIMP palette line holding only a tab is refused, not an index out of range")
    func gimpLineOfATab() {
        #expect(throws: PaletteDecodingError.self) { try PaletteFormat.gpl.decode(Data("GIMP Palette\n\t\n".utf8)) }
    }
}
