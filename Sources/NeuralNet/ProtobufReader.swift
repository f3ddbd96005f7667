// A minimal reader of the protobuf wire format, enough for the handful of ONNX messages we need.
//
// Why not SwiftProtobuf: it would add a dependency whose code generator plugin takes minutes to
// build in CI, plus ~5 k lines of generated onnx.pb.swift to keep in sync; ONNX files use only
// varints, fixed32/64 and length-delimited fields, and we read six messages, so ~100 lines do.

/// Reads fields from a byte range of a protobuf message. Every read is bounds-checked and throws
/// `ModelError.malformed` instead of trapping on truncated or hostile input.
///
/// The bytes are borrowed: a reader lives only inside the `withUnsafeBytes` call that lends them
/// (one whole parse), and what the parse keeps is copied out. So a memory-mapped model file is read
/// in place instead of being copied into an array first (4.5 MB of fresh pages, ~3 ms a process).
struct ProtobufReader {
    enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    let end: Int

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    init(bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func nextField() throws(ModelError) -> (number: Int, type: WireType)? {
        if isAtEnd { return nil }
        let key = try readVarint()
        guard let type = WireType(rawValue: key & 7) else {
            throw .malformed("unknown protobuf wire type \(key & 7) at byte \(position)")
        }
        let number = Int(truncatingIfNeeded: key >> 3)
        guard number > 0 else { throw .malformed("field number 0 at byte \(position)") }
        return (number, type)
    }

    mutating func readVarint() throws(ModelError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .malformed("truncated varint") }
            let byte = bytes[position]
            position += 1
            if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift >= 70 { throw .malformed("varint longer than 10 bytes") }
        }
    }

    mutating func readInt64() throws(ModelError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    mutating func readFixed32() throws(ModelError) -> UInt32 {
        guard end - position >= 4 else { throw .malformed("truncated fixed32") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
        position += 4
        return value
    }

    mutating func readFixed64() throws(ModelError) -> UInt64 {
        guard end - position >= 8 else { throw .malformed("truncated fixed64") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += 8
        return value
    }

    mutating func readFloat() throws(ModelError) -> Float {
        Float(bitPattern: try readFixed32())
    }

    /// The byte range of a length-delimited field (a sub-message, string, bytes or packed array).
    mutating func readLengthDelimited() throws(ModelError) -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw .malformed("length-delimited field of \(length) bytes overruns its message")
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    mutating func readString() throws(ModelError) -> String {
        let range = try readLengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The bytes of a length-delimited field, valid as long as the reader's.
    mutating func readBytes() throws(ModelError) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[try readLengthDelimited()])
    }

    /// A reader for the sub-message that follows.
    mutating func readMessage() throws(ModelError) -> ProtobufReader {
        ProtobufReader(bytes: bytes, range: try readLengthDelimited())
    }

    /// Skips a field we do not use.
    mutating func skip(_ type: WireType) throws(ModelError) {
        switch type {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }

    /// Appends a repeated int64 field, which writers may encode packed or one value per field.
    mutating func readInt64s(_ type: WireType, into values: inout [Int64]) throws(ModelError) {
        if type == .lengthDelimited {
            var packed = try readMessage()
            while !packed.isAtEnd { values.append(try packed.readInt64()) }
        } else if type == .varint {
            values.append(try readInt64())
        } else {
            throw .malformed("repeated int64 with wire type \(type)")
        }
    }

    /// Appends a repeated float field, packed or not.
    mutating func readFloats(_ type: WireType, into values: inout [Float]) throws(ModelError) {
        if type == .lengthDelimited {
            let range = try readLengthDelimited()
            guard range.count % 4 == 0 else { throw .malformed("packed floats of \(range.count) bytes") }
            var packed = ProtobufReader(bytes: bytes, range: range)
            values.reserveCapacity(values.count + range.count / 4)
            while !packed.isAtEnd { values.append(try packed.readFloat()) }
        } else if type == .fixed32 {
            values.append(try readFloat())
        } else {
            throw .malformed("repeated float with wire type \(type)")
        }
    }
}
