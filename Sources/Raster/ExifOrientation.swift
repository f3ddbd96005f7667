/// How the stored pixels must be turned to be seen upright: the EXIF/TIFF tag 0x0112.
/// Case names follow the 0th row/column convention of `CGImagePropertyOrientation`.
public enum ExifOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1             // as stored
    case upMirrored = 2     // mirrored left ↔ right
    case down = 3           // turned 180°
    case downMirrored = 4   // mirrored top ↔ bottom
    case leftMirrored = 5   // transposed (mirrored along the main diagonal)
    case right = 6          // stored turned 90° anticlockwise: display turns it 90° clockwise
    case rightMirrored = 7  // transversed (mirrored along the anti-diagonal)
    case left = 8           // stored turned 90° clockwise: display turns it 90° anticlockwise

    /// Whether the displayed picture has width and height swapped relative to the stored one.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension ExifOrientation {
    /// Reads the orientation tag from a JPEG's APP1 "Exif" segment; `.up` when there is none or
    /// it is malformed (a broken tag must not make a readable picture unreadable).
    public static func read(fromJPEG bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        var reader = JPEGSegmentReader(bytes: bytes)
        while let segment = reader.next() {
            guard segment.marker == 0xE1 else { continue }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[segment.payload])
            if let orientation = orientation(inExifPayload: payload) { return orientation }
        }
        return .up
    }

    /// Parses "Exif\0\0" + a TIFF header + IFD0 and returns the 0x0112 entry's value.
    static func orientation(inExifPayload payload: UnsafeRawBufferPointer) -> ExifOrientation? {
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        guard payload.count >= 6 + 8, payload.prefix(6).elementsEqual(exifHeader) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[6...])
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(bigEndian ? at : at + 2), let low = u16(bigEndian ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entryCount = u16(ifd) else { return nil }
        for entry in 0..<entryCount {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (type 3), count 1: the value sits in the first two bytes of the value field.
            guard u16(at + 2) == 3, let value = u16(at + 8) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
