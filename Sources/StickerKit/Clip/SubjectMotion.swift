import Raster

/// Where a subject is in a saliency plane, as a similarity model: its centre of mass and its size
/// (the square root of its mass). Between two network looks the subject is carried along this
/// model, so the masks in between move with it instead of cross-fading in place.
struct SubjectMotion: Sendable, Hashable {
    var centerX: Float
    var centerY: Float
    /// √(Σ saliency): grows linearly with the subject's side.
    var size: Float

    init?(_ plane: Plane) {
        var mass: Float = 0, sx: Float = 0, sy: Float = 0
        for y in 0..<plane.height {
            let row = y * plane.width
            var rowMass: Float = 0, rowX: Float = 0
            for x in 0..<plane.width {
                let v = plane.values[row + x]
                rowMass += v; rowX += v * Float(x)
            }
            mass += rowMass; sx += rowX; sy += rowMass * Float(y)
        }
        guard mass > 1 else { return nil }
        centerX = sx / mass
        centerY = sy / mass
        size = mass.squareRoot()
    }

    init(centerX: Float, centerY: Float, size: Float) {
        self.centerX = centerX
        self.centerY = centerY
        self.size = size
    }

    /// The model a fraction `t` (0…1) of the way from `self` to `other`.
    func interpolated(to other: SubjectMotion, _ t: Float) -> SubjectMotion {
        SubjectMotion(centerX: centerX + (other.centerX - centerX) * t,
                      centerY: centerY + (other.centerY - centerY) * t,
                      size: size + (other.size - size) * t)
    }

    /// `plane` (whose subject sits at `self`) moved and scaled so that its subject sits at `target`;
    /// bilinear, zero outside.
    func carry(_ plane: Plane, to target: SubjectMotion) -> Plane {
        let w = plane.width, h = plane.height
        let scale = size / max(1e-3, target.size)
        if abs(scale - 1) < 1e-4 && abs(centerX - target.centerX) < 1e-3 && abs(centerY - target.centerY) < 1e-3 {
            return plane
        }
        var out = [Float](repeating: 0, count: w * h)
        plane.values.withUnsafeBufferPointer { source in
            for y in 0..<h {
                let sy = centerY + (Float(y) - target.centerY) * scale
                guard sy > -1, sy < Float(h) else { continue }
                let y0 = Int(sy.rounded(.down)), fy = sy - Float(y0)
                for x in 0..<w {
                    let sx = centerX + (Float(x) - target.centerX) * scale
                    guard sx > -1, sx < Float(w) else { continue }
                    let x0 = Int(sx.rounded(.down)), fx = sx - Float(x0)
                    func at(_ xx: Int, _ yy: Int) -> Float {
                        xx >= 0 && yy >= 0 && xx < w && yy < h ? source[yy * w + xx] : 0
                    }
                    let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                    let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                    out[y * w + x] = top * (1 - fy) + bottom * fy
                }
            }
        }
        return Plane(width: w, height: h, values: out)
    }
}
