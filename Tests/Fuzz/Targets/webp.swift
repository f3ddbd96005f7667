// libFuzzer target: WebP bytes through every decoder entry point: ImageFormat's sniffing of the
// RIFF header, the size from libwebp's WebPGetInfo and the pixel limit checked on it, the decode
// into our buffer (CLazyWebP), info(); then whatever decodes goes back through the encoder. libwebp
// itself is loaded at run time and not instrumented: coverage counts our wrapper.
import Foundation
import Raster

/// A fuzzer without libwebp would only ever see "unavailable": refuse to run instead.
let libwebpLoaded: Bool = (try? WebP.checkAvailable()) != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    precondition(libwebpLoaded, "libwebp.so.7 cannot be loaded: the webp target needs it")
    let data = Data(bytes: bytes, count: count)
    decodeEveryWay(data)
    guard ImageFormat.sniff(data) == .webp,
          let image = try? ImageDecoder.decode(data, limits: DecodingLimits(maxPixelCount: 4096)) else { return 0 }
    // The header's size is the decoded size, and a decoded image encodes and reads back as itself.
    let info = try? ImageDecoder.info(data)
    precondition(info?.width == image.width && info?.height == image.height)
    guard let encoded = try? WebP.encode(image, WebP.Settings(lossless: true, quality: 0, method: 0, exact: true)),
          let back = try? WebP.decode(encoded) else { preconditionFailure("a decoded WebP did not encode and decode") }
    precondition(back == image, "lossless (exact) round trip changed the pixels")
    return 0
}
