import CImageCodecs

// `sic_status()` (the zeroing initialiser Swift gives every C struct) starts as SIC_OK.
extension sic_status {
    var text: String {
        withUnsafeBytes(of: message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The typed error for a failed call; `width`/`height` name the refused size for `tooLarge`.
    func error(width: Int = 0, height: Int = 0) -> ImageCodecError {
        switch code {
        case SIC_UNSUPPORTED: .unsupportedFormat
        case SIC_TRUNCATED: .truncated
        case SIC_TOO_LARGE: .tooLarge(width: width, height: height)
        case SIC_ENCODE_FAILED: .encodingFailed(text)
        case SIC_OUT_OF_MEMORY: .corrupt("out of memory: \(text)")
        default: .corrupt(text)
        }
    }
}
