/// The emoji a sticker is filed under (Telegram and Signal require one; never empty).
public enum StickerEmoji {
    /// What a sticker gets when nobody chose: a guess from words in the photo's name, else 🙂.
    public static func suggested(forName name: String) -> String {
        let words = name.lowercased().split { !$0.isLetter }.map(String.init)
        for word in words {
            if let emoji = byWord[word] ?? byWord[String(word.dropLast())] { return emoji }  // "cats" → "cat"
        }
        return fallback
    }

    public static let fallback = "🙂"

    /// Whether `text` is exactly one emoji (one grapheme that renders as an emoji: not a bare digit or "#").
    public static func isSingleEmoji(_ text: String) -> Bool {
        guard text.count == 1, let first = text.unicodeScalars.first else { return false }
        let scalars = text.unicodeScalars
        return first.properties.isEmojiPresentation
            || (first.properties.isEmoji && scalars.count > 1 && scalars.contains { $0.value == 0xFE0F || $0.value == 0x20E3 })
    }

    private static let byWord: [String: String] = [
        "cat": "🐱", "kitten": "🐱", "dog": "🐶", "puppy": "🐶", "bird": "🐦", "nuthatch": "🐦", "robin": "🐦",
        "owl": "🦉", "duck": "🦆", "parrot": "🦜", "ladybird": "🐞", "ladybug": "🐞", "bee": "🐝",
        "butterfly": "🦋", "fish": "🐟", "horse": "🐴", "rabbit": "🐰", "bunny": "🐰", "fox": "🦊",
        "bear": "🐻", "flower": "🌸", "marigold": "🌼", "daisy": "🌼", "rose": "🌹", "tulip": "🌷",
        "sunflower": "🌻", "tree": "🌳", "leaf": "🍃", "coffee": "☕", "tea": "🍵", "cake": "🍰",
        "pizza": "🍕", "apple": "🍎", "rocket": "🚀", "astronaut": "🧑‍🚀", "moon": "🌙", "star": "⭐",
        "sun": "☀️", "car": "🚗", "bike": "🚲", "portrait": "🙂", "selfie": "🤳", "baby": "👶",
        "heart": "❤️", "ball": "⚽", "guitar": "🎸", "book": "📖", "house": "🏠", "mountain": "⛰️",
    ]
}
