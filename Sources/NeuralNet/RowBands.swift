/// A float NCHW tensor kept as consecutive bands of rows (split along H), as a convolution split
/// over tasks produces it: each task writes its own band into its own array, so the bands are
/// never copied into one. Joining them was a serial pass over half of every split layer's output
/// on the calling task (~35 ms per 320 px look, most of it page faults of the fresh joined array).
/// The Winograd and narrow kernels read up to two bands where they lie (a split over two tasks,
/// what the app runs); a split over more tasks is joined as it ends, and the direct kernel and
/// every other operator get bands joined.
struct RowBands: Sendable {
    /// N, C, H, W of the whole tensor.
    let shape: [Int]
    /// Each band is `N × C × rows × W`; their rows add up to H, in order.
    let bands: [Tensor]

    /// One band: the tensor itself.
    init(_ tensor: Tensor) {
        shape = tensor.shape
        bands = [tensor]
    }

    /// Bands of a rank-4 tensor of `shape`; the caller guarantees the bands' shapes fit.
    init(shape: [Int], bands: [Tensor]) {
        self.shape = shape
        self.bands = bands
    }

    /// The first row of each band, and H last.
    var rowStarts: [Int] {
        var starts = [0]
        for band in bands { starts.append(starts.last! + (band.rank == 4 ? band.shape[2] : 0)) }
        return starts
    }

    /// The whole tensor in one array (the only band itself when there is one).
    var joined: Tensor {
        guard bands.count > 1 else { return bands[0] }
        var out = uninitializedFloats(shape.reduce(1, *))
        join(into: &out)
        return Tensor(uncheckedShape: shape, scalars: out)
    }

    /// Writes the whole tensor into `out` (as many floats as the tensor has).
    func join(into out: inout [Float]) {
        let (n, c, h, w) = (shape[0], shape[1], shape[2], shape[3])
        precondition(out.count == n * c * h * w, "join into an array of the wrong size")
        out.withUnsafeMutableBufferPointer { whole in
            var row0 = 0
            for band in bands {
                let rows = band.shape[2]
                band.scalars.withUnsafeBufferPointer { part in
                    for plane in 0..<(n * c) {
                        (whole.baseAddress! + (plane * h + row0) * w)
                            .update(from: part.baseAddress! + plane * rows * w, count: rows * w)
                    }
                }
                row0 += rows
            }
        }
    }

    /// Calls `body` with the bands' storage (at most two bands), valid during the call.
    func withPlanes<R>(_ body: (BandedPlanes) -> R) -> R {
        precondition(bands.count <= 2, "a convolution reads at most two bands in place")
        return bands[0].scalars.withUnsafeBufferPointer { first in
            guard bands.count == 2 else {
                return body(BandedPlanes(first: first.baseAddress!, second: first.baseAddress!,
                                         firstRows: shape[2], height: shape[2], width: shape[3]))
            }
            return bands[1].scalars.withUnsafeBufferPointer { second in
                body(BandedPlanes(first: first.baseAddress!, second: second.baseAddress!,
                                  firstRows: bands[0].shape[2], height: shape[2], width: shape[3]))
            }
        }
    }
}

/// The storage of a tensor of one or two row bands, as pointers: where plane `p` (image · C +
/// channel) keeps row `y`.
struct BandedPlanes {
    let first: UnsafePointer<Float>
    let second: UnsafePointer<Float>
    /// Rows in the first band (H when there is one band).
    let firstRows: Int
    let height: Int
    let width: Int

    /// One plane's rows.
    func plane(_ p: Int) -> PlaneRows {
        PlaneRows(first: first + p * firstRows * width, second: second + p * (height - firstRows) * width,
                  firstRows: firstRows, width: width)
    }
}

/// One channel plane's rows, stored in up to two bands.
struct PlaneRows {
    let first: UnsafePointer<Float>
    let second: UnsafePointer<Float>
    let firstRows: Int
    let width: Int

    /// A plane in one array.
    init(_ plane: UnsafePointer<Float>, width: Int) {
        first = plane; second = plane; firstRows = .max; self.width = width
    }

    init(first: UnsafePointer<Float>, second: UnsafePointer<Float>, firstRows: Int, width: Int) {
        self.first = first; self.second = second; self.firstRows = firstRows; self.width = width
    }

    /// Row `y`.
    @inline(__always)
    subscript(y: Int) -> UnsafePointer<Float> {
        y < firstRows ? first + y * width : second + (y - firstRows) * width
    }
}
