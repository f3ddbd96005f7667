/// Runs a `NeuralNetwork`. Not Sendable: one session per task (a batch runs one session per core
/// with `threads: 1`; a single photo may use `threads: 2` to spread each convolution over two
/// child tasks).
public final class InferenceSession {
    public let network: NeuralNetwork
    /// How many tasks each convolution is split over (1: everything runs on the calling task).
    public let threads: Int
    /// The vector instructions the convolutions use (`.best`: AVX-512 if the CPU has it).
    public let instructionSet: InstructionSet
    /// Convolution scratch of this session's task, reused across steps and runs.
    private var scratch: WinogradScratch
    /// Scratch of the `threads − 1` helper tasks a split convolution lends out, kept across layers.
    private var helperScratch: [WinogradScratch]
    /// The shapes of the tensors Shape steps read, seen at these input shapes by this session or
    /// another of the network (`ShapeMemo`). A later run at the same input shapes that needs only
    /// such a tensor's shape takes it from here and skips computing the tensor (U²-Net's side
    /// outputs are resized to the size of the full-resolution decoder's output: a coarse side
    /// output alone skips that whole decoder stage).
    private var knownShapes: (inputs: [[Int]], shapes: [Int: [Int]]) = ([], [:])
    /// Shapes this session learned in its last run, for the network's memo.
    private var learnedShapes = false
    /// Steps the last `run` computed (tests check what was skipped).
    private(set) var stepsRunInLastRun = 0
    /// Each Winograd convolution's transformed filters, by step: made in the session's second run
    /// (`keepsFiltersFromRun`) as each layer first runs, and read by every later run and by both
    /// tasks of a split convolution, instead of each task transforming them in each run. A clip
    /// runs the network tens of times in one session; a one-shot `sticker` runs it once or twice and
    /// keeps today's transient ~1 MB per task rather than fresh pages for the whole network's U.
    private var keptFilters: [TransformedFilters?]
    /// Runs started (`run` and `runSerially`).
    private var runsStarted = 0
    /// The first run (1-based) that keeps the transformed filters. Measured in docs/benchmarks.md
    /// (issue 37, eighth session).
    static let keepsFiltersFromRun = 2
    /// Bytes of transformed filters this session holds (U²-Net-p: see docs/benchmarks.md).
    public var transformedFilterBytes: Int { keptFilters.reduce(0) { $0 + ($1?.byteCount ?? 0) } }

    public init(network: NeuralNetwork, threads: Int = 1, instructionSet: InstructionSet = .best) {
        self.network = network
        self.threads = max(1, threads)
        self.instructionSet = instructionSet.resolved
        self.scratch = WinogradScratch(instructionSet: instructionSet)
        self.helperScratch = (1..<max(1, threads)).map { _ in WinogradScratch(instructionSet: instructionSet) }
        self.keptFilters = [TransformedFilters?](repeating: nil, count: network.steps.count)
    }

    /// Step `index`'s transformed filters if this run keeps them (made now if this is the first
    /// time the step runs since they are kept), else nil: the tasks transform them themselves.
    private func filters(ofStep index: Int, keeping: Bool) -> TransformedFilters? {
        guard keeping, case .conv(let convolution) = network.steps[index].operation else { return nil }
        if let kept = keptFilters[index] { return kept }
        let made = convolution.transformedFilters(scratch: &scratch)
        keptFilters[index] = made
        return made
    }

