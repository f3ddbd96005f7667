extension Convolution {
    /// Output channels `channels` of image `image` of `x` into `output` (channels.count planes),
    /// by the fastest kernel that applies.
    func compute(_ x: Tensor, image: Int, channels: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        let (h, w) = (x.shape[2], x.shape[3])
        let (oh, ow) = outputSize(h: h, w: w)
        x.scalars.withUnsafeBufferPointer { src in
            let input = src.baseAddress! + image * inChannels * h * w
            convolveDirect(input: input, h: h, w: w, oh: oh, ow: ow, channels: channels, output: output)
        }
    }

    /// The whole convolution on the calling task (one core).
    func callAsFunction(_ x: Tensor) throws(ModelError) -> Tensor {
        let d = try validate(x)
        let plane = d.oh * d.ow
        let out = [Float](unsafeUninitializedCapacity: d.n * outChannels * plane) { buffer, count in
            for image in 0..<d.n {
                compute(x, image: image, channels: 0..<outChannels, into: buffer.baseAddress! + image * outChannels * plane)
            }
            count = buffer.count
        }
        return Tensor(uncheckedShape: [d.n, outChannels, d.oh, d.ow], scalars: out)
    }

    /// The convolution split over `tasks` blocks of output channels: this task computes the first
    /// block in place, child tasks the others into their own arrays, which are then copied in (a
    /// child cannot write into our array without unsafe sharing).
    func callAsFunction(_ x: Tensor, tasks: Int) async throws(ModelError) -> Tensor {
        if tasks <= 1 || outChannels < 2 * tasks { return try self(x) }
        let d = try validate(x)
        let plane = d.oh * d.ow
        let blocks = splitChannels(into: tasks)
        var out = [Float](repeating: 0, count: d.n * outChannels * plane)
        for image in 0..<d.n {
            await withTaskGroup(of: (Int, [Float]).self) { group in
                for index in blocks.indices.dropFirst() {
                    let block = blocks[index]
                    group.addTask {
                        let part = [Float](unsafeUninitializedCapacity: block.count * plane) { buffer, count in
                            compute(x, image: image, channels: block, into: buffer.baseAddress!)
                            count = buffer.count
                        }
                        return (index, part)
                    }
                }
                out.withUnsafeMutableBufferPointer { buffer in
                    compute(x, image: image, channels: blocks[0], into: buffer.baseAddress! + image * outChannels * plane)
                }
                for await (index, part) in group {
                    let start = (image * outChannels + blocks[index].lowerBound) * plane
                    out.replaceSubrange(start..<(start + part.count), with: part)
                }
            }
        }
        return Tensor(uncheckedShape: [d.n, outChannels, d.oh, d.ow], scalars: out)
    }

    /// Output channels in `tasks` nearly equal blocks, rounded to multiples of 8 (the kernels' width).
    func splitChannels(into tasks: Int) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        var start = 0
        for t in 0..<tasks {
            let remaining = tasks - t
            var size = (outChannels - start + remaining - 1) / remaining
            if remaining > 1 { size = min(outChannels - start, (size + 7) / 8 * 8) }
            blocks.append(start..<(start + size))
            start += size
        }
        return blocks.filter { !$0.isEmpty }
    }
}
