/// A single-channel 8-bit image: an alpha mask or a greyscale picture (0 = transparent/black).
public struct Mask: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var values: [UInt8]

    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(width >= 0 && height >= 0 && values.count == width * height,
                     "value buffer does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.values = values
    }

    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, values: [UInt8](repeating: fill, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }
}

/// A single-channel floating-point image, for intermediate results (saliency, alpha in 0…1, filters).
public struct Plane: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var values: [Float]

    public init(width: Int, height: Int, values: [Float]) {
        precondition(width >= 0 && height >= 0 && values.count == width * height,
                     "value buffer does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.values = values
    }

    public init(width: Int, height: Int, fill: Float = 0) {
        self.init(width: width, height: height, values: [Float](repeating: fill, count: width * height))
    }

    public subscript(x: Int, y: Int) -> Float {
        get { values[y * width + x] }
        set { values[y * width + x] = newValue }
    }
}
