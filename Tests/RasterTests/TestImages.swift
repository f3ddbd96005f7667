import Foundation
@testable import Raster

/// Small synthetic pictures and byte-level edits used to build fixtures inside the tests.
enum TestImages {
    /// A `width`×`height` image of four flat quadrants: red top-left, green top-right,
    /// blue bottom-left, white bottom-right. Flat colour survives JPEG well enough to check.
    static func quadrants(width: Int = 32, height: Int = 16) -> Image {
        var image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let right = x >= width / 2, bottom = y >= height / 2
                image[x, y] = switch (right, bottom) {
                case (false, false): Colors.red
                case (true, false): Colors.green
                case (false, true): Colors.blue
                case (true, true): Colors.white
                }
            }
        }
        return image
    }

    /// A smooth gradient with varying alpha: every pixel differs, so exact round trips mean something.
    static func gradient(width: Int = 23, height: Int = 17) -> Image {
        var image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBA8(r: UInt8(x * 255 / max(width - 1, 1)), g: UInt8(y * 255 / max(height - 1, 1)),
                                    b: UInt8((x * 7 + y * 13) % 256), a: UInt8((x * 11 + y * 5) % 256))
            }
        }
        return image
    }

    /// Inserts an APP1 Exif segment holding only the orientation tag right after the JPEG's SOI.
    static func withOrientation(_ jpeg: Data, _ value: Int, bigEndian: Bool = true) -> Data {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)                       // header, IFD0 at offset 8
        tiff += u16(1)                                 // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0]
        tiff += u32(0)                                 // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + [UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }
}

enum Colors {
    static let red = RGBA8(r: 255, g: 0, b: 0)
    static let green = RGBA8(r: 0, g: 255, b: 0)
    static let blue = RGBA8(r: 0, g: 0, b: 255)
    static let white = RGBA8(r: 255, g: 255, b: 255)
}

extension RGBA8 {
    /// Whether every channel is within `tolerance` of `other`'s (lossy codecs move values a little).
    func isClose(to other: RGBA8, tolerance: Int = 40) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance && abs(Int(a) - Int(other.a)) <= tolerance
    }
}
