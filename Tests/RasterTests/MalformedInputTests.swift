import Foundation
import Testing
@testable import Raster

/// The error's case without its message, so a table can name the expected kind.
enum ErrorKind: Equatable, Sendable {
    case empty, unsupportedFormat, truncated, corrupt, tooLarge(Int, Int), encodingFailed, codecUnavailable, animated

    init(_ error: ImageCodecError) {
        switch error {
        case .empty: self = .empty
        case .unsupportedFormat: self = .unsupportedFormat
        case .truncated: self = .truncated
        case .corrupt: self = .corrupt
        case .tooLarge(let width, let height): self = .tooLarge(width, height)
        case .encodingFailed: self = .encodingFailed
        case .codecUnavailable: self = .codecUnavailable
        case .animated: self = .animated
        }
    }
}

struct MalformedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let expected: ErrorKind
    let bytes: @Sendable () throws -> Data
    var testDescription: String { name }
}

private func jpeg() throws -> Data { try ImageEncoder.jpeg(TestImages.gradient(width: 64, height: 48), quality: 85) }
private func png() throws -> Data { try ImageEncoder.png(TestImages.gradient(width: 64, height: 48)) }

private func prefix(_ data: Data, _ count: Int) -> Data { Data(data.prefix(count)) }

/// Deterministic noise (a 64-bit LCG), so a failure names the same bytes every run.
private func noise(_ count: Int, seed: UInt64) -> Data {
    var state = seed
    return Data((0..<count).map { _ in
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 33)
    })
}

/// Overwrites the frame size in a JPEG's SOF0 segment (the decompression-bomb header).
private func withJPEGFrameSize(_ data: Data, width: Int, height: Int) -> Data {
    var bytes = [UInt8](data)
    guard let sof = (0..<bytes.count - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return data }
    bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
    bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
    return Data(bytes)
}

/// Overwrites the IHDR size of a PNG and fixes the chunk's CRC so only the size is wrong.
private func withPNGSize(_ data: Data, width: Int, height: Int) -> Data {
    var bytes = [UInt8](data)
    for (i, v) in [width, height].enumerated() {
        for b in 0..<4 { bytes[16 + i * 4 + b] = UInt8((v >> (24 - 8 * b)) & 0xFF) }
    }
    let crc = CRC32.checksum(bytes[12..<29])
    for b in 0..<4 { bytes[29 + b] = UInt8((crc >> (24 - 8 * UInt32(b))) & 0xFF) }
    return Data(bytes)
}

/// Flips one byte inside the first IDAT chunk's data, leaving its CRC stale.
private func withBadIDATCRC(_ data: Data) -> Data {
    var bytes = [UInt8](data)
    let idat = Array("IDAT".utf8)
    guard let at = (8..<bytes.count - 4).first(where: { Array(bytes[$0..<$0 + 4]) == idat }) else { return data }
    bytes[at + 6] ^= 0x5A
    return Data(bytes)
}

private let cases: [MalformedCase] = [
    MalformedCase(name: "zero bytes", expected: .empty) { Data() },
    MalformedCase(name: "random bytes", expected: .unsupportedFormat) { noise(4096, seed: 1) },
    MalformedCase(name: "text named like a picture", expected: .unsupportedFormat) { Data("GIF? no, just text\n".utf8) },
    MalformedCase(name: "two bytes of a JPEG signature", expected: .truncated) { Data([0xFF, 0xD8]) },
    MalformedCase(name: "three bytes of nothing known", expected: .unsupportedFormat) { Data("abc".utf8) },
    // libjpeg skips non-marker bytes looking for a frame header and runs off the end.
    MalformedCase(name: "JPEG SOI then random bytes", expected: .truncated) { Data([0xFF, 0xD8, 0xFF]) + noise(4096, seed: 2) },
    MalformedCase(name: "JPEG SOI then a bogus frame header", expected: .corrupt) {
        Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x05, 0x08, 0x00]) + noise(64, seed: 4)
    },
    MalformedCase(name: "JPEG cut after 3 bytes", expected: .truncated) { prefix(try jpeg(), 3) },
    MalformedCase(name: "JPEG cut after 100 bytes", expected: .truncated) { prefix(try jpeg(), 100) },
    MalformedCase(name: "JPEG cut in the middle", expected: .truncated) { let d = try jpeg(); return prefix(d, d.count / 2) },
    MalformedCase(name: "JPEG missing its last 30 bytes", expected: .truncated) { let d = try jpeg(); return prefix(d, d.count - 30) },
    MalformedCase(name: "JPEG bomb header 60000×60000", expected: .tooLarge(60000, 60000)) {
        withJPEGFrameSize(try jpeg(), width: 60000, height: 60000)
    },
    MalformedCase(name: "JPEG with a zero height", expected: .corrupt) { withJPEGFrameSize(try jpeg(), width: 64, height: 0) },
    MalformedCase(name: "PNG signature only, cut", expected: .truncated) { prefix(try png(), 5) },
    MalformedCase(name: "PNG cut inside IHDR", expected: .truncated) { prefix(try png(), 20) },
    MalformedCase(name: "PNG cut in the middle", expected: .truncated) { let d = try png(); return prefix(d, d.count / 2) },
    MalformedCase(name: "PNG without IEND", expected: .truncated) { let d = try png(); return prefix(d, d.count - 12) },
    MalformedCase(name: "PNG signature then random bytes", expected: .corrupt) { prefix(try png(), 8) + noise(4096, seed: 3) },
    MalformedCase(name: "PNG with a bad IDAT CRC", expected: .corrupt) { withBadIDATCRC(try png()) },
    MalformedCase(name: "PNG bomb header 60000×60000", expected: .tooLarge(60000, 60000)) {
        withPNGSize(try png(), width: 60000, height: 60000)
    },
    MalformedCase(name: "PNG bomb header beyond libpng's own limit", expected: .tooLarge(2_000_000, 2_000_000)) {
        withPNGSize(try png(), width: 2_000_000, height: 2_000_000)
    },
]

