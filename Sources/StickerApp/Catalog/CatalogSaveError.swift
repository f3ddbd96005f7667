import SpacePhotos

/// Why a space photo could not be saved into the library.
public enum CatalogSaveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no still image to save (a video without thumbnail, an interactive page).
    case notSavable(String)
    /// Downloading the image failed.
    case download(APODError)
    /// Writing the file (or making its folder) failed, for `reason` ("no space left on device",
    /// "read-only file system"); nothing was left behind and an earlier file is as it was.
    case write(path: String, reason: String)
    case cancelled

    public var description: String {
        switch self {
        case .notSavable(let reason): "nothing to save: \(reason)"
        case .download(let error): "download failed: \(error)"
        case .write(let path, let reason): "cannot write \(path): \(reason)"
        case .cancelled: "cancelled"
        }
    }
}
