extension Image {
    /// Resized to exactly `width`×`height`. Colour is filtered premultiplied by alpha, so
    /// transparent pixels do not bleed their (invisible) colour into the edges of a cut-out.
    public func resized(width: Int, height: Int, filter: ResamplingFilter = .bicubic) -> Image {
        guard width > 0, height > 0, self.width > 0, self.height > 0 else { return Image(width: max(width, 0), height: max(height, 0)) }
        if width == self.width, height == self.height { return self }
        let count = width * height * 4
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pixels.withUnsafeBytes { source in
                resampleSeparable(
                    sourceWidth: self.width, sourceHeight: self.height, width: width, height: height, filter: filter,
                    load: { i in
                        // One 4-byte load and a vector convert; premultiply RGB by alpha/255.
                        let p = SIMD4<Float>(source.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<UInt8>.self))
                        return p * SIMD4(p.w * (1 / 255), p.w * (1 / 255), p.w * (1 / 255), 1)
                    },
                    store: { y, row in
                        var o = y * width * 4
                        for p in row {
                            let a = min(max(p.w, 0), 255)
                            let unpremultiply: Float = a > 0.5 ? 255 / a : 0
                            buffer[o] = clampedByte(p.x * unpremultiply)
                            buffer[o + 1] = clampedByte(p.y * unpremultiply)
                            buffer[o + 2] = clampedByte(p.z * unpremultiply)
                            buffer[o + 3] = clampedByte(a)
                            o += 4
                        }
                    })
            }
            initialized = count
        }
        return Image(width: width, height: height, pixels: out)
    }

    /// Shrunk by area averaging to fit within `maxDimension` on its longer side (aspect kept).
    /// An image that already fits is returned as it is.
    public func downsampled(toFit maxDimension: Int) -> Image {
        let size = fittingSize(width: width, height: height, maxDimension: maxDimension)
        return downsampled(width: size.width, height: size.height)
    }

    /// Area-averaged (alpha-aware) to exactly `width`×`height`.
    public func downsampled(width: Int, height: Int) -> Image {
        resized(width: width, height: height, filter: .area)
    }
}

extension Mask {
    /// Resized to exactly `width`×`height`, values rounded and clamped to 0…255.
    public func resized(width: Int, height: Int, filter: ResamplingFilter = .bilinear) -> Mask {
        guard width > 0, height > 0, self.width > 0, self.height > 0 else { return Mask(width: max(width, 0), height: max(height, 0)) }
        if width == self.width, height == self.height { return self }
        let count = width * height
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            values.withUnsafeBufferPointer { source in
                resampleSeparable(
                    sourceWidth: self.width, sourceHeight: self.height, width: width, height: height, filter: filter,
                    load: { Float(source[$0]) },
                    store: { y, row in
                        let o = y * width
                        for (x, v) in row.enumerated() { buffer[o + x] = clampedByte(v) }
                    })
            }
            initialized = count
        }
        return Mask(width: width, height: height, values: out)
    }

    /// Shrunk by area averaging to fit within `maxDimension` on its longer side (aspect kept).
    public func downsampled(toFit maxDimension: Int) -> Mask {
        let size = fittingSize(width: width, height: height, maxDimension: maxDimension)
        return resized(width: size.width, height: size.height, filter: .area)
    }
}

extension Plane {
    /// Resized to exactly `width`×`height`. Values are not clamped (bicubic can overshoot).
    public func resized(width: Int, height: Int, filter: ResamplingFilter = .bilinear) -> Plane {
        guard width > 0, height > 0, self.width > 0, self.height > 0 else { return Plane(width: max(width, 0), height: max(height, 0)) }
        if width == self.width, height == self.height { return self }
        let count = width * height
        let out = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            values.withUnsafeBufferPointer { source in
                resampleSeparable(
                    sourceWidth: self.width, sourceHeight: self.height, width: width, height: height, filter: filter,
                    load: { source[$0] },
                    store: { y, row in
                        let o = y * width
                        for (x, v) in row.enumerated() { buffer[o + x] = v }
                    })
            }
            initialized = count
        }
        return Plane(width: width, height: height, values: out)
    }

    /// Shrunk by area averaging to fit within `maxDimension` on its longer side (aspect kept).
    public func downsampled(toFit maxDimension: Int) -> Plane {
        let size = fittingSize(width: width, height: height, maxDimension: maxDimension)
        return resized(width: size.width, height: size.height, filter: .area)
    }
}

@inline(__always)
private func clampedByte(_ value: Float) -> UInt8 {
    UInt8(min(max(value, 0), 255) + 0.5)
}
