import Raster

/// The network's stand-in for clips in `serve --preview` (and when the model cannot be had) and
/// in the app layer's tests: saliency is whether a pixel's colour is far from the frame's mean
/// border colour, on a coarse grid. Enough for a subject on a plain background (the browser
/// tests' clip); the engine uses U²-Net-p.
public struct BorderContrastSaliency: SaliencyPredicting {
    public var gridSide = 40

    public init(gridSide: Int = 40) { self.gridSide = gridSide }

    public func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        var border = (0.0, 0.0, 0.0), n = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width where x == 0 || y == 0 || x == image.width - 1 || y == image.height - 1 {
                let p = image[x, y]
                border.0 += Double(p.r); border.1 += Double(p.g); border.2 += Double(p.b); n += 1
            }
        }
        border = (border.0 / max(1, n), border.1 / max(1, n), border.2 / max(1, n))
        var plane = Plane(width: gridSide, height: gridSide)
        for gy in 0..<gridSide {
            for gx in 0..<gridSide {
                let p = image[min(image.width - 1, (2 * gx + 1) * image.width / (2 * gridSide)),
                              min(image.height - 1, (2 * gy + 1) * image.height / (2 * gridSide))]
                let d = abs(Double(p.r) - border.0) + abs(Double(p.g) - border.1) + abs(Double(p.b) - border.2)
                plane[gx, gy] = d > 120 ? 1 : 0
            }
        }
        return plane
    }
}
