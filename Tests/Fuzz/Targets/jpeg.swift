// libFuzzer target: JPEG bytes through every decoder entry point (full size, DCT-scaled, mask,
// header only). Any outcome but an image or a typed error is a bug.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    decodeEveryWay(Data(bytes: bytes, count: count))
    return 0
}
