import Testing
@testable import NeuralNet

@Test func moduleBuilds() {
    #expect(Bool(true))
}
