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
        /// Held by reference: a shape's fill and stroke would otherwise carry two gradients
        /// inline, and every layer (a value copied for each presentation) their size.
        indirect case gradient(Gradient)
    }

    /// Fills everything in `bounds` except the rounded rectangle (anti-aliased at its edge).
    public mutating func fill(
        outside shape: RoundedRect, within bounds: Rect, color: Color, opacity: Float, clip: Rect,
        mask: CoverageMask? = nil
    ) {
        let area = bounds.intersection(clip)
        let color = Canvas.spread(Canvas.premultiplied(color, opacity: opacity))
        paint(within: area.pixelBounds(clippedTo: width, height), mask: mask) { blitter, b in
            for y in b.y0..<b.y1 {
                let cy = Canvas.overlap(y, area.minY, area.maxY), line = blitter.row(y)
                for x in b.x0..<b.x1 {
                    let inside = shape.fillCoverage(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let c = Float(cy * Canvas.overlap(x, area.minX, area.maxX)) * (1 - inside)
                    if c > 0 { line.blend(color, coverage: c, at: x) }
                }
            }
        }
    }

    /// Fills (`lineWidth` nil) or strokes a rounded rectangle with anti-aliased edges, scaled
    /// by `opacity` and by `mask`.
    public mutating func draw(
        _ shape: RoundedRect, paint fill: Paint, lineWidth: Double? = nil, opacity: Float, clip: Rect,
        mask: CoverageMask? = nil
    ) {
        switch fill {
        case .color(let c):
            draw(
                shape, solid: Canvas.spread(Canvas.premultiplied(c, opacity: opacity)), gradient: nil,
                lineWidth: lineWidth, opacity: opacity, clip: clip, mask: mask)
        case .gradient(let g):
            draw(shape, solid: 0, gradient: g, lineWidth: lineWidth, opacity: opacity, clip: clip, mask: mask)
        }
    }

    /// The same with `gradient` as the paint, drawn as `draw(_:paint: .gradient(gradient), ...)`
    /// draws it without making that paint: a gradient paint is held by reference, and making
    /// one allocates (a gradient layer's rounded corners, every frame it is drawn).
    public mutating func draw(
        _ shape: RoundedRect, gradient: Gradient, lineWidth: Double? = nil, opacity: Float, clip: Rect,
        mask: CoverageMask? = nil
    ) {
        draw(shape, solid: 0, gradient: gradient, lineWidth: lineWidth, opacity: opacity, clip: clip, mask: mask)
    }

    /// Paints the rounded rectangle with `gradient`, or in `solid` (premultiplied by the
    /// opacity and spread) when there is none.
    private mutating func draw(
        _ shape: RoundedRect, solid: UInt64, gradient: Gradient?, lineWidth: Double?, opacity: Float, clip: Rect,
        mask: CoverageMask?
    ) {
        let grow = (lineWidth ?? 0) / 2 + 1
        let area = Rect(
            x: shape.rect.minX - grow, y: shape.rect.minY - grow, width: shape.rect.width + 2 * grow,
            height: shape.rect.height + 2 * grow
        )
        .intersection(clip)
        guard shape.rect.width > 0 || lineWidth != nil else { return }
        let r = shape.effectiveRadius, rect = shape.rect
        // Deep inside the outline a fill covers a pixel fully and a stroke not at all: from
        // lineWidth / 2 + 0.5 in for a stroke, 0.5 for a fill (a hair more, so pixels on the
        // boundary still take the exact formula).
        let reach = (lineWidth.map { $0 / 2 } ?? 0) + 0.5 + 1e-9
        // A gradient's ramp is unpacked once for the whole outline (an empty one for a colour).
        (gradient?.ramp ?? ColorRamp(colors: [Color]())).withReader { ramp in
            paint(within: area.pixelBounds(clippedTo: width, height), mask: mask) { blitter, b in
                for y in b.y0..<b.y1 {
                    let cy = Double(y) + 0.5
                    let clipY = Float(Canvas.overlap(y, clip.minY, clip.maxY))
                    let line = blitter.row(y)
                    // Inside the rectangle, away from the corners' quarter circles, the distance
                    // to the outline is the distance to the nearest side: where this row is far
                    // enough from the top and bottom, so are the columns far enough from both sides.
                    let dy = min(cy - rect.minY, rect.maxY - cy), m = dy >= r ? reach : max(r, reach)
                    let first = Int(pixel: rect.minX + m - 0.5, .up)
                    let end = Int(pixel: rect.maxX - m - 0.5, .down) + 1
                    let inner = dy >= reach && first < end ? first..<end : 0..<0
                    // A stroke visits only the columns on either side of its untouched middle.
                    let split = lineWidth != nil && !inner.isEmpty
                    let left = split ? b.x0..<max(b.x0, min(inner.lowerBound, b.x1)) : b.x0..<b.x1
                    let right = split ? min(max(inner.upperBound, b.x0), b.x1)..<b.x1 : b.x1..<b.x1
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
                            var color = solid
                            if let g = gradient {
                                let u = (cx - rect.minX) / max(rect.width, 1e-9)
                                let v = (cy - rect.minY) / max(rect.height, 1e-9)
                                color = Canvas.spread(
                                    Canvas.premultiplied(ramp.color(at: g.location(u: u, v: v)), opacity: opacity))
                            }
                            line.blend(color, coverage: coverage, at: x)
                        }
                    }
                }
            }
        }
    }
}
