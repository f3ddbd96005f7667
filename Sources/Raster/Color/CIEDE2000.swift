import Foundation

extension CIELab {
    /// The CIEDE2000 colour difference (kL = kC = kH = 1), per Sharma, Wu and Dalal (2005).
    public func deltaE2000(to other: CIELab) -> Double {
        let (L1, a1, b1) = (L, a, b)
        let (L2, a2, b2) = (other.L, other.a, other.b)
        let C1 = (a1 * a1 + b1 * b1).squareRoot(), C2 = (a2 * a2 + b2 * b2).squareRoot()
        let meanC = (C1 + C2) / 2
        let meanC7 = pow(meanC, 7)
        let G = 0.5 * (1 - (meanC7 / (meanC7 + pow(25, 7))).squareRoot())
        let a1p = (1 + G) * a1, a2p = (1 + G) * a2
        let C1p = (a1p * a1p + b1 * b1).squareRoot(), C2p = (a2p * a2p + b2 * b2).squareRoot()
        let h1p = Self.hueDegrees(b1, a1p), h2p = Self.hueDegrees(b2, a2p)

        let dLp = L2 - L1
        let dCp = C2p - C1p
        var dhp = 0.0
        if C1p * C2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * (C1p * C2p).squareRoot() * sin(radians(dhp / 2))

        let meanLp = (L1 + L2) / 2
        let meanCp = (C1p + C2p) / 2
        var meanhp = h1p + h2p
        if C1p * C2p != 0 {
            if abs(h1p - h2p) <= 180 { meanhp /= 2 } else if h1p + h2p < 360 { meanhp = (meanhp + 360) / 2 } else { meanhp = (meanhp - 360) / 2 }
        }
        let T = 1 - 0.17 * cos(radians(meanhp - 30)) + 0.24 * cos(radians(2 * meanhp))
            + 0.32 * cos(radians(3 * meanhp + 6)) - 0.20 * cos(radians(4 * meanhp - 63))
        let dTheta = 30 * exp(-pow((meanhp - 275) / 25, 2))
        let meanCp7 = pow(meanCp, 7)
        let RC = 2 * (meanCp7 / (meanCp7 + pow(25, 7))).squareRoot()
        let lightness50 = (meanLp - 50) * (meanLp - 50)
        let SL = 1 + 0.015 * lightness50 / (20 + lightness50).squareRoot()
        let SC = 1 + 0.045 * meanCp
        let SH = 1 + 0.015 * meanCp * T
        let RT = -sin(radians(2 * dTheta)) * RC

        let l = dLp / SL, c = dCp / SC, h = dHp / SH
        return (l * l + c * c + h * h + RT * c * h).squareRoot()
    }

    /// A bound `deltaE2000(to:)` is never below, for the price of a few multiplications: its
    /// lightness term alone. (The formula is √(l² + c² + h² + R_T·c·h) with |R_T| ≤ 2, and
    /// l² + c² + h² − 2|c·h| = l² + (|c| − |h|)² ≥ l².) A nearest-colour search skips the full
    /// formula for candidates whose bound already exceeds the best distance found.
    public func deltaE2000LowerBound(to other: CIELab) -> Double {
        let meanLp = (L + other.L) / 2
        let lightness50 = (meanLp - 50) * (meanLp - 50)
        let SL = 1 + 0.015 * lightness50 / (20 + lightness50).squareRoot()
        return abs(other.L - L) / SL
    }

    private static func hueDegrees(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }
}

@inline(__always) private func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