    /// Runs the network, splitting each convolution over `threads` tasks. Like any method of a
    /// non-Sendable type it runs on the caller's executor (a session belongs to one task): call it
    /// from a `@concurrent` entry point, never from the main actor.
    /// - Parameter outputs: the outputs wanted (nil: all); steps that only lead to others are skipped
    ///   (U²-Net's six side outputs' sigmoids when only the fused saliency is read).
    public func run(_ inputs: [String: Tensor], outputs: Set<String>? = nil) async throws(ModelError) -> [String: Tensor] {
        var slots = try prepareSlots(inputs)
        runsStarted += 1
        let keeping = runsStarted >= Self.keepsFiltersFromRun
        let inputShapes = network.inputSlots.map { slots[$0]?.shape ?? [] }
        if knownShapes.inputs != inputShapes {
            // What another session of the network saw at these input shapes (a clip's lanes).
            knownShapes = (inputShapes, network.shapesFollowInputShapes ? network.shapeMemo.shapes(for: inputShapes) : [:])
        }
        learnedShapes = false
        // Every shape seen is a true one, so a run cut short (cancelled) still shares what it saw.
        defer { if learnedShapes, network.shapesFollowInputShapes { network.shapeMemo.record(knownShapes.shapes, for: inputShapes) } }
        let needed = try neededSteps(for: outputs)
        stepsRunInLastRun = 0
        for (index, (step, isNeeded)) in zip(network.steps, needed).enumerated() {
            guard isNeeded else {
                release(step, &slots)
                continue
            }
            stepsRunInLastRun += 1
            if case .shape = step.operation, let source = step.inputs.first ?? nil {
                guard let value = slots[source] else {
                    // Not computed: only its shape was needed, known from an earlier run.
                    guard let shape = knownShapes.shapes[source] else { throw .invalidGraph("\(step.label): input 0 is not available") }
                    slots[step.output] = .int(IntTensor(shape: [shape.count], scalars: shape.map { Int64($0) }))
                    release(step, &slots)
                    continue
                }
                if knownShapes.shapes[source] != value.shape {
                    knownShapes.shapes[source] = value.shape
                    learnedShapes = true
                }
            }
            if case .conv = step.operation {
                // A run is about a second of CPU: between layers, stop if cancelled and let other
                // jobs (a main-actor timer's wake-up, another photo's stage) have the thread. The
                // cooperative pool has one thread per core, so a job that never yields delays
                // every other task waiting for a thread by its whole length.
                if Task.isCancelled { throw .cancelled }
                await Task.yield()
            }
            if case .conv(let convolution) = step.operation, threads > 1 {
                let x = try convolutionInputs(step, slots)
                let residual = try residual(of: step, convolution, x, slots)
                let y = try await convolution(x, residual: residual.inOutput, filters: filters(ofStep: index, keeping: keeping),
                                              helpers: &helperScratch, scratch: &scratch)
                slots[step.output] = try residual.completing(y)
            } else if let sum = addInPlace(step, &slots) {
                slots[step.output] = sum
            } else {
                slots[step.output] = try evaluate(step, slots, filters: filters(ofStep: index, keeping: keeping))
            }
            release(step, &slots)
        }
        return try collectOutputs(slots, outputs)
    }

    /// For each step, whether one of `outputs` (nil: all outputs) depends on it.
    private func neededSteps(for outputs: Set<String>?) throws(ModelError) -> [Bool] {
        guard let outputs else { return [Bool](repeating: true, count: network.steps.count) }
        if let unknown = outputs.first(where: { !network.outputNames.contains($0) }) {
            throw .invalidInput("no output '\(unknown)' (the network's outputs: \(network.outputNames.joined(separator: ", ")))")
        }
        var wanted = [Bool](repeating: false, count: network.slotCount)
        for (name, slot) in zip(network.outputNames, network.outputSlots) where outputs.contains(name) { wanted[slot] = true }
        var needed = [Bool](repeating: false, count: network.steps.count)
        for (i, step) in network.steps.enumerated().reversed() where wanted[step.output] {
            needed[i] = true
            if case .shape = step.operation, network.shapesFollowInputShapes,
               let source = step.inputs.first ?? nil, knownShapes.shapes[source] != nil { continue }
            for case let input? in step.inputs { wanted[input] = true }
        }
        return needed
    }

    /// Runs the network entirely on the calling thread (ignores `threads`), for synchronous callers.
    public func runSerially(_ inputs: [String: Tensor]) throws(ModelError) -> [String: Tensor] {
        var slots = try prepareSlots(inputs)
        runsStarted += 1
        let keeping = runsStarted >= Self.keepsFiltersFromRun
        for (index, step) in network.steps.enumerated() {
            if let sum = addInPlace(step, &slots) {
                slots[step.output] = sum
            } else {
                slots[step.output] = try evaluate(step, slots, filters: filters(ofStep: index, keeping: keeping))
            }
            release(step, &slots)
        }
        return try collectOutputs(slots)
    }

    /// An Add of two float tensors of one shape, one of which no later step reads, written into
    /// that one's storage (U²-Net's residual Adds): no new tensor, no fresh pages. Nil otherwise.
    private func addInPlace(_ step: NeuralNetwork.Step, _ slots: inout [Value?]) -> Value? {
        guard case .binary(.add) = step.operation, step.inputs.count == 2,
              let first = step.inputs[0], let second = step.inputs[1], first != second else { return nil }
        for (target, other) in [(first, second), (second, first)] where step.releases.contains(target) {
            guard case .float(var sum)? = slots[target], case .float(let addend)? = slots[other],
                  sum.shape == addend.shape else { continue }
            slots[target] = nil  // the slot let go of it: `sum` is now its storage's only owner
            sum.scalars.withUnsafeMutableBufferPointer { a in
                addend.scalars.withUnsafeBufferPointer { b in
                    for i in 0..<a.count { a[i] += b[i] }
                }
            }
            return .float(sum)
        }
        return nil
    }

