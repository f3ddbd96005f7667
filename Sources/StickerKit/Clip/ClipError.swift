/// Why a clip could not become an animated sticker, typed so each caller maps it to its own
/// answer (the CLI's exit statuses 69 and 65, the web app's HTTP statuses).
public enum ClipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `ffmpeg` or `ffprobe` is not on PATH: a missing resource, not bad data.
    case toolMissing(String)
    /// ffprobe or ffmpeg could not read the clip (truncated, corrupt, not a video): its words.
    case unreadable(String)
    /// The clip decodes to no frame in the piece asked for.
    case noFrames
    /// The clip's frames are larger than `ClipLimits.maximumPixelCount`.
    case tooLarge(width: Int, height: Int)
    /// The subject could not be cut out of the clip's first frame.
    case cutOut(SubjectExtractionError)
    /// An encoder (libwebp, ffmpeg's libvpx-vp9, PNG) failed.
    case encoding(String)

    public var description: String {
        switch self {
        case .toolMissing(let tool): "\(tool) is not installed (clips are decoded by ffmpeg: apt-get install ffmpeg)"
        case .unreadable(let reason): "not a readable clip: \(reason)"
        case .noFrames: "the clip has no frame in the piece asked for"
        case .tooLarge(let width, let height): "the clip's frames are too large (\(width)×\(height))"
        case .cutOut(let error): "\(error)"
        case .encoding(let reason): "cannot encode the animated sticker: \(reason)"
        }
    }
}

extension ClipError {
    /// ffmpeg gave no frame or failed while decoding (not a missing tool, a refusal or an encoder).
    var isDecodingFailure: Bool {
        switch self {
        case .noFrames, .unreadable: true
        default: false
        }
    }
}
