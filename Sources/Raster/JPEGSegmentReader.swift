/// Walks a JPEG's marker segments from SOI up to the first scan.
struct JPEGSegmentReader {
    struct Segment { var marker: UInt8; var payload: Range<Int> }

    let bytes: UnsafeRawBufferPointer
    private var offset = 2
    private var done: Bool

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        done = !(bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8)
    }

    mutating func next() -> Segment? {
        while !done {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else { done = true; return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { done = true; return nil }  // scan data follows / end
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4, end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { done = true; return nil }
            offset = end
            return Segment(marker: marker, payload: start..<end)
        }
        return nil
    }
}
