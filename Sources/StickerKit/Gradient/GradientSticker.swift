import Raster

/// The sticker composited over a linear gradient of its photo's colours: the picture a person
/// shares when a transparent PNG will not do.
public struct GradientSticker: Sendable {
    /// Space around the sticker, as a fraction of its longer side.
    public var padding: Double = 0.12

    public init(padding: Double = 0.12) {
        self.padding = padding
    }

    /// Renders `sticker` centred on an opaque canvas whose background runs diagonally through the
    /// scheme's colours, heaviest first. A scheme with no colours gives a white background.
    public func render(_ sticker: Image, colors: [PaletteColor]) -> Image {
        let margin = Int((Double(max(sticker.width, sticker.height)) * padding).rounded())
        let width = sticker.width + 2 * margin
        let height = sticker.height + 2 * margin
        var canvas = Image(width: width, height: height)
        let stops = colors.isEmpty ? [SIMD3<Float>(255, 255, 255)] : colors.map {
            SIMD3<Float>(Float($0.red), Float($0.green), Float($0.blue))
        }
        // Blend in linear light so mid-gradient colours do not go muddy. The background depends only
        // on x + y: one linear colour per diagonal, computed once.
        let linearStops = stops.map { SIMD3<Float>(SRGB.toLinear(UInt8($0.x)), SRGB.toLinear(UInt8($0.y)), SRGB.toLinear(UInt8($0.z))) }
        let span = Float(max(width + height - 2, 1))
        let diagonals = (0..<max(width + height - 1, 1)).map { Self.sample(linearStops, at: Float($0) / span) }
        let diagonalCodes = diagonals.map(Self.encode)

        canvas.pixels.withUnsafeMutableBufferPointer { out in
            sticker.pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    for x in 0..<width {
                        var code = diagonalCodes[x + y]
                        let sx = x - margin, sy = y - margin
                        if sx >= 0, sy >= 0, sx < sticker.width, sy < sticker.height {
                            let s = (sy * sticker.width + sx) * 4
                            let alpha = src[s + 3]
                            if alpha == 255 {
                                code = SIMD3(src[s], src[s + 1], src[s + 2])
                            } else if alpha > 0 {
                                let a = Float(alpha) / 255
                                let top = SIMD3<Float>(SRGB.toLinear(src[s]), SRGB.toLinear(src[s + 1]), SRGB.toLinear(src[s + 2]))
                                code = Self.encode(diagonals[x + y] * (1 - a) + top * a)
                            }
                        }
                        let o = (y * width + x) * 4
                        out[o] = code.x
                        out[o + 1] = code.y
                        out[o + 2] = code.z
                        out[o + 3] = 255
                    }
                }
            }
        }
        return canvas
    }

    private static func encode(_ linear: SIMD3<Float>) -> SIMD3<UInt8> {
        SIMD3(SRGB.encode8(Double(linear.x)), SRGB.encode8(Double(linear.y)), SRGB.encode8(Double(linear.z)))
    }

    private static func sample(_ stops: [SIMD3<Float>], at t: Float) -> SIMD3<Float> {
        guard stops.count > 1 else { return stops[0] }
        let position = min(max(t, 0), 1) * Float(stops.count - 1)
        let index = min(Int(position), stops.count - 2)
        let f = position - Float(index)
        return stops[index] * (1 - f) + stops[index + 1] * f
    }
}