@Test(arguments: cases)
func malformedInputIsATypedErrorNeverACrash(_ testCase: MalformedCase) throws {
    let data = try testCase.bytes()
    do {
        let image = try ImageDecoder.decode(data)
        Issue.record("decoded \(image.width)×\(image.height) instead of failing")
    } catch {
        #expect(ErrorKind(error) == testCase.expected, "\(error)")
    }
    // The mask decoder and the header reader refuse it too (the header may be intact, so `info`
    // can succeed for data broken only later).
    #expect(throws: ImageCodecError.self) { try ImageDecoder.decodeMask(data) }
    _ = try? ImageDecoder.info(data)
}

@Test func thePixelLimitIsCheckedFromTheHeader() throws {
    let limits = DecodingLimits(maxPixelCount: 64 * 48 - 1)
    #expect(throws: ImageCodecError.tooLarge(width: 64, height: 48)) { try ImageDecoder.decode(try jpeg(), limits: limits) }
    #expect(throws: ImageCodecError.tooLarge(width: 64, height: 48)) { try ImageDecoder.decode(try png(), limits: limits) }
    // The limit is on the stored size even when a scaled-down decode would fit.
    #expect(throws: ImageCodecError.tooLarge(width: 64, height: 48)) {
        try ImageDecoder.decode(try jpeg(), maxDimension: 8, limits: limits)
    }
    #expect(try ImageDecoder.decode(try png(), limits: DecodingLimits(maxPixelCount: 64 * 48)).width == 64)
}

@Test func theFormatComesFromTheBytesNotTheFileName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pngNamedJPEG = folder.appendingPathComponent("photo.jpg")
    let textNamedPNG = folder.appendingPathComponent("photo.png")
    try png().write(to: pngNamedJPEG)
    try Data("not a picture".utf8).write(to: textNamedPNG)
    #expect(try ImageDecoder.info(Data(contentsOf: pngNamedJPEG)).format == .png)
    #expect(try ImageDecoder.decode(Data(contentsOf: pngNamedJPEG)) == TestImages.gradient(width: 64, height: 48))
    #expect(throws: ImageCodecError.unsupportedFormat) { try ImageDecoder.decode(Data(contentsOf: textNamedPNG)) }
}

@Test func aDataSliceWithAnOffsetDecodesLikeItsBytes() throws {
    let padded = Data([1, 2, 3]) + (try png())
    let slice = padded[3...]  // startIndex 3: the decoder must not assume zero-based indices
    #expect(try ImageDecoder.decode(slice) == TestImages.gradient(width: 64, height: 48))
    #expect(ImageFormat.sniff(slice) == .png)
}

@Test("GIF is recognised by its magic bytes but not decoded (unsupported, not corrupt); WebP is decoded")
func recognisedButUndecodableFormatsAreUnsupported() {
    let gif = Data("GIF89a\u{1}\0\u{1}\0".utf8)
    #expect(ImageFormat.sniff(gif) == .gif)
    #expect(!ImageFormat.gif.isDecodable)
    #expect(throws: ImageCodecError.unsupportedFormat) { try ImageDecoder.decode(gif) }
    #expect(ImageFormat.sniff(Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
    #expect(ImageFormat.webp.isDecodable)
    #expect(ImageFormat.jpeg.mimeType == "image/jpeg" && ImageFormat.jpeg.fileExtension == "jpg")
    #expect(ImageFormat.sniff(Data("RIFF\0\0\0\0WAVE".utf8)) == nil)
}
