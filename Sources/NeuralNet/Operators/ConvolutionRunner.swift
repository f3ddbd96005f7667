import Synchronization

/// How a convolution's output is split between tasks.
enum ConvolutionSplit {
    /// Blocks of output channels (the direct kernel): each part is `count` whole planes.
    case channels
    /// Blocks of 4-row Winograd tile rows (groups of 4 rows for the narrow kernel): each part is
    /// every channel's band of rows.
    case tileRows
}

extension Convolution {
    var split: ConvolutionSplit { winograd == nil && !narrow ? .channels : .tileRows }

    /// `part` of image `image` by the fastest kernel that applies. The input channels are those of
    /// `x` in order (several parts when a channel Concat was fused into this convolution).
    /// `output` points at the part's first value; for `.tileRows`, channel planes are `planeStride` apart.
    /// `residual` (the output's shape; not the direct kernel) is added to the output after the ReLU.
    /// `filters`: the Winograd kernel's transformed filters when the session keeps them.
    func compute(_ x: [ConvolutionInput], residual: RowBands? = nil, image: Int, part: Range<Int>,
                 into output: UnsafeMutablePointer<Float>, planeStride: Int, filters: TransformedFilters? = nil,
                 scratch: inout WinogradScratch) {
        let (_, _, h, w) = x[0].shape
        let (oh, ow) = outputSize(h: h, w: w)
        guard split == .channels else {
            var left: Range<Int>? = part
            return computeRows(x, residual: residual, image: image, next: { defer { left = nil }; return left },
                               output: { output + 4 * ($0.lowerBound - part.lowerBound) * ow }, planeStride: planeStride,
                               filters: filters, scratch: &scratch)
        }
        withChannelRows(x, image: image) { channels, _ in
            // The direct kernel reads whole planes: its inputs are never fused.
            precondition(channels.allSatisfy { $0.kind == .stored }, "the direct kernel reads stored planes only")
            let planes = channels.map(\.rows.first)
            if outChannels >= 8 {
                return convolveAcrossChannels(planes: planes, h: h, w: w, oh: oh, ow: ow, channels: part, output: output,
                                              kernels: scratch.kernels)
            }
            convolveDirect(planes: planes, h: h, w: w, oh: oh, ow: ow, channels: part, output: output)
        }
    }

    /// Tile rows of image `image` by the Winograd or narrow kernel, for each part `next` hands out
    /// until it returns nil (each task of a split convolution claims them as it goes). `output(part)`
    /// is where the part's first row of channel 0 goes; channel planes are `planeStride` apart.
    /// `residual` (the output's shape) is added after the ReLU.
    func computeRows(_ x: [ConvolutionInput], residual: RowBands?, image: Int, next: () -> Range<Int>?,
                     output: (Range<Int>) -> UnsafeMutablePointer<Float>, planeStride: Int,
                     filters: TransformedFilters?, scratch: inout WinogradScratch) {
        let (_, _, h, w) = x[0].shape
        let (oh, ow) = outputSize(h: h, w: w)
        withChannelRows(x, image: image) { channels, tables in
        withResidualPlanes(residual) { planes in
            func destination(_ part: Range<Int>) -> (output: UnsafeMutablePointer<Float>, residual: ResidualRows?) {
                (output(part), planes.map { p in
                    let (rows, planeStride) = p.rows(4 * part.lowerBound, image: image, channels: outChannels)
                    return ResidualRows(rows: rows, planeStride: planeStride)
                })
            }
            if let winograd {
                return convolveWinograd(winograd, channels: channels, tables: tables, h: h, w: w, oh: oh, ow: ow,
                                        next: next, destination: destination, planeStride: planeStride,
                                        transformed: filters, scratch: &scratch)
            }
            while let part = next() {
                let (out, residualRows) = destination(part)
                convolveNarrow(channels: channels, h: h, w: w, oh: oh, ow: ow, rows: (4 * part.lowerBound)..<(4 * part.upperBound),
                               output: out, planeStride: planeStride, residual: residualRows, kernels: scratch.kernels)
            }
        }}
    }

    /// Calls `body` with the residual's storage, or nil without one.
    private func withResidualPlanes(_ residual: RowBands?, _ body: (BandedPlanes?) -> Void) {
        guard let residual else { return body(nil) }
        residual.withPlanes { body($0) }
    }

