// libFuzzer target: every palette reader (PaletteFormat.decode) on every input: the binary swatch
// files (Photoshop .aco, Adobe .ase), Procreate's ZIP (ZIPReader; ZIPFoundation inflates), the
// JSON ones and the text ones. What a reader returns must be writable and read back as the same
// colours with usable weights, so a reader cannot hand the rest of the program a value it cannot
// use (a weight of infinity, say).
import Foundation

/// The writers that do not name colours: naming costs ~1000 CIEDE2000 distances a colour, ran the
/// target at a few inputs a second, and depends on nothing but the colour's three bytes.
let writersWithoutNames: [PaletteFormat] = [.text, .css, .gpl, .ase, .procreate]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPalette(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for format in PaletteFormat.allCases {
        guard let scheme = try? format.decode(data) else { continue }
        for writer in writersWithoutNames {
            let written = writer.encode(scheme, name: "Fuzz")
            let read: PhotoColorScheme
            do { read = try writer.decode(written) } catch {
                preconditionFailure("\(format) read a palette that \(writer) wrote and cannot read back: \(error)")
            }
            precondition(read.colors.map(\.hex) == scheme.colors.map(\.hex), "\(format) → \(writer) changed the colours")
            precondition(read.colors.allSatisfy { $0.weight.isFinite && $0.weight >= 0 })
        }
    }
    return 0
}
