/// The messaging apps a pack can be made for, with each one's published rules for static stickers.
public enum MessengerPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    case whatsapp
    case telegram
    case signal

    /// What a sticker file and a pack must be to be accepted.
    public struct Rules: Sendable, Hashable {
        /// The canvas: WhatsApp exactly 512×512; Telegram one side exactly 512, the other ≤ 512;
        /// Signal at most 512×512 (we give it Telegram's shape: the largest that fits).
        public var squareCanvas: Bool
        public var canvasSide: Int
        /// Transparent border kept around the subject, in pixels of the canvas.
        public var margin: Int
        /// Each sticker file must be smaller than this (WhatsApp: "less than 100 KB"; the others "at most").
        public var maxStickerBytes: Int
        public var stickersPerPack: ClosedRange<Int>
        /// The pack's small picture: WhatsApp's tray icon, Telegram's set thumbnail (nil: none).
        public var iconSide: Int?
        public var maxIconBytes: Int
        public var fileExtension: String
    }

    public var rules: Rules {
        switch self {
        // WhatsApp's sticker rules (github.com/WhatsApp/stickers): 512×512, < 100 KB, transparent
        // background, a 16 px margin recommended; tray icon 96×96 PNG < 50 KB; 3…30 a pack.
        case .whatsapp:
            Rules(squareCanvas: true, canvasSide: 512, margin: 16, maxStickerBytes: 100 * 1024 - 1,
                  stickersPerPack: 3...30, iconSide: 96, maxIconBytes: 50 * 1024 - 1, fileExtension: "wastickers")
        // Telegram (core.telegram.org/stickers): one side exactly 512, the other ≤ 512, ≤ 512 KB,
        // ≤ 120 a set; set thumbnail 100×100.
        case .telegram:
            Rules(squareCanvas: false, canvasSide: 512, margin: 0, maxStickerBytes: 512 * 1024,
                  stickersPerPack: 1...120, iconSide: 100, maxIconBytes: 128 * 1024, fileExtension: "zip")
        // Signal (support.signal.org: sticker guidelines): ≤ 512×512, ≤ 300 KB, ≤ 200 a pack, one emoji each.
        case .signal:
            Rules(squareCanvas: false, canvasSide: 512, margin: 0, maxStickerBytes: 300 * 1024,
                  stickersPerPack: 1...200, iconSide: nil, maxIconBytes: 0, fileExtension: "zip")
        }
    }

    public var displayName: String {
        switch self {
        case .whatsapp: "WhatsApp"
        case .telegram: "Telegram"
        case .signal: "Signal"
        }
    }
}
