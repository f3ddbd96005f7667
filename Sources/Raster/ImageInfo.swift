/// What the header says, read without decoding pixels.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Display size: the stored size with the EXIF orientation applied (width and height swapped
    /// for the four orientations that turn the picture by 90°).
    public var width: Int
    public var height: Int
    public var orientation: ExifOrientation

    public init(format: ImageFormat, width: Int, height: Int, orientation: ExifOrientation) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }
}
