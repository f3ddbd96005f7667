import SpacePhotos

/// Why a space photo could not be saved into the library.
public enum CatalogSaveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no still image to save (a video without thumbnail, an interactive page).
    case notSavable(String)
    /// Downloading the image failed.
    case download(APODError)
    /// Writing the file failed; nothing was left behind.
    case write(String)
    case cancelled

    public var description: String {
        switch self {
        case .notSavable(let reason): "nothing to save: \(reason)"
        case .download(let error): "download failed: \(error)"
        case .write(let message): message
        case .cancelled: "cancelled"
        }
    }
}
