extension Image {
    /// The rectangle at (`x`, `y`) of `width`×`height` pixels (which must lie inside the image).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Image {
        precondition(x >= 0 && y >= 0 && width >= 0 && height >= 0 && x + width <= self.width && y + height <= self.height,
                     "crop outside the image")
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let source = ((y + row) * self.width + x) * 4
            out.replaceSubrange((row * width * 4)..<((row + 1) * width * 4), with: pixels[source..<(source + width * 4)])
        }
        return Image(width: width, height: height, pixels: out)
    }

    /// Copies `image` in, replacing what is there, with its top-left at (`x`, `y`); the part outside
    /// this image is dropped.
    public mutating func paste(_ image: Image, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + image.width)
        guard x0 < x1 else { return }
        for row in max(0, y)..<min(height, y + image.height) {
            let source = ((row - y) * image.width + (x0 - x)) * 4, target = (row * width + x0) * 4
            let count = (x1 - x0) * 4
            pixels.replaceSubrange(target..<(target + count), with: image.pixels[source..<(source + count)])
        }
    }
}
