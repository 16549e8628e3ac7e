/// A rounded rectangle: the path a shape layer fills or strokes and a layer's corner radius
/// clips to. It always has the same structure (four sides and four quarter-circle corners,
/// radius 0 included), so one morphs cleanly into another by interpolating rect and radius.
public struct RoundedRect: Sendable, Hashable {
    public var rect: Rect
    public var cornerRadius: Double

    public init(rect: Rect, cornerRadius: Double = 0) {
        self.rect = rect
        self.cornerRadius = cornerRadius
    }

    /// The radius actually drawn: at most half the shorter side.
    public var effectiveRadius: Double { max(0, min(cornerRadius, rect.width / 2, rect.height / 2)) }

    /// Signed distance from a point to the outline: negative inside, positive outside.
    @inlinable
    public func signedDistance(x: Double, y: Double) -> Double {
        let r = effectiveRadius
        let hx = rect.width / 2, hy = rect.height / 2
        let qx = abs(x - (rect.minX + hx)) - (hx - r)
        let qy = abs(y - (rect.minY + hy)) - (hy - r)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - r
    }

    /// Analytic anti-aliasing: how much of the pixel centred at (x, y) the filled shape covers.
    @inlinable
    public func fillCoverage(x: Double, y: Double) -> Float {
        Float(min(max(0.5 - signedDistance(x: x, y: y), 0), 1))
    }

    /// How much of the pixel a stroke of `lineWidth` centred on the outline covers.
    @inlinable
    public func strokeCoverage(x: Double, y: Double, lineWidth: Double) -> Float {
        let d = abs(signedDistance(x: x, y: y)) - lineWidth / 2
        return Float(min(max(0.5 - d, 0), 1))
    }
}

extension Canvas {
    /// What paints a shape: one colour or a gradient over the shape's bounds.
    public enum Paint: Sendable, Hashable {
        case color(Color)
        case gradient(Gradient)
    }

