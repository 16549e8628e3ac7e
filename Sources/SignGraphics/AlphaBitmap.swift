/// An 8-bit coverage bitmap (0 transparent, 255 opaque): a rasterised glyph or a run of text,
/// used as a layer's alpha.
public struct AlphaBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width * height` bytes.
    public var coverage: [UInt8]

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.coverage = [UInt8](repeating: 0, count: self.width * self.height)
    }

    public init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(coverage.count == width * height, "coverage count does not match the size")
        self.width = width
        self.height = height
        self.coverage = coverage
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set { coverage[y * width + x] = newValue }
    }

    /// Adds another bitmap's coverage at an offset (saturating), clipped to this bitmap.
    public mutating func add(_ other: AlphaBitmap, atX ox: Int, y oy: Int) {
        let x0 = max(0, ox), x1 = min(width, ox + other.width)
        let y0 = max(0, oy), y1 = min(height, oy + other.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let src = (y - oy) * other.width - ox
            let dst = y * width
            for x in x0..<x1 {
                let sum = Int(coverage[dst + x]) + Int(other.coverage[src + x])
                coverage[dst + x] = UInt8(min(sum, 255))
            }
        }
    }
}
