/// How a convolution's output is split between tasks.
enum ConvolutionSplit {
    /// Blocks of output channels (the direct kernel): each part is `count` whole planes.
    case channels
    /// Blocks of 4-row Winograd tile rows: each part is every channel's band of rows.
    case tileRows
}

extension Convolution {
    var split: ConvolutionSplit { winograd == nil ? .channels : .tileRows }

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
    /// `residual` (the output's shape; Winograd only) is added to the output after the ReLU.
    func compute(_ x: [ConvolutionInput], residual: Tensor? = nil, image: Int, part: Range<Int>,
                 into output: UnsafeMutablePointer<Float>, planeStride: Int, scratch: inout WinogradScratch) {
        let (_, _, h, w) = x[0].shape
        let (oh, ow) = outputSize(h: h, w: w)
        withChannelRows(x, image: image) { channels, tables in
            if let winograd {
                func convolve(_ residual: ResidualRows?) {
                    convolveWinograd(winograd, channels: channels, tables: tables, h: h, w: w, oh: oh, ow: ow, tileRows: part,
                                     output: output, planeStride: planeStride, residual: residual, scratch: &scratch)
                }
                guard let residual else { return convolve(nil) }
                residual.scalars.withUnsafeBufferPointer { r in
                    let plane = oh * ow
                    convolve(ResidualRows(rows: r.baseAddress! + image * outChannels * plane + 4 * part.lowerBound * ow,
                                          planeStride: plane))
                }
            } else {
                // The plan fuses resizes and pools only into Winograd convolutions: every channel is stored.
                convolveDirect(planes: channels.map(\.plane), h: h, w: w, oh: oh, ow: ow, channels: part, output: output)
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
            source.scalars.withUnsafeBufferPointer { buffer in
                func add(_ kind: ChannelRows.Kind) {
                    for channel in 0..<c {
                        channels.append(ChannelRows(plane: buffer.baseAddress! + (image * c + channel) * sh * sw,
                                                    sourceHeight: sh, sourceWidth: sw, kind: kind))
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
                        add(.resized(table: tables.count))
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
    func callAsFunction(_ x: [ConvolutionInput], residual: Tensor? = nil, scratch: inout WinogradScratch) throws(ModelError) -> Tensor {
        let d = try validate(x, residual: residual)
        let plane = d.oh * d.ow
        var out = scratch.takeBuffer(d.n * outChannels * plane)
        out.withUnsafeMutableBufferPointer { buffer in
            for image in 0..<d.n {
                compute(x, residual: residual, image: image, part: wholeRange(oh: d.oh),
                        into: buffer.baseAddress! + image * outChannels * plane, planeStride: plane, scratch: &scratch)
            }
        }
        return Tensor(uncheckedShape: [d.n, outChannels, d.oh, d.ow], scalars: out)
    }

    /// The convolution split over `1 + helpers.count` parts: this task computes the first part in
    /// place, each helper task another into its own array, which is then copied in (a child cannot
    /// write into our array without unsafe sharing). Each helper's scratch is moved into its task and
    /// back, so its buffers and output arrays are reused from layer to layer: fresh multi-megabyte
    /// arrays every layer cost more in page faults than the copy.
    func callAsFunction(_ x: [Tensor], helpers: inout [WinogradScratch],
                        scratch: inout WinogradScratch) async throws(ModelError) -> Tensor {
        try await self(x.map { .tensor($0) }, helpers: &helpers, scratch: &scratch)
    }

    /// As above, over input parts that may be computed as they are read.
    func callAsFunction(_ x: [ConvolutionInput], residual: Tensor? = nil, helpers: inout [WinogradScratch],
                        scratch: inout WinogradScratch) async throws(ModelError) -> Tensor {
        let d = try validate(x, residual: residual)
        let parts = split(wholeRange(oh: d.oh), into: 1 + helpers.count)
        if parts.count < 2 { return try self(x, residual: residual, scratch: &scratch) }
        let plane = d.oh * d.ow
        // Every value is written by exactly one part.
        var out = scratch.takeBuffer(d.n * outChannels * plane)
        for image in 0..<d.n {
            let imageOffset = image * outChannels * plane
            let returned = await withTaskGroup(of: (Int, [Float], WinogradScratch).self) { group in
                for index in parts.indices.dropFirst() {
                    let part = parts[index]
                    // Moved out of `helpers` (a placeholder stays behind) so the task owns its only copy
                    // and mutates its buffers in place rather than copying them on write.
                    var lent = WinogradScratch(instructionSet: .avx2)
                    swap(&lent, &helpers[index - 1])
                    let own = ScratchLoan(consume lent)
                    group.addTask {
                        let size = partSize(part, oh: d.oh, ow: d.ow)
                        var values = own.scratch.takeBuffer(size)
                        values.withUnsafeMutableBufferPointer { buffer in
                            compute(x, residual: residual, image: image, part: part, into: buffer.baseAddress!,
                                    planeStride: size / outChannels, scratch: &own.scratch)
                        }
                        return (index, values, own.giveBack())
                    }
                }
                out.withUnsafeMutableBufferPointer { buffer in
                    compute(x, residual: residual, image: image, part: parts[0],
                            into: buffer.baseAddress! + imageOffset + offset(of: parts[0], ow: d.ow, plane: plane),
                            planeStride: plane, scratch: &scratch)
                }
                var returned: [(Int, WinogradScratch)] = []
                for await (index, values, helperScratch) in group {
                    let start = imageOffset + offset(of: parts[index], ow: d.ow, plane: plane)
                    out.withUnsafeMutableBufferPointer { buffer in
                        values.withUnsafeBufferPointer { part in
                            switch split {
                            case .channels:
                                (buffer.baseAddress! + start).update(from: part.baseAddress!, count: part.count)
                            case .tileRows:
                                let band = part.count / outChannels
                                for channel in 0..<outChannels {
                                    (buffer.baseAddress! + start + channel * plane)
                                        .update(from: part.baseAddress! + channel * band, count: band)
                                }
                            }
                        }
                    }
                    var own = helperScratch
                    own.recycle(values)
                    returned.append((index, own))
                }
                return returned
            }
            for (index, helperScratch) in returned { helpers[index - 1] = helperScratch }
        }
        return Tensor(uncheckedShape: [d.n, outChannels, d.oh, d.ow], scalars: out)
    }

    /// Where `part` starts within one image's output.
    private func offset(of part: Range<Int>, ow: Int, plane: Int) -> Int {
        split == .channels ? part.lowerBound * plane : 4 * part.lowerBound * ow
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
        var out = WinogradScratch(instructionSet: .avx2)
        swap(&out, &scratch)
        return out
    }
}
