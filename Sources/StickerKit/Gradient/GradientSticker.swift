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
        // Blend in linear light so mid-gradient colours do not go muddy.
        let linearStops = stops.map { $0.srgbToLinear }
        let span = Float(max(width + height - 2, 1))

        canvas.pixels.withUnsafeMutableBufferPointer { out in
            sticker.pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    for x in 0..<width {
                        let t = Float(x + y) / span
                        var color = Self.sample(linearStops, at: t)
                        let sx = x - margin, sy = y - margin
                        if sx >= 0, sy >= 0, sx < sticker.width, sy < sticker.height {
                            let s = (sy * sticker.width + sx) * 4
                            let alpha = Float(src[s + 3]) / 255
                            if alpha > 0 {
                                let top = SIMD3<Float>(Float(src[s]), Float(src[s + 1]), Float(src[s + 2])).srgbToLinear
                                color = color * (1 - alpha) + top * alpha
                            }
                        }
                        let srgb = color.linearToSRGB
                        let o = (y * width + x) * 4
                        out[o] = UInt8(srgb.x.rounded())
                        out[o + 1] = UInt8(srgb.y.rounded())
                        out[o + 2] = UInt8(srgb.z.rounded())
                        out[o + 3] = 255
                    }
                }
            }
        }
        return canvas
    }

    private static func sample(_ stops: [SIMD3<Float>], at t: Float) -> SIMD3<Float> {
        guard stops.count > 1 else { return stops[0] }
        let position = min(max(t, 0), 1) * Float(stops.count - 1)
        let index = min(Int(position), stops.count - 2)
        let f = position - Float(index)
        return stops[index] * (1 - f) + stops[index + 1] * f
    }
}

private extension SIMD3<Float> {
    /// 0…255 sRGB to 0…1 linear light.
    var srgbToLinear: SIMD3<Float> {
        let c = self / 255
        return SIMD3(c.x.srgbChannelToLinear, c.y.srgbChannelToLinear, c.z.srgbChannelToLinear)
    }

    /// 0…1 linear light to 0…255 sRGB.
    var linearToSRGB: SIMD3<Float> {
        SIMD3(x.linearChannelToSRGB, y.linearChannelToSRGB, z.linearChannelToSRGB) * 255
    }
}

private extension Float {
    var srgbChannelToLinear: Float { self <= 0.04045 ? self / 12.92 : pow((self + 0.055) / 1.055, 2.4) }
    var linearChannelToSRGB: Float {
        let v = Swift.min(Swift.max(self, 0), 1)
        return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}

import Foundation
