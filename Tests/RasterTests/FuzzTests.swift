import Foundation
import Testing
@testable import Raster

/// Random single-byte corruptions of valid files (deterministic seed): every outcome must be an
/// image or a typed error. Kept small for the debug build; a longer run is one constant away.
@Test(arguments: ["jpeg", "progressive", "png", "progressive.jpg", "cmyk.jpg", "rgba8-interlaced.png", "palette2-trns.png"])
func corruptedBytesNeverCrashTheDecoders(source: String) throws {
    let original: [UInt8] = switch source {
    case "jpeg": [UInt8](try ImageEncoder.jpeg(TestImages.gradient(width: 40, height: 24), quality: 80))
    case "progressive": [UInt8](try ImageEncoder.jpeg(TestImages.gradient(width: 64, height: 48), quality: 80, progressive: true))
    case "png": [UInt8](try ImageEncoder.png(TestImages.gradient(width: 40, height: 24)))
    default: [UInt8](try Fixtures.data(source))
    }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(original.count)
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    var decoded = 0, failed = 0
    for _ in 0..<150 {
        var bytes = original
        for _ in 0..<(1 + next(4)) { bytes[next(bytes.count)] = UInt8(next(256)) }
        let data = Data(bytes.prefix(next(4) == 0 ? next(bytes.count) + 1 : bytes.count))
        do {
            // nil: full size; 1: the 1/8 path (early stop for progressive files); 8: 1/2 to 1/8.
            let image = try ImageDecoder.decode(data, maxDimension: [nil, 1, 8][next(3)],
                                                limits: DecodingLimits(maxPixelCount: 1 << 20))
            #expect(image.pixels.count == image.width * image.height * 4)
            decoded += 1
        } catch {
            failed += 1
        }
        _ = try? ImageDecoder.info(data)
        _ = try? ImageDecoder.decodeMask(data, limits: DecodingLimits(maxPixelCount: 1 << 20))
    }
    #expect(decoded + failed == 150)
}
