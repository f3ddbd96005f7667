import Foundation
import Raster

extension ColorExtractor {
    /// The dominant colours of an encoded photo (JPEG, PNG or WebP; EXIF orientation applied).
    ///
    /// Decodes only the pixels the extraction needs: a JPEG at the smallest DCT scale (1/2, 1/4,
    /// 1/8) that keeps its long side at least `workingSize`, so a 12 MP photo never decodes in full.
    public func extractColors(fromImageData data: Data, count: Int, mood: PaletteMood? = nil,
                              limits: DecodingLimits = .default) throws(ImageCodecError) -> PhotoColorScheme {
        let image = try ImageDecoder.decode(data, maxDimension: workingSize, limits: limits)
        return extractColors(from: image, count: count, mood: mood)
    }
}
