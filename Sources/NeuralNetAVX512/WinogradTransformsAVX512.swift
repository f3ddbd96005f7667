// The Winograd F(4×4, 3×3) input and output transforms with 512-bit vectors: 16 tiles per call
// where NeuralNetAVX2's transforms take 8. The formulas are NeuralNetPortable's, lane for lane (no
// fused multiply-adds in either), so all paths give the same bits; NeuralNet calls these only on
// CPUs with AVX-512 and falls back to the 8-tile transforms at the edges of a row. The formulas are
// written twice on purpose: a module is compiled for one CPU, and AVX2 machines must never run
// code compiled for this one.

/// Bᵀ applied down the columns x0..<x1 of six input rows r0…r5, into six rows of `t` `stride`
/// apart (t[x] ↔ input column x).
public func winogradInputColumnsAVX512(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, _ r2: UnsafePointer<Float>,
                                       _ r3: UnsafePointer<Float>, _ r4: UnsafePointer<Float>, _ r5: UnsafePointer<Float>,
                                       x0: Int, x1: Int, into t: UnsafeMutablePointer<Float>, stride: Int) {
    var x = x0
    while x + 16 <= x1 {
        let d0 = load16(r0 + x), d1 = load16(r1 + x), d2 = load16(r2 + x)
        let d3 = load16(r3 + x), d4 = load16(r4 + x), d5 = load16(r5 + x)
        store16(4 * d0 - 5 * d2 + d4, t + x)
        store16(d4 + d3 - 4 * (d1 + d2), t + stride + x)
        store16(d4 - d3 + 4 * (d1 - d2), t + 2 * stride + x)
        store16(d4 - d2 + 2 * (d3 - d1), t + 3 * stride + x)
        store16(d4 - d2 - 2 * (d3 - d1), t + 4 * stride + x)
        store16(4 * d1 - 5 * d3 + d5, t + 5 * stride + x)
        x += 16
    }
    while x < x1 {
        let d0 = r0[x], d1 = r1[x], d2 = r2[x], d3 = r3[x], d4 = r4[x], d5 = r5[x]
        t[x] = 4 * d0 - 5 * d2 + d4
        t[stride + x] = d4 + d3 - 4 * (d1 + d2)
        t[2 * stride + x] = d4 - d3 + 4 * (d1 - d2)
        t[3 * stride + x] = d4 - d2 + 2 * (d3 - d1)
        t[4 * stride + x] = d4 - d2 - 2 * (d3 - d1)
        t[5 * stride + x] = 4 * d1 - 5 * d3 + d5
        x += 1
    }
}

/// ·B along each of the six rows of `t` (`stride` apart) for 16 consecutive tiles (lanes): V[6i + j]
/// for the 16 slots at `v`, ξ rows `xiStride` apart. Reads 68 columns of each row.
public func winogradInputGroup16AVX512(_ t: UnsafePointer<Float>, stride: Int,
                                       into v: UnsafeMutablePointer<Float>, xiStride: Int) {
    for i in 0..<6 {
        let row = UnsafeRawPointer(t + i * stride)
        // Column 4l + s of tile l: s = 0…3 from 32-wide loads, 4 and 5 from the loads one tile on,
        // each half of 8 tiles as the AVX2 transform reads it, the halves joined.
        let a = row.loadUnaligned(as: SIMD32<Float>.self), a2 = row.loadUnaligned(fromByteOffset: 128, as: SIMD32<Float>.self)
        let b = row.loadUnaligned(fromByteOffset: 16, as: SIMD32<Float>.self)
        let b2 = row.loadUnaligned(fromByteOffset: 144, as: SIMD32<Float>.self)
        let even = a.evenHalf, odd = a.oddHalf, even2 = a2.evenHalf, odd2 = a2.oddHalf
        let d0 = SIMD16(lowHalf: even.evenHalf, highHalf: even2.evenHalf)
        let d2 = SIMD16(lowHalf: even.oddHalf, highHalf: even2.oddHalf)
        let d1 = SIMD16(lowHalf: odd.evenHalf, highHalf: odd2.evenHalf)
        let d3 = SIMD16(lowHalf: odd.oddHalf, highHalf: odd2.oddHalf)
        let d4 = SIMD16(lowHalf: b.evenHalf.evenHalf, highHalf: b2.evenHalf.evenHalf)
        let d5 = SIMD16(lowHalf: b.oddHalf.evenHalf, highHalf: b2.oddHalf.evenHalf)
        let out = v + 6 * i * xiStride
        store16(4 * d0 - 5 * d2 + d4, out)
        store16(d4 + d3 - 4 * (d1 + d2), out + xiStride)
        store16(d4 - d3 + 4 * (d1 - d2), out + 2 * xiStride)
        store16(d4 - d2 + 2 * (d3 - d1), out + 3 * xiStride)
        store16(d4 - d2 - 2 * (d3 - d1), out + 4 * xiStride)
        store16(4 * d1 - 5 * d3 + d5, out + 5 * xiStride)
    }
}