    /// Drops the tensors no later step reads, keeping their storage for later outputs: a band goes
    /// back to the task that computes that band of the next split convolution.
    private func release(_ step: NeuralNetwork.Step, _ slots: inout [Value?]) {
        for s in step.releases {
            let value = slots[s]
            slots[s] = nil
            switch value {
            case .float(let tensor)?: scratch.recycle(tensor.scalars)
            case .bands(let bands)?:
                for (index, band) in bands.bands.enumerated() {
                    if index > 0, index <= helperScratch.count { helperScratch[index - 1].recycle(band.scalars) }
                    else { scratch.recycle(band.scalars) }
                }
            case .int?, nil: break
            }
        }
    }

    private func prepareSlots(_ inputs: [String: Tensor]) throws(ModelError) -> [Value?] {
        var slots = [Value?](repeating: nil, count: network.slotCount)
        for constant in network.constants { slots[constant.slot] = constant.value }
        for (name, slot) in zip(network.inputNames, network.inputSlots) {
            guard let tensor = inputs[name] else {
                throw .invalidInput("no tensor for input '\(name)' (the network's inputs: \(network.inputNames.joined(separator: ", ")))")
            }
            if let declared = network.declaredInputShapes[name], !declared.isEmpty, declared.count != tensor.rank {
                throw .invalidInput("input '\(name)' has shape \(tensor.shape); the network expects rank \(declared.count)")
            }
            slots[slot] = .float(tensor)
        }
        return slots
    }

    private func collectOutputs(_ slots: [Value?], _ wanted: Set<String>? = nil) throws(ModelError) -> [String: Tensor] {
        var outputs: [String: Tensor] = [:]
        for (name, slot) in zip(network.outputNames, network.outputSlots) where wanted?.contains(name) ?? true {
            switch slots[slot] {
            case .float(let t)?: outputs[name] = t
            case .bands(let b)?: outputs[name] = b.joined
            case .int(let t)?: outputs[name] = Tensor(uncheckedShape: t.shape, scalars: t.scalars.map { Float($0) })
            case nil: throw .invalidGraph("output '\(name)' was not computed")
            }
        }
        return outputs
    }

    /// A step's input as it is stored.
    private func stored(_ step: NeuralNetwork.Step, _ index: Int, _ slots: [Value?]) throws(ModelError) -> Value? {
        guard index < step.inputs.count, let slot = step.inputs[index] else { return nil }
        guard let value = slots[slot] else { throw .invalidGraph("\(step.label): input \(index) is not available") }
        return value
    }

    /// A step's input for every operator but a convolution: row bands joined.
    private func input(_ step: NeuralNetwork.Step, _ index: Int, _ slots: [Value?]) throws(ModelError) -> Operand? {
        switch try stored(step, index, slots) {
        case .float(let t)?: .float(t)
        case .bands(let b)?: .float(b.joined)
        case .int(let t)?: .int(t)
        case nil: nil
        }
    }

    /// A float input as it is stored, possibly in row bands (a convolution's input or residual).
    private func rowsInput(_ step: NeuralNetwork.Step, _ index: Int, _ slots: [Value?]) throws(ModelError) -> RowBands {
        guard index < step.inputs.count, let slot = step.inputs[index], let value = slots[slot] else {
            throw .invalidGraph("\(step.label): input \(index) is not available")
        }
        switch value {
        case .float(let t): return RowBands(t)
        case .bands(let b): return b
        case .int: throw .invalidInput("\(step.label): input \(index) must be a float tensor")
        }
    }

    private func floatInput(_ step: NeuralNetwork.Step, _ index: Int, _ slots: [Value?]) throws(ModelError) -> Tensor {
        guard case .float(let t)? = try input(step, index, slots) else {
            throw .invalidInput("\(step.label): input \(index) must be a float tensor")
        }
        return t
    }

