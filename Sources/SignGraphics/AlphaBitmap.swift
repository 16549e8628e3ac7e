/// An 8-bit coverage bitmap (0 transparent, 255 opaque): a rasterised glyph or a run of text,
/// used as a layer's alpha.
public struct AlphaBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row-major coverage, `width * height` bytes.
    public private(set) var coverage: [UInt8]
    /// Rows outside these hold no coverage (those inside may hold none either): a line of
    /// text's empty rows above its capitals and below its descenders, which a drawing then
    /// neither paints nor marks changed.
    public private(set) var inkedRows: Range<Int>

    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        self.coverage = [UInt8](repeating: 0, count: self.width * self.height)
        inkedRows = 0..<0
    }

    public init(width: Int, height: Int, coverage: [UInt8]) {
        precondition(coverage.count == width * height, "coverage count does not match the size")
        self.width = width
        self.height = height
        self.coverage = coverage
        inkedRows = StripSampler.inkedRows(of: coverage, width: width, height: height)
    }

    /// Equal when the coverage is: `inkedRows` may hold rows that were inked and cleared.
    public static func == (a: AlphaBitmap, b: AlphaBitmap) -> Bool {
        a.width == b.width && a.height == b.height && a.coverage == b.coverage
    }

    /// Counts row `y` among the inked ones.
    private mutating func ink(_ y: Int) {
        inkedRows = inkedRows.isEmpty ? y..<y + 1 : min(inkedRows.lowerBound, y)..<max(inkedRows.upperBound, y + 1)
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { coverage[y * width + x] }
        set {
            coverage[y * width + x] = newValue
            if newValue != 0 { ink(y) }
        }
    }

    /// Adds another bitmap's coverage at an offset (saturating), clipped to this bitmap.
    public mutating func add(_ other: AlphaBitmap, atX ox: Int, y oy: Int) {
        let x0 = max(0, ox), x1 = min(width, ox + other.width)
        let y0 = max(0, oy), y1 = min(height, oy + other.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let src = (y - oy) * other.width - ox
            let dst = y * width
            var any: UInt8 = 0
            for x in x0..<x1 {
                let sum = Int(coverage[dst + x]) + Int(other.coverage[src + x])
                coverage[dst + x] = UInt8(min(sum, 255))
                any |= other.coverage[src + x]
            }
            if any != 0 { ink(y) }
        }
    }
}
