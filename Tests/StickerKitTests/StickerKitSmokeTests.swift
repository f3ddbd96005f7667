import Testing
@testable import StickerKit

@Test func moduleBuilds() {
    #expect(Bool(true))
}