    /// Calls `body` with every input channel of one image and the resize tables they refer to,
    /// valid during the call.
    private func withChannelRows(_ x: [ConvolutionInput], image: Int,
                                 _ body: ([ChannelRows], UnsafePointer<ResizeTable>) -> Void) {
        var channels: [ChannelRows] = []
        channels.reserveCapacity(inChannels)
        var tables: [ResizeTable] = []
        func collect(_ index: Int) {
            if index == x.count {
                return tables.withUnsafeBufferPointer { t in
                    withUnsafeTemporaryAllocation(of: ResizeTable.self, capacity: 1) { none in
                        body(channels, t.baseAddress ?? UnsafePointer(none.baseAddress!))
                    }
                }
            }
            let source = x[index].source
            let (c, sh, sw) = (source.shape[1], source.shape[2], source.shape[3])
            source.withPlanes { planes in
                func add(_ kind: ChannelRows.Kind, table: Int = 0) {
                    for channel in 0..<c {
                        channels.append(ChannelRows(rows: planes.plane(image * c + channel),
                                                    sourceHeight: sh, sourceWidth: sw, kind: kind, table: table))
                    }
                }
                switch x[index] {
                case .tensor:
                    add(.stored)
                    collect(index + 1)
                case .pooled:
                    add(.pooled)
                    collect(index + 1)
                case .resized(_, let rows, let columns):
                    rows.withUnsafeBufferPointer { r in
                    columns.withUnsafeBufferPointer { cs in
                        add(.resized, table: tables.count)
                        tables.append(ResizeTable(doubling: ResizeTable.isDoubling(columns, sourceWidth: sw),
                                                  rows: r.baseAddress!, columns: cs.baseAddress!))
                        collect(index + 1)
                    }}
                }
            }
        }
        collect(0)
    }

    /// The whole of one image's output, as parts.
    func wholeRange(oh: Int) -> Range<Int> {
        split == .channels ? 0..<outChannels : 0..<((oh + 3) / 4)
    }

    /// The whole convolution on the calling task (one core).
    func callAsFunction(_ x: [Tensor], scratch: inout WinogradScratch) throws(ModelError) -> Tensor {
        try self(x.map { .tensor($0) }, scratch: &scratch)
    }

    /// The whole convolution on the calling task (one core).
    func callAsFunction(_ x: [ConvolutionInput], residual: RowBands? = nil, filters: TransformedFilters? = nil,
                        scratch: inout WinogradScratch) throws(ModelError) -> Tensor {
        let d = try validate(x, residual: residual)
        let plane = d.oh * d.ow
        var out = scratch.takeBuffer(d.n * outChannels * plane)
        out.withUnsafeMutableBufferPointer { buffer in
            for image in 0..<d.n {
                compute(x, residual: residual, image: image, part: wholeRange(oh: d.oh),
                        into: buffer.baseAddress! + image * outChannels * plane, planeStride: plane, filters: filters,
                        scratch: &scratch)
            }
        }
        return Tensor(uncheckedShape: [d.n, outChannels, d.oh, d.ow], scalars: out)
    }

    /// The convolution split over `1 + helpers.count` tasks, in one array.
    func callAsFunction(_ x: [Tensor], helpers: inout [WinogradScratch],
                        scratch: inout WinogradScratch) async throws(ModelError) -> Tensor {
        try await self(x.map { .tensor($0) }, helpers: &helpers, scratch: &scratch).joined
    }

    /// The convolution split over `1 + helpers.count` tasks, all writing into one output
    /// (`SharedFloats`, recycled through this task's scratch): a Winograd or narrow convolution's
    /// tile rows are claimed a few at a time by whichever task is free (`TileRowClaims`), so a
    /// helper that starts a wake-up late, or rows that cost more than others, leave no core idle;
    /// the direct kernel's parts (blocks of output channels, small layers) are fixed, one a task.
    /// No task writes a value another does, and nothing is copied or joined afterwards. Each
    /// helper's scratch is moved into its task and back, so its buffers are reused from layer to
    /// layer. `filters` (the session's transformed filters, if it keeps them) is read by every
    /// task. Every output value is computed by the same code whichever task computes it, so the
    /// result does not depend on the division.
    func callAsFunction(_ x: [ConvolutionInput], residual: RowBands? = nil, filters: TransformedFilters? = nil,
                        helpers: inout [WinogradScratch], scratch: inout WinogradScratch) async throws(ModelError) -> RowBands {
        let d = try validate(x, residual: residual)
        let parts = split(wholeRange(oh: d.oh), into: 1 + helpers.count)
        if parts.count < 2 { return RowBands(try self(x, residual: residual, filters: filters, scratch: &scratch)) }
        let (n, k, oh, ow) = (d.n, outChannels, d.oh, d.ow)
        let plane = oh * ow
        let out = scratch.takeShared(n * k * plane)
        // Each image's tile rows are claimed apart, so a task transforms the filters (when the
        // session does not keep them) once an image, as on one task.
        let claims = split == .tileRows
            ? (0..<n).map { _ in TileRowClaims(wholeRange(oh: oh), chunk: claimSize(tileRows: (oh + 3) / 4, ow: ow, kernels: scratch.kernels)) }
            : []
        // Task `index`'s share of every image: claimed tile rows, or its fixed block of channels.
        @Sendable func work(_ index: Int, scratch: inout WinogradScratch) {
            for image in 0..<n {
                let first = out.pointer + image * k * plane
                switch split {
                case .channels:
                    compute(x, image: image, part: parts[index], into: first + parts[index].lowerBound * plane,
                            planeStride: plane, scratch: &scratch)
                case .tileRows:
                    computeRows(x, residual: residual, image: image, next: claims[image].next,
                                output: { first + 4 * $0.lowerBound * ow }, planeStride: plane, filters: filters, scratch: &scratch)
                }
            }
        }
        await withTaskGroup(of: (Int, WinogradScratch).self) { group in
            for index in parts.indices.dropFirst() {
                // Moved out of `helpers` (a placeholder stays behind) so the task owns its only copy
                // and mutates its buffers in place rather than copying them on write.
                var lent = WinogradScratch(instructionSet: .portable)
                swap(&lent, &helpers[index - 1])
                let own = ScratchLoan(consume lent)
                group.addTask {
                    work(index, scratch: &own.scratch)
                    return (index, own.giveBack())
                }
            }
            work(0, scratch: &scratch)
            for await (index, helperScratch) in group { helpers[index - 1] = helperScratch }
        }
        // Every task has ended: every value is written, and only read from now on.
        return RowBands(shape: [n, k, oh, ow], values: out)
    }

