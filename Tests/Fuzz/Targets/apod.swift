// libFuzzer target: decoding an APOD API answer (one object or an array, each item on its own).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPOD(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let page = try? SpacePhotoPage.decode(Data(bytes: bytes, count: count)) {
        precondition(Set(page.photos.map(\.id)).count == page.photos.count)
    }
    return 0
}
