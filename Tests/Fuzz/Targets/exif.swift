// libFuzzer target: the EXIF orientation reader (our own APP1/TIFF parser), on whole JPEG
// segment streams and on bare EXIF payloads.
import Foundation
@testable import Raster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: bytes, count: count)
    _ = ExifOrientation.read(fromJPEG: buffer)
    _ = ExifOrientation.orientation(inExifPayload: buffer)
    return 0
}
