extension Image {
    /// Rec. 709 luminance of each pixel (the weights libpng uses for RGB → grey), alpha ignored.
    public func luminance() -> Mask {
        let count = pixelCount
        let values = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            pixels.withUnsafeBufferPointer { rgba in
                for i in 0..<count {
                    let r = UInt32(rgba[4 * i]), g = UInt32(rgba[4 * i + 1]), b = UInt32(rgba[4 * i + 2])
                    out[i] = UInt8((6968 * r + 23434 * g + 2366 * b + 16384) >> 15)
                }
            }
            initialized = count
        }
        return Mask(width: width, height: height, values: values)
    }
}