    /// Tile rows per claim: whole blocks of the Winograd kernel's slots where the layer has enough
    /// rows for six claims or more (a block's padding slots are computed for nothing), else two
    /// halves (the second to whichever task is free first: the caller itself if the helper is
    /// late); the narrow kernel's claims are a sixteenth of its rows. (From the seventh session's
    /// speed-handoff branch.)
    private func claimSize(tileRows: Int, ow: Int, kernels: InstructionSet) -> Int {
        guard winograd != nil else { return max(1, tileRows / 16) }
        #if arch(x86_64)
        let kernelGroups = kernels.hasAVX512 ? 6 : 3
        #else
        let kernelGroups = 3
        #endif
        let groupsPerRow = ((ow + 3) / 4 + 7) / 8
        var (a, b) = (kernelGroups, groupsPerRow)
        while b != 0 { (a, b) = (b, a % b) }
        let wholeBlocks = kernelGroups / a
        return tileRows >= 6 * wholeBlocks ? wholeBlocks : (tileRows + 1) / 2
    }

    /// `range` in `tasks` nearly equal consecutive parts (channel parts rounded to multiples of 8).
    func split(_ range: Range<Int>, into tasks: Int) -> [Range<Int>] {
        guard tasks > 1, range.count >= 2 else { return [range] }
        let granule = split == .channels ? 8 : 1
        var parts: [Range<Int>] = []
        var start = range.lowerBound
        for t in 0..<tasks {
            let remaining = tasks - t
            var size = (range.upperBound - start + remaining - 1) / remaining
            if remaining > 1 { size = min(range.upperBound - start, (size + granule - 1) / granule * granule) }
            parts.append(start..<(start + size))
            start += size
        }
        return parts.filter { !$0.isEmpty }
    }
}

/// The tile rows of one image of a split convolution, handed out `chunk` at a time to whichever
/// task asks first. Shared by the tasks of one convolution: the atomic counter makes every claim
/// one indivisible step, so no row is handed out twice or skipped (relaxed ordering suffices: the
/// claims order nothing else; the task group's end orders the rows' writes before their reads).
final class TileRowClaims: Sendable {
    private let taken: Atomic<Int>
    private let end: Int
    private let chunk: Int

    init(_ rows: Range<Int>, chunk: Int) {
        taken = Atomic(rows.lowerBound)
        end = rows.upperBound
        self.chunk = max(1, chunk)
    }

    /// The next `chunk` rows (fewer at the end), or nil when none are left.
    func next() -> Range<Int>? {
        let start = taken.wrappingAdd(chunk, ordering: .relaxed).oldValue
        return start < end ? start..<min(end, start + chunk) : nil
    }
}

/// Holds a helper task's scratch while the task runs: a class, so the task mutates the one copy in
/// place (a captured struct would be shared with the closure and copied on first write). Never
/// shared: made for one task, which hands the scratch back when it ends.
private final class ScratchLoan {
    var scratch: WinogradScratch
    init(_ scratch: consuming WinogradScratch) { self.scratch = scratch }
    func giveBack() -> WinogradScratch {
        var out = WinogradScratch(instructionSet: .portable)
        swap(&out, &scratch)
        return out
    }
}