/// Aᵀ·M·A for 16 tiles (lanes) of one output channel, plus bias, optional ReLU and an optional
/// residual added last, written as `min(4, rowsLeft)` rows of 64 columns at `plane + row0·width`
/// (the caller checks the 16 tiles lie inside the row). M's 36 rows are `xiStride` apart.
public func winogradOutputGroup16AVX512(_ m: UnsafePointer<Float>, xiStride: Int, bias: Float, relu: Bool,
                                        into plane: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
                                        row0: Int, rowsLeft: Int, column0: Int, width: Int) {
    // The column pass's 24 vectors on the stack: `withUnsafeTemporaryAllocation` keeps at most
    // 1 KB there and would call malloc for these 1.5 KB on every call.
    var storage = ColumnPass()
    withUnsafeMutablePointer(to: &storage.rows) { rows in
        let q = UnsafeMutableRawPointer(rows).assumingMemoryBound(to: SIMD16<Float>.self)
        // Column pass: q[a][j] = Σ_i Aᵀ[a][i] m[i][j].
        for j in 0..<6 {
            let m0 = load16(m + j * xiStride), m1 = load16(m + (6 + j) * xiStride), m2 = load16(m + (12 + j) * xiStride)
            let m3 = load16(m + (18 + j) * xiStride), m4 = load16(m + (24 + j) * xiStride), m5 = load16(m + (30 + j) * xiStride)
            let s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4
            q[j] = m0 + s12 + s34
            q[6 + j] = d12 + 2 * d34
            q[12 + j] = s12 + 4 * s34
            q[18 + j] = d12 + 8 * d34 + m5
        }
        let bias16 = SIMD16<Float>(repeating: bias)
        for a in 0..<min(4, rowsLeft) {
            let r = a * 6
            let s12 = q[r + 1] + q[r + 2], d12 = q[r + 1] - q[r + 2], s34 = q[r + 3] + q[r + 4], d34 = q[r + 3] - q[r + 4]
            var y0 = q[r] + s12 + s34 + bias16
            var y1 = d12 + 2 * d34 + bias16
            var y2 = s12 + 4 * s34 + bias16
            var y3 = d12 + 8 * d34 + q[r + 5] + bias16
            if relu {
                y0.replace(with: 0, where: y0 .< 0); y1.replace(with: 0, where: y1 .< 0)
                y2.replace(with: 0, where: y2 .< 0); y3.replace(with: 0, where: y3 .< 0)
            }
            let offset = (row0 + a) * width + column0
            let row = plane + offset
            UnsafeMutableRawPointer(row).storeBytes(of: interleaved(y0.lowHalf, y1.lowHalf, y2.lowHalf, y3.lowHalf),
                                                    as: SIMD32<Float>.self)
            UnsafeMutableRawPointer(row + 32).storeBytes(of: interleaved(y0.highHalf, y1.highHalf, y2.highHalf, y3.highHalf),
                                                         as: SIMD32<Float>.self)
            if let residual {
                let r = residual + offset
                store16(load16(row) + load16(r), row); store16(load16(row + 16) + load16(r + 16), row + 16)
                store16(load16(row + 32) + load16(r + 32), row + 32); store16(load16(row + 48) + load16(r + 48), row + 48)
            }
        }
    }
}

/// Room for the output transform's 24 column-pass vectors.
private struct ColumnPass {
    // A homogeneous tuple: its memory is bound to its element type too, so it can be read as
    // SIMD16 pointers.
    var rows: (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>,
               SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>,
               SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>,
               SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>) =
        (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero,
         .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)
}

/// 8 tiles' four output columns in column order, y0[0] y1[0] y2[0] y3[0] y0[1] …, as the AVX2
/// transform writes them: pairs of floats, then pairs of pairs.
@inline(__always)
private func interleaved(_ y0: SIMD8<Float>, _ y1: SIMD8<Float>, _ y2: SIMD8<Float>, _ y3: SIMD8<Float>) -> SIMD32<Float> {
    var low = SIMD16<Float>(), high = SIMD16<Float>()
    low.evenHalf = y0; low.oddHalf = y1
    high.evenHalf = y2; high.oddHalf = y3
    var all = SIMD16<UInt64>()
    all.evenHalf = unsafeBitCast(low, to: SIMD8<UInt64>.self)
    all.oddHalf = unsafeBitCast(high, to: SIMD8<UInt64>.self)
    return unsafeBitCast(all, to: SIMD32<Float>.self)
}
