import Foundation

/// An ONNX network decoded into an execution plan: immutable (but for the shapes its sessions
/// share, `ShapeMemo`), loaded once and shared by any number of concurrent `InferenceSession`s.
///
/// The plan is generic: nodes run in topological order of the graph, constants (initializers and
/// Constant nodes) are decoded once, each Conv's kernel is chosen, and every intermediate tensor is
/// released after its last use. A tensor whose only reader is a convolution need not exist: a
/// channel Concat, Resize or 2×2 MaxPool feeding a Winograd convolution is read as the
/// convolution goes, and a Relu or residual Add after it is applied as its output is written.
public struct NeuralNetwork: Sendable {
    /// The graph's inputs that callers must supply (initializers excluded).
    public let inputNames: [String]
    /// The graph's outputs, in the model's order.
    public let outputNames: [String]
    /// Declared input shapes (nil for symbolic dimensions; empty when undeclared), by input name.
    public let declaredInputShapes: [String: [Int?]]
    /// Declared output shapes, likewise, by output name.
    public let declaredOutputShapes: [String: [Int?]]

    let steps: [Step]
    let constants: [ConstantSlot]
    let inputSlots: [Int]
    let outputSlots: [Int]
    let slotCount: Int
    /// Whether every tensor's shape follows from the input shapes alone: no Resize size, Slice
    /// bound or Unsqueeze axis is computed from a tensor's values, only from Shape nodes and
    /// constants (as exporters write them). Then a session may reuse the shapes one run saw in the
    /// next run at the same input shapes, and skip computing a tensor that is read only for its shape.
    let shapesFollowInputShapes: Bool
    /// The shapes one session's run saw, for every session (see `ShapeMemo`).
    let shapeMemo = ShapeMemo()
    /// The convolutions (ordinals among the model file's Conv nodes) whose Winograd products are in
    /// bfloat16 when a session's kernels are `.avx512bf16`; float in every other.
    public let bf16Layers: [Int]

    struct Step: Sendable {
        let operation: Operation
        /// Slots of the inputs; nil for an omitted optional input ("").
        let inputs: [Int?]
        let output: Int
        /// Slots whose last reader is this step.
        let releases: [Int]
        let label: String
        /// A convolution's input channels, in order (indices into `inputs`); empty for other steps.
        var parts: [ConvolutionPart] = []
        /// A convolution's fused residual Add (index into `inputs`), added after the ReLU.
        var residual: Int?
    }

    struct ConstantSlot: Sendable {
        let slot: Int
        let value: Value
    }

    /// Decodes an ONNX model (the bytes of a .onnx file).
    /// - Parameter precision: which convolutions take BF16 products where the CPU has them
    ///   (default: `STICKERS_PRECISION`, see `ReducedPrecision`).
    public init(onnx data: Data, precision: ReducedPrecision = InstructionSet.reducedPrecision) throws(ModelError) {
        // Parsed in place (a mapped file is not copied first); the model keeps copies of its values.
        let model = data.withUnsafeBytes { raw in Result { () throws(ModelError) in try ONNXModel(bytes: raw) } }
        try self.init(model: model.get(), precision: precision)
    }

