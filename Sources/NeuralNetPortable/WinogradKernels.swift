// The Winograd F(4×4, 3×3) convolution's kernels on 8 tiles (lanes) at a time: the input
// transform, the 36 matrix products and the output transform (see NeuralNet's
// WinogradConvolution.swift for the layouts). AVX-512 has its own in NeuralNetAVX512, lane for lane
// the same arithmetic.

/// Bᵀ applied down the columns x0..<x1 of six input rows: six rows of `t` (t[x] ↔ input column x).
public func winogradInputColumns(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, _ r2: UnsafePointer<Float>,
                                 _ r3: UnsafePointer<Float>, _ r4: UnsafePointer<Float>, _ r5: UnsafePointer<Float>,
                                 x0: Int, x1: Int, into t: UnsafeMutablePointer<Float>, stride: Int) {
    var x = x0
    while x + 8 <= x1 {
        let d0 = load8(r0 + x), d1 = load8(r1 + x), d2 = load8(r2 + x)
        let d3 = load8(r3 + x), d4 = load8(r4 + x), d5 = load8(r5 + x)
        store8(4 * d0 - 5 * d2 + d4, t + x)
        store8(d4 + d3 - 4 * (d1 + d2), t + stride + x)
        store8(d4 - d3 + 4 * (d1 - d2), t + 2 * stride + x)
        store8(d4 - d2 + 2 * (d3 - d1), t + 3 * stride + x)
        store8(d4 - d2 - 2 * (d3 - d1), t + 4 * stride + x)
        store8(4 * d1 - 5 * d3 + d5, t + 5 * stride + x)
        x += 8
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

/// ·B along each of the six rows for 8 consecutive tiles (lanes), storing V[6i + j] for the group.
public func winogradInputGroup(_ t: UnsafePointer<Float>, stride: Int,
                              into v: UnsafeMutablePointer<Float>, xiStride: Int) {
    for i in 0..<6 {
        let row = UnsafeRawPointer(t + i * stride)
        // De-interleave columns 4l + s of the 8 tiles: s = 0…3 from one 32-wide load, 4 and 5 from
        // the next tile's first two columns.
        let a = row.loadUnaligned(as: SIMD32<Float>.self)
        let b = row.loadUnaligned(fromByteOffset: 16, as: SIMD32<Float>.self)
        let even = a.evenHalf, odd = a.oddHalf
        let d0 = even.evenHalf, d2 = even.oddHalf, d1 = odd.evenHalf, d3 = odd.oddHalf
        let d4 = b.evenHalf.evenHalf, d5 = b.oddHalf.evenHalf
        let out = v + 6 * i * xiStride
        store8(4 * d0 - 5 * d2 + d4, out)
        store8(d4 + d3 - 4 * (d1 + d2), out + xiStride)
        store8(d4 - d3 + 4 * (d1 - d2), out + 2 * xiStride)
        store8(d4 - d2 + 2 * (d3 - d1), out + 3 * xiStride)
        store8(d4 - d2 - 2 * (d3 - d1), out + 4 * xiStride)
        store8(4 * d1 - 5 * d3 + d5, out + 5 * xiStride)
    }
}

/// For one ξ: m[k·mStride + s] = Σ_c u[k/4][c][k%4] · v[c][s] for k < paddedK and s < slots (a
/// multiple of 24), with u packed in blocks of 4 output channels as NeuralNet's WinogradFilter stores it.
public func winogradProducts(u: UnsafePointer<Float>, v: UnsafePointer<Float>, m: UnsafeMutablePointer<Float>,
                             mStride: Int, inChannels: Int, paddedOutChannels: Int, slots: Int) {
    for kb in 0..<(paddedOutChannels / 4) {
        let uBlock = u + kb * inChannels * 4
        let mBlock = m + 4 * kb * mStride
        var column = 0
        while column < slots {
            winogradKernel4x24(u: uBlock, v: v + column, vStride: slots, count: inChannels, m: mBlock + column, mStride: mStride)
            column += 24
        }
    }
}

/// m[0..<4][0..<24] = Σ_c u[c][0..<4] · v[c][0..<24]: 12 accumulators of SIMD8 (AVX2: 16 registers).
@inline(__always)
private func winogradKernel4x24(u: UnsafePointer<Float>, v: UnsafePointer<Float>, vStride: Int, count: Int,
                                m: UnsafeMutablePointer<Float>, mStride: Int) {
    var a00 = SIMD8<Float>(), a01 = SIMD8<Float>(), a02 = SIMD8<Float>()
    var a10 = SIMD8<Float>(), a11 = SIMD8<Float>(), a12 = SIMD8<Float>()
    var a20 = SIMD8<Float>(), a21 = SIMD8<Float>(), a22 = SIMD8<Float>()
    var a30 = SIMD8<Float>(), a31 = SIMD8<Float>(), a32 = SIMD8<Float>()
    var vp = v, up = u
    for _ in 0..<count {
        let v0 = load8(vp), v1 = load8(vp + 8), v2 = load8(vp + 16)
        let u0 = SIMD8(repeating: up[0]), u1 = SIMD8(repeating: up[1])
        let u2 = SIMD8(repeating: up[2]), u3 = SIMD8(repeating: up[3])
        multiplyAdd(&a00, u0, v0); multiplyAdd(&a01, u0, v1); multiplyAdd(&a02, u0, v2)
        multiplyAdd(&a10, u1, v0); multiplyAdd(&a11, u1, v1); multiplyAdd(&a12, u1, v2)
        multiplyAdd(&a20, u2, v0); multiplyAdd(&a21, u2, v1); multiplyAdd(&a22, u2, v2)
        multiplyAdd(&a30, u3, v0); multiplyAdd(&a31, u3, v1); multiplyAdd(&a32, u3, v2)
        vp += vStride
        up += 4
    }
    store8(a00, m); store8(a01, m + 8); store8(a02, m + 16)
    store8(a10, m + mStride); store8(a11, m + mStride + 8); store8(a12, m + mStride + 16)
    store8(a20, m + 2 * mStride); store8(a21, m + 2 * mStride + 8); store8(a22, m + 2 * mStride + 16)
    store8(a30, m + 3 * mStride); store8(a31, m + 3 * mStride + 8); store8(a32, m + 3 * mStride + 16)
}

/// Aᵀ·M·A for 8 tiles (lanes) of one output channel, plus bias and optional ReLU, written into the
/// output plane where the tiles fall inside it.
/// `residual`, when given, is a plane laid out like `plane` whose values are added last (after the
/// ReLU: a fused residual Add).
public func winogradOutputGroup(_ m: UnsafePointer<Float>, xiStride: Int, bias: Float, relu: Bool,
                                into plane: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
                                row0: Int, rowsLeft: Int, tileX0: Int, tilesX: Int, width: Int) {
    withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 24) { q in
    // Column pass: q[a][j] = Σ_i Aᵀ[a][i] m[i][j].
    for j in 0..<6 {
        let m0 = load8(m + j * xiStride), m1 = load8(m + (6 + j) * xiStride), m2 = load8(m + (12 + j) * xiStride)
        let m3 = load8(m + (18 + j) * xiStride), m4 = load8(m + (24 + j) * xiStride), m5 = load8(m + (30 + j) * xiStride)
        let s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4
        q[j] = m0 + s12 + s34
        q[6 + j] = d12 + 2 * d34
        q[12 + j] = s12 + 4 * s34
        q[18 + j] = d12 + 8 * d34 + m5
    }
    let bias8 = SIMD8<Float>(repeating: bias)
    let tilesHere = min(8, tilesX - tileX0)
    let fullWidth = 4 * (tileX0 + 8) <= width
    for a in 0..<min(4, rowsLeft) {
        let r = a * 6
        let s12 = q[r + 1] + q[r + 2], d12 = q[r + 1] - q[r + 2], s34 = q[r + 3] + q[r + 4], d34 = q[r + 3] - q[r + 4]
        var y0 = q[r] + s12 + s34 + bias8
        var y1 = d12 + 2 * d34 + bias8
        var y2 = s12 + 4 * s34 + bias8
        var y3 = d12 + 8 * d34 + q[r + 5] + bias8
        if relu {
            y0.replace(with: 0, where: y0 .< 0); y1.replace(with: 0, where: y1 .< 0)
            y2.replace(with: 0, where: y2 .< 0); y3.replace(with: 0, where: y3 .< 0)
        }
        let offset = (row0 + a) * width + 4 * tileX0
        let row = plane + offset
        if fullWidth {
            // Interleave to y0[0] y1[0] y2[0] y3[0] y0[1] …: pairs of floats, then pairs of pairs.
            var low = SIMD16<Float>(), high = SIMD16<Float>()
            low.evenHalf = y0; low.oddHalf = y1
            high.evenHalf = y2; high.oddHalf = y3
            var all = SIMD16<UInt64>()
            all.evenHalf = unsafeBitCast(low, to: SIMD8<UInt64>.self)
            all.oddHalf = unsafeBitCast(high, to: SIMD8<UInt64>.self)
            UnsafeMutableRawPointer(row).storeBytes(of: unsafeBitCast(all, to: SIMD32<Float>.self), as: SIMD32<Float>.self)
            if let residual {
                let r = residual + offset
                store8(load8(row) + load8(r), row); store8(load8(row + 8) + load8(r + 8), row + 8)
                store8(load8(row + 16) + load8(r + 16), row + 16); store8(load8(row + 24) + load8(r + 24), row + 24)
            }
        } else {
            let columnsLeft = width - 4 * tileX0
            for l in 0..<tilesHere {
                let ys = (y0[l], y1[l], y2[l], y3[l])
                if 4 * l < columnsLeft { row[4 * l] = ys.0 }
                if 4 * l + 1 < columnsLeft { row[4 * l + 1] = ys.1 }
                if 4 * l + 2 < columnsLeft { row[4 * l + 2] = ys.2 }
                if 4 * l + 3 < columnsLeft { row[4 * l + 3] = ys.3 }
            }
            if let residual {
                for x in 0..<min(columnsLeft, 4 * tilesHere) { row[x] += residual[offset + x] }
            }
        }
    }
    }
}
