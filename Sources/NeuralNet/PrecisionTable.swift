/// The convolutions of a known network that take BF16 products by default
/// (`ReducedPrecision.tolerantLayers`), chosen by measuring the cut-out: the quality gate
/// (scripts/precision_gate.py) run with BF16 in one group of layers at a time (docs/benchmarks.md,
/// "BF16 where the cut-out tolerates it").
struct PrecisionTable: Sendable {
    /// Part of the cache key of results computed with a table: bump it whenever a table changes.
    static let version = 1
    static let known: [PrecisionTable] = [.u2netp]

    /// A run of convolutions (ordinals in the model file's order) and whether they take BF16.
    struct Group: Sendable {
        let ordinals: ClosedRange<Int>
        let bf16: Bool
    }

    /// How the network is recognised: its number of convolutions, Σ output × input channels over
    /// them, and the channels of a few convolutions the groups are placed by.
    let convolutionCount: Int
    let channelProducts: Int
    let landmarks: [(ordinal: Int, outChannels: Int, inChannels: Int)]
    /// Every convolution not in a group is float.
    let groups: [Group]

    var bf16Layers: Set<Int> { Set(groups.filter(\.bf16).flatMap(\.ordinals)) }

    /// Whether `convolutions` (in the model file's order) are this table's network.
    func describes(_ convolutions: [(outChannels: Int, inChannels: Int)]) -> Bool {
        convolutions.count == convolutionCount
            && convolutions.reduce(0) { $0 + $1.outChannels * $1.inChannels } == channelProducts
            && landmarks.allSatisfy { convolutions[$0.ordinal] == ($0.outChannels, $0.inChannels) }
    }

    /// U²-Net-p (rembg's u2netp.onnx: 119 convolutions, 19.76 G multiply-adds at 320²). Its
    /// ordinals by stage: encoders 1–6 are 0–13, 14–25, 26–35, 36–43, 44–51, 52–59; decoders 5–1
    /// are 60–67, 68–75, 76–85, 86–97, 98–111; the side outputs 112–118 (one output channel: the
    /// narrow kernel, always float). Dilated convolutions run the direct kernel, always float.
    /// Measured on the dev set, BF16 in one group at a time (mean IoU change, worst case's, pixels
    /// over ½ flipped in all; the gate allows −0.002): encoders 1–6 +0.0006 / −0.0003 / 17.7 k,
    /// decoders 5–3 +0.0001 / −0.0001 / 5.5 k, decoder 2's first convolution, second, and the rest but
    /// its last 0.0000 / −0.0001, −0.0000, −0.0002 / 0.7 k, 0.5 k, 1.4 k, decoder 1's first and the rest
    /// +0.0000 / −0.0000, −0.0002 / 0.6 k, 2.2 k — and decoder 2's last convolution alone −0.0023 /
    /// −0.0115 / 94 k, all of BF16-everywhere's loss (−0.0022 / −0.0110 / 98 k). This table
    /// together: +0.0001 / −0.0010 / 16.5 k, alpha error −0.11 % (worst case +1.0 %).
    static let u2netp = PrecisionTable(
        convolutionCount: 119, channelProducts: 124_742,
        landmarks: [(86, 64, 128), (97, 64, 32), (98, 64, 128), (111, 64, 32)],
        groups: [
            // Encoders, decoders 5–3, decoder 2 up to its inner decoder: each group's BF16 error is
            // lost in the cut-out (above), the lot together too (the gate's table in the docs).
            // Decoder 2's input (86, 128 → 64 at 160²: 1.9 G multiply-adds) is among them.
            Group(ordinals: 0...96, bf16: true),
            // Decoder 2's last convolution (32 → 64 at 160², 0.47 G, 2.4 % of the multiply-adds):
            // its output is decoder 2's result itself (plus the stage's input), which both side
            // output 2 and decoder 1 read; in BF16 it alone turns the dev set's mean IoU by −0.0023
            // and alpha error by +3.3 %, what BF16 everywhere costs. Float.
            Group(ordinals: 97...97, bf16: false),
            // Decoder 1 (98–111), the 128 → 64 input among them (98: 7.55 G, 38 % of the network):
            // 636 pixels flip over the dev set with 98 alone, 2.2 k with the rest.
            Group(ordinals: 98...111, bf16: true),
        ])
}

extension NeuralNetwork {
    /// Marks the convolutions `precision` chooses for BF16 products, by their ordinal among the
    /// graph's Conv nodes in file order (what `PrecisionTable` lists). Returns their ordinals.
    static func choosePrecision(_ precision: ReducedPrecision, graph: ONNXGraph,
                                _ decoded: inout [(node: ONNXNode, operation: Operation)]) -> [Int] {
        // Ordinals in file order (the decoded nodes are in topological order, which may differ).
        var ordinalOf: [String: Int] = [:]
        for node in graph.nodes where node.opType == "Conv" {
            guard let output = node.outputs.first else { continue }
            ordinalOf[output] = ordinalOf.count
        }
        var byOrdinal: [Int: Int] = [:]
        for (i, entry) in decoded.enumerated() {
            guard case .conv = entry.operation, let output = entry.node.outputs.first, let ordinal = ordinalOf[output] else { continue }
            byOrdinal[ordinal] = i
        }
        var channels: [(outChannels: Int, inChannels: Int)] = []
        for ordinal in 0..<ordinalOf.count {
            guard let i = byOrdinal[ordinal], case .conv(let convolution) = decoded[i].operation else { return [] }
            channels.append((convolution.outChannels, convolution.inChannels))
        }
        let chosen = precision.layers(of: channels)
        for ordinal in chosen {
            guard let i = byOrdinal[ordinal], case .conv(var convolution) = decoded[i].operation,
                  convolution.winograd != nil else { continue }
            convolution.bf16Products = true
            decoded[i].operation = .conv(convolution)
        }
        return chosen.filter { ordinal in
            if let i = byOrdinal[ordinal], case .conv(let convolution) = decoded[i].operation { convolution.bf16Products } else { false }
        }.sorted()
    }
}
