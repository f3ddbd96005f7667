import Testing
@testable import StickerApp

@Test func moduleBuilds() {
    #expect(Bool(true))
}
