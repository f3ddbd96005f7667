import Testing
@testable import SpacePhotos

@Test func aPauseHoldsEveryRequestBackAndIsNeverShortened() async {
    let throttle = RequestThrottle()
    #expect(await throttle.delayBeforeNextRequest() == .zero)
    await throttle.pause(for: .seconds(60))
    await throttle.pause(for: .seconds(1))
    let delay = await throttle.delayBeforeNextRequest()
    #expect(delay > .seconds(59) && delay <= .seconds(60))
}

@Test func anElapsedPauseLetsRequestsGo() async {
    let throttle = RequestThrottle()
    await throttle.pause(for: .zero)
    #expect(await throttle.delayBeforeNextRequest() == .zero)
}

@Test func theLastAnnouncedBudgetIsKept() async {
    let throttle = RequestThrottle()
    await throttle.record(remaining: 29)
    await throttle.record(remaining: nil)
    #expect(await throttle.remaining == 29)
}
