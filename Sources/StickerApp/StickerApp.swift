// The model layer: @MainActor @Observable view models (issue 6).
import StickerKit
