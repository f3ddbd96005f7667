import Raster
import Testing
@testable import StickerKit

@Test func clusteringCoordinatesMapBackToTheSameColour() {
    for code in stride(from: 0, through: 255, by: 5) {
        let lab = OKLab(red: UInt8(code), green: UInt8(255 - code), blue: UInt8(code / 2))
        let back = ClusteringSpace.oklab(ClusteringSpace.point(lab))
        #expect(abs(back.L - lab.L) < 1e-4 && back.a == lab.a && back.b == lab.b)
    }
}

@Test func clusteringDistancesNeverExceedOKLabDistancesAndKeepLightnessOrder() {
    var previous = ClusteringSpace.point(OKLab(L: 0, a: 0, b: 0)).x
    for step in 1...100 {
        let (l0, l1) = (Float(step - 1) / 100, Float(step) / 100)
        let (p0, p1) = (ClusteringSpace.point(OKLab(L: l0, a: 0, b: 0)), ClusteringSpace.point(OKLab(L: l1, a: 0, b: 0)))
        #expect(p1.x > previous)
        #expect(p1.x - p0.x <= (l1 - l0) * 0.9 + 1e-6)
        previous = p1.x
    }
}
