/// An RGBA8 image with straight (non-premultiplied) alpha, rows top to bottom.
///
/// A value type: its pixels live in a Swift array, so copies share storage until one is mutated
/// (copy-on-write) and the image can cross isolation boundaries freely.
public struct Image: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, row-major.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "pixel buffer does not match \(width)×\(height) RGBA")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, fill: RGBA8 = RGBA8(r: 0, g: 0, b: 0, a: 0)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = fill.r; pixels[i + 1] = fill.g; pixels[i + 2] = fill.b; pixels[i + 3] = fill.a
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public var pixelCount: Int { width * height }

    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let i = (y * width + x) * 4
            return RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }
}

/// One 8-bit RGBA pixel.
public struct RGBA8: Sendable, Hashable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
}
