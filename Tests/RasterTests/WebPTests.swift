import Foundation
import Testing
@testable import Raster

@Suite struct WebPTests {
    func gradient(width: Int = 64, height: Int = 48) -> Image {
        var image = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBA8(r: UInt8(x * 4), g: UInt8(y * 5), b: 128, a: x < 8 ? 0 : UInt8(min(255, 64 + y * 4)))
            }
        }
        return image
    }

    @Test("WebP is recognised by its RIFF…WEBP magic, and a cut-off header as truncated")
    func sniffing() throws {
        let data = try WebP.encode(gradient(), .init(lossless: true, quality: 50))
        #expect(ImageFormat.sniff(data) == .webp)
        #expect(ImageFormat.sniff(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
        #expect(ImageFormat.isCutOffSignature(Data("RIFF\u{1}\u{2}".utf8)))
        #expect(ImageFormat.isCutOffSignature(Data("RIFF\u{1}\u{2}\u{3}\u{4}WE".utf8)))
        #expect(!ImageFormat.isCutOffSignature(Data("RIFF\u{1}\u{2}\u{3}\u{4}WA".utf8)))
    }

    @Test("A lossless WebP decodes to exactly the pixels encoded (visible ones), with its size in the header")
    func losslessRoundTrip() throws {
        let image = gradient()
        let data = try WebP.encode(image, .init(lossless: true, quality: 50, exact: true))
        let info = try ImageDecoder.info(data)
        #expect(info.format == .webp && info.width == 64 && info.height == 48)
        let decoded = try ImageDecoder.decode(data)
        #expect(decoded == image)
    }

    @Test("A lossy WebP keeps its alpha exactly and its colours close")
    func lossyRoundTrip() throws {
        let image = gradient()
        let decoded = try ImageDecoder.decode(try WebP.encode(image, .lossy(quality: 90)))
        var worst = 0
        for y in 0..<48 {
            for x in 8..<64 {
                #expect(decoded[x, y].a == image[x, y].a)
                worst = max(worst, abs(Int(decoded[x, y].r) - Int(image[x, y].r)))
            }
        }
        #expect(worst < 40)
    }

    @Test("Broken WebP data is an error, never a crash")
    func brokenData() throws {
        let data = try WebP.encode(gradient(), .lossy(quality: 80))
        #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(data.prefix(40)) }
        var corrupt = data
        corrupt.replaceSubrange(20..<40, with: [UInt8](repeating: 0xFF, count: 20))
        #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(corrupt) }
        #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) }
    }

    @Test("The loaded libwebp reports its version")
    func version() {
        #expect(WebP.libraryVersion?.hasPrefix("1.") == true)
    }
}
