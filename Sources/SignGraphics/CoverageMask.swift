/// An 8-bit coverage mask placed on a canvas: what a drawing call multiplies its paint by
/// (a clip to a mask in Core Graphics, tiny-skia's `Mask`), passed to the call rather than
/// kept as canvas state. Canvas pixel (x, y) reads the mask at (x - x0, y - y0); outside
/// the mask nothing is painted.
public struct CoverageMask: Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Row-major coverage, 0 (nothing painted) to 255 (painted in full).
    public var coverage: [UInt8]
    /// Where the mask's top-left pixel lies on the canvas.
    public var x0: Int
    public var y0: Int

    public init(width: Int, height: Int, coverage: [UInt8], x0: Int = 0, y0: Int = 0) {
        precondition(coverage.count == width * height, "coverage count does not match the size")
        (self.width, self.height, self.coverage, self.x0, self.y0) = (width, height, coverage, x0, y0)
    }

    /// Makes this mask cover `width` x `height` pixels from (`x0`, `y0`), every pixel 0; its
    /// storage is kept, so a mask reshaped within the size it once had allocates nothing.
    public mutating func reshape(x0: Int, y0: Int, width: Int, height: Int) {
        (self.x0, self.y0, self.width, self.height) = (x0, y0, Swift.max(width, 0), Swift.max(height, 0))
        let count = self.width * self.height
        if coverage.count > count {
            coverage.removeLast(coverage.count - count)
        } else if coverage.count < count {
            coverage.append(contentsOf: repeatElement(0, count: count - coverage.count))
        }
    }

    /// The alpha of `canvas`, rounded to 8 bits, placed at its own origin.
    public init(alphaOf canvas: Canvas) {
        (width, height, x0, y0) = (canvas.width, canvas.height, 0, 0)
        coverage = canvas.pixels.map { Self.level($0) }
    }

    /// Writes the alpha of `canvas` into this mask (of the same size), reusing its storage.
    public mutating func read(alphaOf canvas: Canvas) {
        precondition(canvas.width == width && canvas.height == height, "the canvas's size differs")
        canvas.pixels.withUnsafeBufferPointer { src in
            coverage.withUnsafeMutableBufferPointer { dst in
                for i in dst.indices { dst[i] = Self.level(src[i]) }
            }
        }
    }

    /// A canvas pixel's alpha.
    @inline(__always)
    static func level(_ pixel: Canvas.Pixel) -> UInt8 { UInt8(truncatingIfNeeded: pixel >> 24) }

    /// `bounds` (canvas pixels) cut to where the mask lies.
    @inlinable
    public func clip(_ b: (x0: Int, y0: Int, x1: Int, y1: Int)) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = Swift.max(b.x0, self.x0), y0 = Swift.max(b.y0, self.y0)
        return (
            x0, y0, Swift.max(x0, Swift.min(b.x1, self.x0 + width)), Swift.max(y0, Swift.min(b.y1, self.y0 + height))
        )
    }
}
