/// Which nodes of a decoded graph run inside a convolution rather than as steps of their own:
/// each fusion applies only when the intermediate tensor has no other reader (and is not a graph
/// output), so no value a later step or the caller reads is lost.
struct FusionPlan {
    /// Indices (into the decoded nodes) of nodes that become part of a convolution.
    var fusedAway = Set<Int>()
    /// A convolution's output takes the name of the fused node after it (Relu, residual Add).
    var renamed: [String: String] = [:]
    /// A convolution's input tensors by name: its own input, or a fused channel Concat's inputs.
    var convolutionInputs: [Int: [String]] = [:]
    /// A Winograd convolution's input parts, resized or pooled ones read as it goes.
    var convolutionParts: [Int: [FusedPart]] = [:]
    /// A Winograd or narrow convolution's residual addend, added as it writes its output.
    var residuals: [Int: String] = [:]

    /// Plans the fusions of `decoded` (nodes in topological order); a convolution that absorbs a
    /// Relu is marked in place.
    init(_ decoded: inout [(node: ONNXNode, operation: Operation)], graphOutputs: Set<String>) {
        // In order: channel Concat → Conv (the convolution reads the parts in place), Resize /
        // MaxPool → Conv, Conv → Relu and Conv (→ Relu) → Add (applied as outputs are written).
        var readers: [String: Int] = [:]
        for (node, _) in decoded { for input in node.inputs { readers[input, default: 0] += 1 } }
        func soleReader(_ name: String) -> Bool { readers[name] == 1 && !graphOutputs.contains(name) }
        for i in decoded.indices {
            guard case .conv = decoded[i].operation else { continue }
            let source = decoded[i].node.inputs[0]
            convolutionInputs[i] = [source]
            if soleReader(source), let j = decoded[..<i].lastIndex(where: { $0.node.outputs[0] == source }),
               case .concat(let axis) = decoded[j].operation, axis == 1 || axis == -3 {
                convolutionInputs[i] = decoded[j].node.inputs.filter { !$0.isEmpty }
                fusedAway.insert(j)
            }
        }
        // Resize → Conv and MaxPool → Conv (also through a fused Concat): a Winograd convolution
        // computes the rows it reads, so the resized or pooled tensor is never materialised.
        for (i, names) in convolutionInputs {
            guard case .conv(let convolution) = decoded[i].operation, convolution.winograd != nil else { continue }
            convolutionParts[i] = names.map { name in
                guard soleReader(name), let j = decoded[..<i].lastIndex(where: { $0.node.outputs[0] == name }),
                      !fusedAway.contains(j) else { return .tensor(name) }
                let node = decoded[j].node
                func input(_ k: Int) -> String? { k < node.inputs.count && !node.inputs[k].isEmpty ? node.inputs[k] : nil }
                switch decoded[j].operation {
                case .resize(let resize):
                    guard let data = input(0) else { return .tensor(name) }
                    fusedAway.insert(j)
                    return .resized(resize, data: data, scales: input(resize.scalesInputIndex),
                                    sizes: resize.scalesInputIndex == 2 ? input(3) : nil)
                case .maxPool(let pooling) where pooling.fusesIntoConvolution:
                    guard let data = input(0) else { return .tensor(name) }
                    fusedAway.insert(j)
                    return .pooled(pooling, data: data)
                default:
                    return .tensor(name)
                }
            }
        }
        for i in decoded.indices {
            guard case .relu = decoded[i].operation, let source = decoded[i].node.inputs.first, soleReader(source),
                  let j = decoded[..<i].lastIndex(where: { $0.node.outputs[0] == source }),
                  case .conv(var convolution) = decoded[j].operation, !convolution.fusedRelu else { continue }
            convolution.fusedRelu = true
            decoded[j].operation = .conv(convolution)
            renamed[source] = decoded[i].node.outputs[0]
            fusedAway.insert(i)
        }
        // Conv (→ Relu) → Add: a Winograd or narrow convolution adds the other operand as it writes its
        // output (U²-Net's residual connections), when that operand exists before the convolution.
        for i in decoded.indices {
            guard case .binary(.add) = decoded[i].operation, decoded[i].node.inputs.count == 2 else { continue }
            for (own, other) in [(0, 1), (1, 0)] {
                let name = decoded[i].node.inputs[own], addend = decoded[i].node.inputs[other]
                guard soleReader(name), name != addend,
                      let j = decoded.indices[..<i].last(where: {
                          !fusedAway.contains($0) && (renamed[decoded[$0].node.outputs[0]] ?? decoded[$0].node.outputs[0]) == name
                      }),
                      case .conv(let convolution) = decoded[j].operation, convolution.winograd != nil || convolution.narrow, residuals[j] == nil,
                      !decoded[j...].contains(where: { $0.node.outputs[0] == addend }) else { continue }
                residuals[j] = addend
                renamed[decoded[j].node.outputs[0]] = decoded[i].node.outputs[0]
                fusedAway.insert(i)
                break
            }
        }
    }
}

/// A convolution input part while the plan is built, by tensor name.
enum FusedPart {
    case tensor(String)
    case resized(Resize, data: String, scales: String?, sizes: String?)
    case pooled(Pooling, data: String)
}
