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
        var solid = Pixel.zero, gradient: Gradient?
        switch paint {
        case .color(let c): solid = Canvas.premultiplied(c, opacity: opacity)
        case .gradient(let g): gradient = g
        }
        let r = shape.effectiveRadius, rect = shape.rect, canvasWidth = width
        // Deep inside the outline a fill covers a pixel fully and a stroke not at all: from
        // lineWidth / 2 + 0.5 in for a stroke, 0.5 for a fill (a hair more, so pixels on the
        // boundary still take the exact formula).
        let reach = (lineWidth.map { $0 / 2 } ?? 0) + 0.5 + 1e-9
        withClipMask { mask in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in b.y0..<b.y1 {
                    let cy = Double(y) + 0.5
                    let clipY = Float(Canvas.overlap(y, clip.minY, clip.maxY))
                    // Inside the rectangle, away from the corners' quarter circles, the
                    // distance to the outline is the distance to the nearest side: where this
                    // row is far enough from the top and bottom, so are the columns far
                    // enough from both sides.
                    let dy = min(cy - rect.minY, rect.maxY - cy), m = dy >= r ? reach : max(r, reach)
                    let first = Int((rect.minX + m - 0.5).rounded(.up))
                    let end = Int((rect.maxX - m - 0.5).rounded(.down)) + 1
                    let inner = dy >= reach && first < end ? first..<end : 0..<0
                    // A stroke visits only the columns on either side of its untouched middle.
                    let split = lineWidth != nil && !inner.isEmpty
                    let left = split ? b.x0..<max(b.x0, min(inner.lowerBound, b.x1)) : b.x0..<b.x1
                    let right = split ? max(inner.upperBound, b.x0)..<b.x1 : b.x1..<b.x1
                    for part in 0..<2 {
                        for x in part == 0 ? left : right {
                            let deep = inner.contains(x)
                            if deep && lineWidth != nil { continue }
                            let cx = Double(x) + 0.5
                            var coverage: Float =
                                deep
                                ? 1
                                : lineWidth.map { shape.strokeCoverage(x: cx, y: cy, lineWidth: $0) }
                                    ?? shape.fillCoverage(x: cx, y: cy)
                            coverage *= clipY * Float(Canvas.overlap(x, clip.minX, clip.maxX))
                            guard coverage > 0 else { continue }
                            let i = y * canvasWidth + x
                            var color = solid
                            if let g = gradient {
                                let u = (cx - rect.minX) / max(rect.width, 1e-9)
                                let v = (cy - rect.minY) / max(rect.height, 1e-9)
                                color = Canvas.premultiplied(
                                    g.ramp.color(at: g.location(u: u, v: v)), opacity: opacity)
                            }
                            let src = color * (mask.map { coverage * $0[i].w } ?? coverage)
                            dst[i] = src + dst[i] * (1 - src.w)
                        }
                    }
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
        let bw = bitmap.width, bh = bitmap.height
        let strip = StripSampler(baseX: baseX, width: bw, period: period)
        let columns = strip.pixels(within: b.x0, b.x1)
        guard rowStart < rowEnd, !columns.isEmpty else { return }
        let canvasWidth = width
        Canvas.unitCoverage.withUnsafeBufferPointer { unit in
            bitmap.coverage.withUnsafeBufferPointer { cov in
                withClipMask { mask in
                    pixels.withUnsafeMutableBufferPointer { dst in
                        for y in rowStart..<rowEnd {
                            // Row y overlaps bitmap row r by 1 - fy and row r - 1 by fy; a
                            // missing row reads as row 0 with no weight.
                            let r = y - baseY
                            let wTop = r < bh ? wy0 : 0, wBottom = r >= 1 ? wy1 : 0
                            guard wTop > 0 || wBottom > 0 else { continue }
                            let top = cov.baseAddress! + (r < bh ? r * bw : 0)
                            let bottom = cov.baseAddress! + (r >= 1 ? (r - 1) * bw : 0)
                            let oneRow = wTop == 1
                            strip.forEachRun(across: columns) { x, n, c0, c1 in
                                // A column outside the bitmap reads column 0 with no weight.
                                let w0 = c0 == nil ? 0 : wx0, w1 = c1 == nil ? 0 : wx1
                                let p0 = c0 ?? 0, p1 = c1 ?? 0, s0 = c0 == nil ? 0 : 1, s1 = c1 == nil ? 0 : 1
                                let row = y &* canvasWidth &+ x
                                @inline(__always) func pixel(_ k: Int) {
                                    let j0 = p0 &+ k &* s0, j1 = p1 &+ k &* s1
                                    var c = unit[Int(top[j0])] * w0 + unit[Int(top[j1])] * w1
                                    if !oneRow {
                                        c =
                                            c * wTop + (unit[Int(bottom[j0])] * w0 + unit[Int(bottom[j1])] * w1)
                                            * wBottom
                                    }
                                    // Blended even where the coverage is 0 (which leaves the pixel
                                    // as it was): a branch per pixel on glyph shapes mispredicts.
                                    let i = row &+ k
                                    if let mask { c *= mask[i].w }
                                    let s = paint * c
                                    dst[i] = s + dst[i] * (1 - s.w)
                                }
                                var k = 0
                                if s0 == 1 && s1 == 1 && p1 &+ 1 == p0 {
                                    // Eight pixels read nine neighbouring bytes a row: where they
                                    // are all 0 (between letters, in the gap) nothing is drawn.
                                    while k &+ 8 <= n {
                                        let at = p1 &+ k
                                        var any =
                                            UnsafeRawPointer(top + at).loadUnaligned(as: UInt64.self)
                                            | UInt64(top[at &+ 8])
                                        if !oneRow {
                                            any |=
                                                UnsafeRawPointer(bottom + at).loadUnaligned(as: UInt64.self)
                                                | UInt64(bottom[at &+ 8])
                                        }
                                        if any != 0 { for j in k..<(k &+ 8) { pixel(j) } }
                                        k &+= 8
                                    }
                                }
                                while k < n {
                                    pixel(k)
                                    k &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension Canvas {
    /// Coverage byte to 0...1.
    static let unitCoverage: [Float] = (0...255).map { Float($0) / 255 }
}