    /// A convolution step's fused residual Add, if any.
    private func residual(of step: NeuralNetwork.Step, _ convolution: Convolution, _ x: [ConvolutionInput],
                          _ slots: [Value?]) throws(ModelError) -> FusedResidual {
        guard let index = step.residual else { return FusedResidual() }
        let addend = try rowsInput(step, index, slots)
        let d = try convolution.validate(x)
        return addend.shape == [d.n, convolution.outChannels, d.oh, d.ow]
            ? FusedResidual(inOutput: addend) : FusedResidual(afterwards: addend.joined)
    }

    /// A convolution step's input parts, fused resizes and pools resolved to their sizes.
    private func convolutionInputs(_ step: NeuralNetwork.Step, _ slots: [Value?]) throws(ModelError) -> [ConvolutionInput] {
        var parts: [ConvolutionInput] = []
        for part in step.parts {
            switch part {
            case .tensor(let index):
                parts.append(.tensor(try rowsInput(step, index, slots)))
            case .pooled(let pooling, let index):
                let x = try rowsInput(step, index, slots)
                guard x.shape.count == 4, x.shape.reduce(1, *) > 0 else { throw .invalidInput("MaxPool expects NCHW, got shape \(x.shape)") }
                let p = pooling.pads
                let height = pooling.outputSize(x.shape[2], kernel: 2, stride: 2, padBefore: p[0], padAfter: p[2], dilation: 1)
                let width = pooling.outputSize(x.shape[3], kernel: 2, stride: 2, padBefore: p[1], padAfter: p[3], dilation: 1)
                parts.append(.pooled(x, height: height, width: width))
            case .resized(let resize, let index, let scalesIndex, let sizesIndex):
                let x = try rowsInput(step, index, slots)
                var scales: Tensor?
                if let scalesIndex, case .float(let t)? = try input(step, scalesIndex, slots) { scales = t }
                let sizes = try sizesIndex.flatMap { (i: Int) throws(ModelError) in try intInput(step, i, slots) }
                let (rows, columns) = try resize.samples(forShape: x.shape, scales: scales, sizes: sizes)
                parts.append(.resized(x, rows: rows, columns: columns))
            }
        }
        return parts
    }

    private func intInput(_ step: NeuralNetwork.Step, _ index: Int, _ slots: [Value?]) throws(ModelError) -> IntTensor? {
        switch try input(step, index, slots) {
        case .int(let t)?: return t
        case .float(let t)?: return IntTensor(shape: t.shape, scalars: t.scalars.map { Int64($0) })
        case nil: return nil
        }
    }

