import Raster

extension ImageCodecError {
    /// Why the image could not be decoded, in words for the person who chose it.
    public var reason: String {
        switch self {
        case .empty: "the file is empty"
        case .unsupportedFormat: "not a JPEG, PNG or WebP image"
        case .truncated: "the image data is truncated"
        case .corrupt(let detail): "the image data is corrupt (\(detail))"
        case .tooLarge(let width, let height): "\(width)×\(height) pixels is larger than the limit"
        case .encodingFailed(let detail): "cannot encode the image (\(detail))"
        case .codecUnavailable(let detail): detail
        case .animated: "an animated WebP: only still WebP images are read (give the GIF or video it was made from)"
        }
    }
}
