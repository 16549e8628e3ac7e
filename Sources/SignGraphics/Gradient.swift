import Glibc

/// A CAGradientLayer's look: its colour ramp and geometry. Points are in the layer's unit
/// square (0, 0 top-left; 1, 1 bottom-right), as Core Animation's `startPoint` / `endPoint`.
public struct Gradient: Sendable, Hashable {
    /// `CAGradientLayerType`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Along the line from startPoint to endPoint.
        case axial
        /// Ellipses around startPoint; endPoint gives the radii at location 1.
        case radial
        /// Angles around startPoint, starting towards endPoint, clockwise.
        case conic
    }

    public var ramp: ColorRamp
    public var kind: Kind
    public var startPoint: Point
    public var endPoint: Point

    /// Core Animation's default geometry: vertical, top to bottom.
    public init(
        ramp: ColorRamp, kind: Kind = .axial, startPoint: Point = Point(x: 0.5, y: 0),
        endPoint: Point = Point(x: 0.5, y: 1)
    ) {
        self.ramp = ramp
        self.kind = kind
        self.startPoint = startPoint
        self.endPoint = endPoint
    }

    /// The position along the ramp at a point of the unit square.
    @inlinable
    public func location(u: Double, v: Double) -> Double {
        let dx = endPoint.x - startPoint.x, dy = endPoint.y - startPoint.y
        switch kind {
        case .axial:
            let length2 = dx * dx + dy * dy
            guard length2 > 0 else { return 0 }
            return ((u - startPoint.x) * dx + (v - startPoint.y) * dy) / length2
        case .radial:
            let rx = dx == 0 ? 1e-9 : dx, ry = dy == 0 ? 1e-9 : dy
            let a = (u - startPoint.x) / rx, b = (v - startPoint.y) / ry
            return (a * a + b * b).squareRoot()
        case .conic:
            var angle = atan2(v - startPoint.y, u - startPoint.x) - atan2(dy, dx)
            if angle < 0 { angle += 2 * Double.pi }
            return angle / (2 * Double.pi)
        }
    }
}

extension Canvas {
    /// Fills `rect` (a layer's frame on the canvas) with a gradient, clipped to `clip`,
    /// anti-aliased at fractional edges, scaled by `opacity`.
    public mutating func fill(_ rect: Rect, with gradient: Gradient, opacity: Float, clip: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        let area = rect.intersection(clip)
        let b = area.pixelBounds(clippedTo: width, height)
        guard b.x0 < b.x1, b.y0 < b.y1 else { return }
        // An axial gradient along one axis changes only along it: evaluate the ramp once per
        // column (or row) rather than once per pixel.
        let horizontal = gradient.kind == .axial && gradient.startPoint.y == gradient.endPoint.y
        let vertical = gradient.kind == .axial && gradient.startPoint.x == gradient.endPoint.x
        if horizontal || vertical {
            let (outer, inner) = horizontal ? ((b.x0, b.x1), (b.y0, b.y1)) : ((b.y0, b.y1), (b.x0, b.x1))
            for o in outer.0..<outer.1 {
                let along =
                    (Double(o) + 0.5 - (horizontal ? rect.minX : rect.minY)) / (horizontal ? rect.width : rect.height)
                let color = Canvas.premultiplied(
                    gradient.ramp.color(
                        at: gradient.location(u: horizontal ? along : 0.5, v: horizontal ? 0.5 : along)),
                    opacity: opacity)
                let co = horizontal ? Canvas.overlap(o, area.minX, area.maxX) : Canvas.overlap(o, area.minY, area.maxY)
                for i in inner.0..<inner.1 {
                    let ci =
                        horizontal ? Canvas.overlap(i, area.minY, area.maxY) : Canvas.overlap(i, area.minX, area.maxX)
                    let c = Float(co * ci)
                    guard c > 0 else { continue }
                    blend(color, coverage: c, at: horizontal ? i * width + o : o * width + i)
                }
            }
            return
        }
        for y in b.y0..<b.y1 {
            let cy = Canvas.overlap(y, area.minY, area.maxY)
            let v = (Double(y) + 0.5 - rect.minY) / rect.height
            for x in b.x0..<b.x1 {
                let c = Float(cy * Canvas.overlap(x, area.minX, area.maxX))
                guard c > 0 else { continue }
                let u = (Double(x) + 0.5 - rect.minX) / rect.width
                let color = gradient.ramp.color(at: gradient.location(u: u, v: v))
                blend(Canvas.premultiplied(color, opacity: opacity), coverage: c, at: y * width + x)
            }
        }
    }

    /// How much of pixel `p` (the span p..<p+1) lies between `lo` and `hi`.
    @inlinable
    public static func overlap(_ p: Int, _ lo: Double, _ hi: Double) -> Double {
        max(0, min(hi, Double(p) + 1) - max(lo, Double(p)))
    }
}
