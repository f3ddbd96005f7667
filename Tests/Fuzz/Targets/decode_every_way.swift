import Foundation
import Raster

/// Small limits: the fuzzer's inputs may declare 65535×65535 pixels, which must be refused before
/// anything is allocated, and a 1 MP cap keeps each run fast.
func decodeEveryWay(_ data: Data) {
    let limits = DecodingLimits(maxPixelCount: 1 << 20)
    if let image = try? ImageDecoder.decode(data, limits: limits) {
        precondition(image.pixels.count == image.width * image.height * 4)
    }
    _ = try? ImageDecoder.decode(data, maxDimension: 8, limits: limits)
    _ = try? ImageDecoder.decodeMask(data, limits: limits)
    _ = try? ImageDecoder.info(data)
}
