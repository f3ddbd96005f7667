/// A float NCHW tensor as a convolution split over tasks leaves it: in one array of its own
/// (`SharedFloats`), which every task of the convolution wrote the rows it claimed into, so the
/// tasks' parts are never copied into one and no task needs room for rows it might not take.
/// (Until the ninth session each task wrote a band of rows into an array of its own and the
/// bands stayed apart; the name is from then.) The convolution kernels read it in place; every
/// other operator reads it `joined` into a Swift array. A tensor in a Swift array is kept as it
/// is (a convolution not split, an input).
struct RowBands: Sendable {
    /// N, C, H, W of the whole tensor.
    let shape: [Int]
    private let storage: Storage

    private enum Storage: Sendable {
        case array(Tensor)
        case shared(SharedFloats)
    }

    /// The tensor itself.
    init(_ tensor: Tensor) {
        shape = tensor.shape
        storage = .array(tensor)
    }

    /// The tensor of `shape` in `values` (as many floats as the shape has, every one written).
    init(shape: [Int], values: SharedFloats) {
        precondition(values.count == shape.reduce(1, *), "a tensor's values do not fill its shape")
        self.shape = shape
        storage = .shared(values)
    }

    /// The tensor when it is in a Swift array, nil when in shared storage.
    var tensor: Tensor? {
        if case .array(let t) = storage { t } else { nil }
    }

    /// The shared storage, if the tensor is in one.
    var sharedValues: SharedFloats? {
        if case .shared(let values) = storage { values } else { nil }
    }

    /// The whole tensor in a Swift array (a copy when it is in shared storage).
    var joined: Tensor {
        switch storage {
        case .array(let t): return t
        case .shared(let values):
            return Tensor(uncheckedShape: shape, scalars: [Float](UnsafeBufferPointer(start: values.pointer, count: values.count)))
        }
    }

    /// Calls `body` with the tensor's storage, valid during the call.
    func withPlanes<R>(_ body: (BandedPlanes) -> R) -> R {
        switch storage {
        case .array(let t):
            return t.scalars.withUnsafeBufferPointer { body(BandedPlanes(first: $0.baseAddress!, height: shape[2], width: shape[3])) }
        case .shared(let values):
            // `values` is alive for the call: this value holds it.
            return withExtendedLifetime(values) {
                body(BandedPlanes(first: UnsafePointer(values.pointer), height: shape[2], width: shape[3]))
            }
        }
    }
}

/// The storage of a tensor as a pointer: where plane `p` (image · C + channel) keeps its rows.
struct BandedPlanes {
    /// Row 0 of plane 0.
    let first: UnsafePointer<Float>
    let height: Int
    let width: Int

    /// One plane's rows.
    func plane(_ p: Int) -> PlaneRows {
        PlaneRows(first + p * height * width, width: width)
    }

    /// Row `y` of channel 0 of image `image` (of `channels`), and how far apart its planes are.
    func rows(_ y: Int, image: Int, channels: Int) -> (rows: UnsafePointer<Float>, planeStride: Int) {
        (first + (image * channels * height + y) * width, height * width)
    }
}

/// Floats in memory this object allocates and frees, written through its pointer by several
/// tasks at once: the output of a convolution split over tasks, each task writing the rows (or
/// channels) it claimed.
///
/// Why `@unchecked Sendable`, and why it is safe. The tasks of one split convolution must write
/// into one array, and a Swift array cannot be that: its pointer is valid only inside
/// `withUnsafeMutableBufferPointer`, whose closure cannot await the tasks, and two tasks mutating
/// one array (or one class's array property) race on the array itself. A `Mutex` around the
/// memory would serialise the writes, which are the whole work. So the memory is allocated here,
/// its lifetime this object's (freed in `deinit`, never earlier), and the pointer is a `let`.
/// Every write happens inside `Convolution.callAsFunction(_:residual:filters:helpers:scratch:)`:
/// - the object is made there (or taken from a scratch's pool only when `isKnownUniquelyReferenced`,
///   so nobody else holds it) before any task starts, and handed to the tasks by the task group;
/// - each task writes only the rows its claims give it (`TileRowClaims`: an atomic counter hands
///   every tile row out exactly once) or its fixed block of channels: no two tasks write one float;
/// - the group is awaited before the convolution returns the storage in a `RowBands`; the
///   group's end orders every write before every later read, on any thread;
/// - from then on the memory is only read (the kernels, `joined`) until the object is recycled,
///   which again requires that nobody else holds it.
/// Memory not yet written is only ever written first (the kernels write every output value
/// before anyone reads it; `Float` is trivial, so assigning to fresh memory initializes it).
final class SharedFloats: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
    }

    deinit { pointer.deallocate() }
}

/// One channel plane's rows, stored in up to two arrays (split convolutions once left two bands;
/// a plane is now always in one, but the two-array form keeps `ChannelRows` at the 64 bytes it is tuned for).
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
