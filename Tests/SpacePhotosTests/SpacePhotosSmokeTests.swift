import Testing
@testable import SpacePhotos

@Test func moduleBuilds() {
    #expect(Bool(true))
}