    /// Fills everything in `bounds` except the rounded rectangle (anti-aliased at its edge).
    public mutating func fill(outside shape: RoundedRect, within bounds: Rect, color: Color, opacity: Float, clip: Rect)
    {
        let area = bounds.intersection(clip)
        let b = area.pixelBounds(clippedTo: width, height)
        guard b.x0 < b.x1, b.y0 < b.y1 else { return }
        let paint = Canvas.premultiplied(color, opacity: opacity)
        for y in b.y0..<b.y1 {
            let cy = Canvas.overlap(y, area.minY, area.maxY)
            for x in b.x0..<b.x1 {
                let inside = shape.fillCoverage(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let c = Float(cy * Canvas.overlap(x, area.minX, area.maxX)) * (1 - inside)
                if c > 0 { blend(paint, coverage: c, at: y * width + x) }
            }
        }
    }

    /// Fills (`lineWidth` nil) or strokes a rounded rectangle with anti-aliased edges.
    public mutating func draw(_ shape: RoundedRect, paint: Paint, lineWidth: Double? = nil, opacity: Float, clip: Rect)
    {
        let grow = (lineWidth ?? 0) / 2 + 1
        let area = Rect(
            x: shape.rect.minX - grow, y: shape.rect.minY - grow, width: shape.rect.width + 2 * grow,
            height: shape.rect.height + 2 * grow
        )
        .intersection(clip)
        let b = area.pixelBounds(clippedTo: width, height)
        guard b.x0 < b.x1, b.y0 < b.y1, shape.rect.width > 0 || lineWidth != nil else { return }
        var solid = Pixel.zero
        if case .color(let c) = paint { solid = Canvas.premultiplied(c, opacity: opacity) }
        for y in b.y0..<b.y1 {
            let cy = Double(y) + 0.5
            let clipY = Float(Canvas.overlap(y, clip.minY, clip.maxY))
            for x in b.x0..<b.x1 {
                let cx = Double(x) + 0.5
                var coverage =
                    lineWidth.map { shape.strokeCoverage(x: cx, y: cy, lineWidth: $0) }
                    ?? shape.fillCoverage(x: cx, y: cy)
                coverage *= clipY * Float(Canvas.overlap(x, clip.minX, clip.maxX))
                guard coverage > 0 else { continue }
                switch paint {
                case .color:
                    blend(solid, coverage: coverage, at: y * width + x)
                case .gradient(let g):
                    let u = (cx - shape.rect.minX) / max(shape.rect.width, 1e-9)
                    let v = (cy - shape.rect.minY) / max(shape.rect.height, 1e-9)
                    blend(
                        Canvas.premultiplied(g.ramp.color(at: g.location(u: u, v: v)), opacity: opacity),
                        coverage: coverage, at: y * width + x)
                }
            }
        }
    }

    /// Draws coverage (a rasterised text) at a fractional position in one colour. `smooth`
    /// box-filters sub-pixel positions; otherwise the position is floored to whole pixels.
    /// With `tilePeriod`, copies repeat every that many pixels to the right and left.
    public mutating func draw(
        _ bitmap: AlphaBitmap, at origin: Point, color: Color, opacity: Float, smooth: Bool, tilePeriod: Double? = nil,
        clip: Rect
    ) {
        guard bitmap.width > 0, bitmap.height > 0 else { return }
        let ox = smooth ? origin.x : origin.x.rounded(.down)
        let oy = smooth ? origin.y : origin.y.rounded(.down)
        let b = clip.pixelBounds(clippedTo: width, height)
        guard b.x0 < b.x1, b.y0 < b.y1 else { return }
        let paint = Canvas.premultiplied(color, opacity: opacity)
        let fy = oy - oy.rounded(.down), fx = ox - ox.rounded(.down)
        // Weights of the two source rows/columns each pixel overlaps.
        let wy1 = Float(fy), wy0 = 1 - wy1, wx1 = Float(fx), wx0 = 1 - wx1
        let baseY = Int(oy.rounded(.down)), baseX = Int(ox.rounded(.down))
        let period = tilePeriod.map { Int($0.rounded()) } ?? 0
        let rowStart = max(b.y0, baseY), rowEnd = min(b.y1, baseY + bitmap.height + 1)
        guard rowStart < rowEnd else { return }
        let bw = bitmap.width, bh = bitmap.height
        /// The bitmap column for a strip column (wrapping when tiled), or -1 when there is none.
        @inline(__always) func column(_ col: Int) -> Int {
            var c = col
            if period > 0 {
                c %= period
                if c < 0 { c += period }
            }
            return c >= 0 && c < bw ? c : -1
        }
        let canvasWidth = width
        bitmap.coverage.withUnsafeBufferPointer { cov in
            pixels.withUnsafeMutableBufferPointer { dst in
                for x in b.x0..<b.x1 {
                    // Pixel x overlaps bitmap column c0 by 1 - fx and column c1 (to its left) by fx.
                    let c0 = column(x - baseX), c1 = column(x - baseX - 1)
                    if c0 < 0 && c1 < 0 { continue }
                    for y in rowStart..<rowEnd {
                        let r = y - baseY
                        var top: Float = 0, bottom: Float = 0
                        if r < bh {
                            if c0 >= 0 { top += Float(cov[r * bw + c0]) * wx0 }
                            if c1 >= 0 { top += Float(cov[r * bw + c1]) * wx1 }
                        }
                        if r >= 1 {
                            if c0 >= 0 { bottom += Float(cov[(r - 1) * bw + c0]) * wx0 }
                            if c1 >= 0 { bottom += Float(cov[(r - 1) * bw + c1]) * wx1 }
                        }
                        let c = (top * wy0 + bottom * wy1) / 255
                        guard c > 0 else { continue }
                        let i = y * canvasWidth + x
                        let s = paint * c
                        dst[i] = s + dst[i] * (1 - s.w)
                    }
                }
            }
        }
    }
}