    /// Reads and decodes an ONNX model file.
    public init(contentsOf url: URL, precision: ReducedPrecision = InstructionSet.reducedPrecision) throws(ModelError) {
        let data: Data
        // Mapped rather than read, and parsed in place: the weights are copied once, into the
        // tensors (9 MB of fresh pages less per process than reading, then copying to an array).
        // Safe because the model cache replaces files by renaming, never rewriting one in place.
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw .unreadable("\(url.path): \(error.localizedDescription)")
        }
        try self.init(onnx: data, precision: precision)
    }

    init(model: ONNXModel, precision: ReducedPrecision = InstructionSet.reducedPrecision) throws(ModelError) {
        let graph = model.graph
        var slotOf: [String: Int] = [:]
        func slot(_ name: String) -> Int {
            if let s = slotOf[name] { return s }
            let s = slotOf.count
            slotOf[name] = s
            return s
        }
        var constantValues: [String: Value] = [:]
        for initializer in graph.initializers { constantValues[initializer.name] = try initializer.value() }

        let inputs = graph.inputs.map(\.name).filter { constantValues[$0] == nil }
        guard !inputs.isEmpty else { throw .invalidGraph("the graph has no inputs") }
        guard !graph.outputs.isEmpty else { throw .invalidGraph("the graph has no outputs") }
        var available = Set(inputs).union(constantValues.keys)

        // Kahn's algorithm: repeatedly take nodes whose inputs are all available, in file order.
        var pending = graph.nodes
        var ordered: [ONNXNode] = []
        while !pending.isEmpty {
            var next: [ONNXNode] = []
            var progressed = false
            for node in pending {
                if node.inputs.allSatisfy({ $0.isEmpty || available.contains($0) }) {
                    ordered.append(node)
                    for output in node.outputs where !output.isEmpty { available.insert(output) }
                    progressed = true
                } else {
                    next.append(node)
                }
            }
            if !progressed {
                let node = next[0]
                let missing = node.inputs.first { !$0.isEmpty && !available.contains($0) } ?? "?"
                throw .invalidGraph("\(node.label) reads '\(missing)', which no node, input or initializer provides (or the graph has a cycle)")
            }
            pending = next
        }
        for output in graph.outputs where !available.contains(output.name) {
            throw .invalidGraph("output '\(output.name)' is never produced")
        }

        // Decode operators; Constant nodes become constants.
        var decoded: [(node: ONNXNode, operation: Operation)] = []
        for node in ordered {
            guard node.outputs.count == 1 || (node.opType == "Dropout" && !node.outputs.isEmpty) else {
                throw .unsupported("\(node.label) with \(node.outputs.count) outputs")
            }
            let operation = try Operation(node: node) { constantValues[$0] }
            if case .constant(let value) = operation {
                constantValues[node.outputs[0]] = value
            } else {
                decoded.append((node, operation))
            }
        }

        let bf16Layers = Self.choosePrecision(precision, graph: graph, &decoded)

        // Fusions: the nodes that run inside a convolution rather than as steps of their own.
        let fusion = FusionPlan(&decoded, graphOutputs: Set(graph.outputs.map(\.name)))
        let fusedAway = fusion.fusedAway, renamed = fusion.renamed

        var steps: [Step] = []
        var lastReader: [Int: Int] = [:]
        var stepParts: [Int: [ConvolutionPart]] = [:]
        var stepResiduals: [Int: Int] = [:]
        for (i, (node, operation)) in decoded.enumerated() where !fusedAway.contains(i) {
            var names = fusion.convolutionInputs[i] ?? node.inputs
            if let fused = fusion.convolutionParts[i] {
                // Inputs: each part's tensor, followed by its resize scales and sizes if any; parts index them.
                names = []
                func index(_ name: String) -> Int { names.append(name); return names.count - 1 }
                stepParts[steps.count] = fused.map { part in
                    switch part {
                    case .tensor(let name): .tensor(input: index(name))
                    case .pooled(let pooling, let data): .pooled(pooling, input: index(data))
                    case .resized(let resize, let data, let scales, let sizes):
                        .resized(resize, input: index(data), scales: scales.map(index), sizes: sizes.map(index))
                    }
                }
            } else if case .conv = operation {
                stepParts[steps.count] = names.indices.map { .tensor(input: $0) }
            }
            if let addend = fusion.residuals[i] {
                stepResiduals[steps.count] = names.count
                names.append(addend)
            }
            let ins = names.map { $0.isEmpty ? nil : slot($0) }
            for case let s? in ins { lastReader[s] = steps.count }
            steps.append(Step(operation: operation, inputs: ins, output: slot(renamed[node.outputs[0]] ?? node.outputs[0]),
                              releases: [], label: node.label))
        }
        let outputSlots = graph.outputs.map { slot($0.name) }
        let constantSlots = constantValues.filter { slotOf[$0.key] != nil }.map { ConstantSlot(slot: slotOf[$0.key]!, value: $0.value) }
        let keep = Set(constantSlots.map(\.slot)).union(outputSlots)
        var releases = [[Int]](repeating: [], count: steps.count)
        for (s, step) in lastReader where !keep.contains(s) { releases[step].append(s) }
        self.steps = steps.indices.map { i in
            Step(operation: steps[i].operation, inputs: steps[i].inputs, output: steps[i].output,
                 releases: releases[i], label: steps[i].label, parts: stepParts[i] ?? [], residual: stepResiduals[i])
        }
        self.inputNames = inputs
        self.bf16Layers = bf16Layers
        self.inputSlots = inputs.map { slot($0) }
        self.outputNames = graph.outputs.map(\.name)
        self.outputSlots = outputSlots
        self.constants = constantSlots
        self.slotCount = slotOf.count
        self.declaredInputShapes = Dictionary(graph.inputs.map { ($0.name, $0.shape) }, uniquingKeysWith: { a, _ in a })
        self.declaredOutputShapes = Dictionary(graph.outputs.map { ($0.name, $0.shape) }, uniquingKeysWith: { a, _ in a })
        self.shapesFollowInputShapes = Self.shapesFollowInputShapes(self.steps, constants: Set(constantSlots.map(\.slot)))
    }

    /// See `shapesFollowInputShapes`: every input that sets an output's shape by its values must be
    /// computed from constants and Shape nodes only.
    private static func shapesFollowInputShapes(_ steps: [Step], constants: Set<Int>) -> Bool {
        var fromShapes = constants
        for step in steps {
            var shapeSetting: [Int?] = []
            switch step.operation {
            case .resize, .slice, .unsqueeze: shapeSetting = Array(step.inputs.dropFirst())
            case .conv:
                for case .resized(_, _, let scales, let sizes) in step.parts {
                    shapeSetting += [scales, sizes].compactMap { $0 }.map { step.inputs[$0] }
                }
            // Every operator named: a new one must say whether its inputs' values set its output's shape.
            case .constant, .identity, .shape, .gather, .cast, .concat, .relu, .sigmoid, .binary, .maxPool: break
            }
            guard shapeSetting.allSatisfy({ $0.map(fromShapes.contains) ?? true }) else { return false }
            switch step.operation {
            case .shape:
                fromShapes.insert(step.output)
            case .gather, .unsqueeze, .slice, .cast, .concat, .binary, .identity:
                if step.inputs.allSatisfy({ $0.map(fromShapes.contains) ?? true }) { fromShapes.insert(step.output) }
            case .constant, .relu, .sigmoid, .maxPool, .resize, .conv: break
            }
        }
        return true
    }
}