    /// One step on the calling thread (`filters`: a convolution's kept transformed filters).
    private func evaluate(_ step: NeuralNetwork.Step, _ slots: [Value?], filters: TransformedFilters? = nil) throws(ModelError) -> Value {
        switch step.operation {
        case .constant(let value):
            return value
        case .identity:
            guard let v = try stored(step, 0, slots) else { throw .invalidGraph("\(step.label) has no input") }
            return v
        case .shape:
            guard let v = try stored(step, 0, slots) else { throw .invalidGraph("\(step.label) has no input") }
            return .int(IntTensor(shape: [v.shape.count], scalars: v.shape.map { Int64($0) }))
        case .gather(let axis):
            guard let indices = try intInput(step, 1, slots), let data = try input(step, 0, slots) else {
                throw .invalidGraph("\(step.label) needs data and indices")
            }
            switch data {
            case .float(let t):
                let r = try gather(t.scalars, shape: t.shape, indices: indices, axis: axis)
                return .float(Tensor(uncheckedShape: r.shape, scalars: r.values))
            case .int(let t):
                let r = try gather(t.scalars, shape: t.shape, indices: indices, axis: axis)
                return .int(IntTensor(shape: r.shape, scalars: r.values))
            }
        case .unsqueeze(let attributeAxes):
            guard let data = try input(step, 0, slots) else { throw .invalidGraph("\(step.label) has no input") }
            var axes = attributeAxes
            if axes == nil { axes = try intInput(step, 1, slots)?.scalars.map { Int($0) } }
            guard let axes else {
                throw .invalidGraph("\(step.label) has no axes")
            }
            let shape = try unsqueezedShape(data.value.shape, axes: axes)
            switch data {
            case .float(let t): return .float(Tensor(uncheckedShape: shape, scalars: t.scalars))
            case .int(let t): return .int(IntTensor(shape: shape, scalars: t.scalars))
            }
        case .slice(let attributes):
            guard let data = try input(step, 0, slots) else { throw .invalidGraph("\(step.label) has no input") }
            let starts: [Int64], ends: [Int64], axes: [Int64]?, steps: [Int64]?
            if let attributes {
                (starts, ends, axes, steps) = (attributes.starts, attributes.ends, attributes.axes, nil)
            } else {
                guard let s = try intInput(step, 1, slots), let e = try intInput(step, 2, slots) else {
                    throw .invalidGraph("\(step.label) needs starts and ends")
                }
                (starts, ends) = (s.scalars, e.scalars)
                axes = try intInput(step, 3, slots)?.scalars
                steps = try intInput(step, 4, slots)?.scalars
            }
            switch data {
            case .float(let t):
                let r = try slice(t.scalars, shape: t.shape, starts: starts, ends: ends, axes: axes, steps: steps)
                return .float(Tensor(uncheckedShape: r.shape, scalars: r.values))
            case .int(let t):
                let r = try slice(t.scalars, shape: t.shape, starts: starts, ends: ends, axes: axes, steps: steps)
                return .int(IntTensor(shape: r.shape, scalars: r.values))
            }
        case .cast(let toFloat):
            guard let data = try input(step, 0, slots) else { throw .invalidGraph("\(step.label) has no input") }
            switch (data, toFloat) {
            case (.float, true), (.int, false): return data.value
            case (.int(let t), true): return .float(Tensor(uncheckedShape: t.shape, scalars: t.scalars.map { Float($0) }))
            case (.float(let t), false):
                return .int(IntTensor(shape: t.shape, scalars: t.scalars.map { $0.isFinite ? Int64(exactly: $0.rounded(.towardZero)) ?? 0 : 0 }))
            }
        case .concat(let axis):
            var values: [Value] = []
            for i in step.inputs.indices { if let v = try input(step, i, slots) { values.append(v.value) } }
            if values.allSatisfy({ if case .float = $0 { true } else { false } }) {
                let parts = values.compactMap { v -> (shape: [Int], values: [Float])? in
                    if case .float(let t) = v { (t.shape, t.scalars) } else { nil }
                }
                let r = try concatenate(parts, axis: axis)
                return .float(Tensor(uncheckedShape: r.shape, scalars: r.values))
            }
            let parts = values.compactMap { v -> (shape: [Int], values: [Int64])? in
                if case .int(let t) = v { (t.shape, t.scalars) } else { nil }
            }
            guard parts.count == values.count else { throw .invalidInput("\(step.label) mixes float and integer tensors") }
            let r = try concatenate(parts, axis: axis)
            return .int(IntTensor(shape: r.shape, scalars: r.values))
        case .relu:
            return .float(try floatInput(step, 0, slots).relu())
        case .sigmoid:
            return .float(try floatInput(step, 0, slots).sigmoid())
        case .binary(let op):
            guard let a = try input(step, 0, slots), let b = try input(step, 1, slots) else {
                throw .invalidGraph("\(step.label) needs two inputs")
            }
            return try op.apply(a.value, b.value)
        case .maxPool(let pooling):
            return .float(try pooling(floatInput(step, 0, slots), kernels: scratch.kernels, allocate: { self.scratch.takeBuffer($0) }))
        case .resize(let resize):
            let x = try floatInput(step, 0, slots)
            var scales: Tensor?
            if case .float(let t)? = try input(step, resize.scalesInputIndex, slots) { scales = t }
            let sizes = resize.scalesInputIndex == 2 ? try intInput(step, 3, slots) : nil
            return .float(try resize(x, scales: scales, sizes: sizes, kernels: scratch.kernels,
                                     allocate: { self.scratch.takeBuffer($0) }))
        case .conv(let convolution):
            let x = try convolutionInputs(step, slots)
            let residual = try residual(of: step, convolution, x, slots)
            return try residual.completing(RowBands(try convolution(x, residual: residual.inOutput, filters: filters,
                                                                    scratch: &scratch)))
        }
    }
}

/// A value as an operator other than a convolution reads it: in one array.
private enum Operand {
    case float(Tensor)
    case int(IntTensor)

    var value: Value {
        switch self {
        case .float(let t): .float(t)
        case .int(let t): .int(t)
        }
    }
}

/// A convolution's fused residual Add: added as the output is written when it has the output's
/// shape, else (a broadcast Add) added to the finished output.
private struct FusedResidual {
    var inOutput: RowBands?
    var afterwards: Tensor?

    /// The step's value from the convolution's output `y`.
    func completing(_ y: RowBands) throws(ModelError) -> Value {
        guard let afterwards else { return y.bands.count == 1 ? .float(y.bands[0]) : .bands(y) }
        return try BinaryOperator.add.apply(.float(y.joined), .float(afterwards))
    }
}
