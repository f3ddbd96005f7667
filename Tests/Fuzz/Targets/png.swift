// libFuzzer target: PNG bytes through every decoder entry point. Seeds: every colour type, bit
// depth and interlacing the decoder handles.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    decodeEveryWay(Data(bytes: bytes, count: count))
    return 0
}
