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

    /// Number of output floats of `part` of one image.
    func partSize(_ part: Range<Int>, oh: Int, ow: Int) -> Int {
        switch split {
        case .channels: part.count * oh * ow
        case .tileRows: outChannels * (min(4 * part.upperBound, oh) - 4 * part.lowerBound) * ow
        }
    }

    /// `part` of image `image` by the fastest kernel that applies. The input channels are those of
    /// `x` in order (several parts when a channel Concat was fused into this convolution).
    /// `output` points at the part's first value; for `.tileRows`, channel planes are `planeStride` apart.
    /// `residual` (the output's shape; not the direct kernel) is added to the output after the ReLU; if it
    /// is in row bands, one band holds all of the part's rows (see `aligned(_:to:oh:)`).
    /// `filters`: the Winograd kernel's transformed filters when the session keeps them.
    func compute(_ x: [ConvolutionInput], residual: RowBands? = nil, image: Int, part: Range<Int>,
                 into output: UnsafeMutablePointer<Float>, planeStride: Int, filters: TransformedFilters? = nil,
                 scratch: inout WinogradScratch) {
        let (_, _, h, w) = x[0].shape
        let (oh, ow) = outputSize(h: h, w: w)
        withChannelRows(x, image: image) { channels, tables in
            guard winograd != nil || narrow else {
                // The direct kernel reads whole planes: its inputs are joined and never fused.
                precondition(channels.allSatisfy { $0.kind == .stored }, "the direct kernel reads stored planes only")
                let planes = channels.map(\.rows.first)
                if outChannels >= 8 {
                    return convolveAcrossChannels(planes: planes, h: h, w: w, oh: oh, ow: ow, channels: part, output: output,
                                                  kernels: scratch.kernels)
                }
                return convolveDirect(planes: planes, h: h, w: w, oh: oh, ow: ow, channels: part, output: output)
            }
            func convolve(_ residual: ResidualRows?) {
                if let winograd {
                    convolveWinograd(winograd, channels: channels, tables: tables, h: h, w: w, oh: oh, ow: ow, tileRows: part,
                                     output: output, planeStride: planeStride, residual: residual, transformed: filters,
                                     scratch: &scratch)
                } else {
                    convolveNarrow(channels: channels, h: h, w: w, oh: oh, ow: ow, rows: (4 * part.lowerBound)..<(4 * part.upperBound),
                                   output: output, planeStride: planeStride, residual: residual, kernels: scratch.kernels)
                }
            }
            guard let residual else { return convolve(nil) }
            let row0 = 4 * part.lowerBound, starts = residual.rowStarts
            let band = starts.indices.dropLast().last { starts[$0] <= row0 }!
            let rows = starts[band + 1] - starts[band]
            residual.bands[band].scalars.withUnsafeBufferPointer { r in
                convolve(ResidualRows(rows: r.baseAddress! + image * outChannels * rows * ow + (row0 - starts[band]) * ow,
                                      planeStride: rows * ow))
            }
        }
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

    /// `x` as the kernel reads it: whole planes for the direct kernel, at most two row bands for
    /// the Winograd and narrow kernels.
    private func readable(_ x: [ConvolutionInput]) -> [ConvolutionInput] {
        x.map { split == .channels || $0.source.bands.count > 2 ? $0.joined : $0 }
    }

    /// The first output row of each of `parts` (tile rows), and `oh` last.
    private func rowStarts(of parts: [Range<Int>], oh: Int) -> [Int] {
        parts.map { 4 * $0.lowerBound } + [oh]
    }

    /// `residual` with each part's rows inside one band: as it is when its bands are the parts'
    /// (the output of a convolution of the same size split the same way), else joined.
    private func aligned(_ residual: RowBands?, to parts: [Range<Int>], oh: Int) -> RowBands? {
        guard let residual, residual.bands.count > 1 else { return residual }
        return parts.count > 1 && split == .tileRows && residual.rowStarts == rowStarts(of: parts, oh: oh)
            ? residual : RowBands(residual.joined)
    }

    /// The whole convolution on the calling task (one core).
    func callAsFunction(_ x: [Tensor], scratch: inout WinogradScratch) throws(ModelError) -> Tensor {
        try self(x.map { .tensor($0) }, scratch: &scratch)
    }

    /// The whole convolution on the calling task (one core).
    func callAsFunction(_ x: [ConvolutionInput], residual: RowBands? = nil, filters: TransformedFilters? = nil,
                        scratch: inout WinogradScratch) throws(ModelError) -> Tensor {
        let x = readable(x)
        let d = try validate(x, residual: residual)
        let residual = residual.map { RowBands($0.joined) }
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

    /// The convolution split over `1 + helpers.count` tasks, joined into one tensor.
    func callAsFunction(_ x: [Tensor], helpers: inout [WinogradScratch],
                        scratch: inout WinogradScratch) async throws(ModelError) -> Tensor {
        try await self(x.map { .tensor($0) }, helpers: &helpers, scratch: &scratch).joined
    }

    /// The convolution split over `1 + helpers.count` tasks: this task computes the first part,
    /// each helper task another, each into its own array. A Winograd or narrow convolution's parts
    /// are bands of rows and, two of them, stay so (the next convolution reads them in place); more
    /// bands, and the direct kernel's parts (blocks of channels, small layers), are copied into one
    /// array. Each helper's scratch is moved into its task and back, so its buffers are reused from
    /// layer to layer. `filters` (the session's transformed filters, if it keeps them) is read by
    /// every task.
    func callAsFunction(_ x: [ConvolutionInput], residual: RowBands? = nil, filters: TransformedFilters? = nil,
                        helpers: inout [WinogradScratch], scratch: inout WinogradScratch) async throws(ModelError) -> RowBands {
        let x = readable(x)
        let d = try validate(x, residual: residual)
        let parts = split(wholeRange(oh: d.oh), into: 1 + helpers.count)
        if parts.count < 2 { return RowBands(try self(x, residual: residual, filters: filters, scratch: &scratch)) }
        let residual = aligned(residual, to: parts, oh: d.oh)
        let (n, k, ow) = (d.n, outChannels, d.ow)
        let rowStarts = split == .tileRows ? rowStarts(of: parts, oh: d.oh) : []
        // One part of every image into an array of its own: a band of rows (n × k × rows × ow) or a
        // block of channels (n × channels × oh × ow).
        @Sendable func computePart(_ index: Int, scratch: inout WinogradScratch) -> [Float] {
            let part = parts[index]
            let planeStride = split == .tileRows ? (rowStarts[index + 1] - rowStarts[index]) * ow : d.oh * ow
            let perImage = partSize(part, oh: d.oh, ow: ow)
            var values = scratch.takeBuffer(n * perImage)
            values.withUnsafeMutableBufferPointer { buffer in
                for image in 0..<n {
                    compute(x, residual: residual, image: image, part: part, into: buffer.baseAddress! + image * perImage,
                            planeStride: planeStride, filters: filters, scratch: &scratch)
                }
            }
            return values
        }
        let returned = await withTaskGroup(of: (Int, [Float], WinogradScratch).self) { group in
            for index in parts.indices.dropFirst() {
                // Moved out of `helpers` (a placeholder stays behind) so the task owns its only copy
                // and mutates its buffers in place rather than copying them on write.
                var lent = WinogradScratch(instructionSet: .portable)
                swap(&lent, &helpers[index - 1])
                let own = ScratchLoan(consume lent)
                group.addTask {
                    let values = computePart(index, scratch: &own.scratch)
                    return (index, values, own.giveBack())
                }
            }
            var results = [(Int, [Float], WinogradScratch)]()
            results.append((0, computePart(0, scratch: &scratch), WinogradScratch(instructionSet: .portable)))
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        for (index, _, helperScratch) in returned.dropFirst() { helpers[index - 1] = helperScratch }
        let bands = split == .tileRows ? RowBands(shape: [n, k, d.oh, ow], bands: returned.map { index, values, _ in
            Tensor(uncheckedShape: [n, k, rowStarts[index + 1] - rowStarts[index], ow], scalars: values)
        }) : nil
        // The kernels read at most two bands in place.
        if let bands, bands.bands.count <= 2 { return bands }
        // Joined into a recycled array; each part's array then goes back to the task that computed it.
        var out = scratch.takeBuffer(n * k * d.oh * ow)
        switch split {
        case .tileRows:
            bands!.join(into: &out)
        case .channels:
            let plane = d.oh * ow
            out.withUnsafeMutableBufferPointer { whole in
                for (index, values, _) in returned {
                    let part = parts[index]
                    values.withUnsafeBufferPointer { block in
                        for image in 0..<n {
                            (whole.baseAddress! + (image * k + part.lowerBound) * plane)
                                .update(from: block.baseAddress! + image * part.count * plane, count: part.count * plane)
                        }
                    }
                }
            }
        }
        for (index, values, _) in returned {
            if index == 0 { scratch.recycle(values) } else { helpers[index - 1].recycle(values) }
        }
        return RowBands(Tensor(uncheckedShape: [n, k, d.oh, ow], scalars: out))
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
