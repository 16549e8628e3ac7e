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
    /// anti-aliased at fractional edges, scaled by `opacity` and by `mask`.
    public mutating func fill(
        _ rect: Rect, with gradient: Gradient, opacity: Float, clip: Rect, mask: CoverageMask? = nil
    ) {
        guard rect.width > 0, rect.height > 0 else { return }
        let area = rect.intersection(clip)
        let full = area.pixelBounds(clippedTo: width, height)
        guard full.x0 < full.x1, full.y0 < full.y1 else { return }
        /// Coverage of column x and of row y by `area`: exactly 1 away from its first and last.
        @inline(__always) func column(_ x: Int) -> Double {
            x == full.x0 || x == full.x1 - 1 ? Canvas.overlap(x, area.minX, area.maxX) : 1
        }
        @inline(__always) func row(_ y: Int) -> Double {
            y == full.y0 || y == full.y1 - 1 ? Canvas.overlap(y, area.minY, area.maxY) : 1
        }
        /// Where the centre of pixel (x, y) lies along the ramp.
        @inline(__always) func location(_ x: Int, _ y: Int) -> Double {
            let u = (Double(x) + 0.5 - rect.minX) / rect.width, v = (Double(y) + 0.5 - rect.minY) / rect.height
            return gradient.location(u: u, v: v)
        }
        // An axial gradient along one axis changes only along it: the ramp is evaluated once
        // per column (kept for a chunk of columns on the stack) or once per row.
        let horizontal = gradient.kind == .axial && gradient.startPoint.y == gradient.endPoint.y
        let vertical = gradient.kind == .axial && gradient.startPoint.x == gradient.endPoint.x && !horizontal
        let chunk = 32
        gradient.ramp.withReader { ramp in
            paint(within: full, mask: mask) { blitter, b in
                // A local of the closure, not a capture: a captured variable's every access
                // is checked for exclusivity at run time.
                var pixel = LastPremultiplied(opacity: opacity)
                // A zero paint leaves the pixel as it was; along rows, eight columns a mask leaves
                // out are passed over at once.
                if horizontal {
                    // Finite geometry: positions are then numbers, never NaN (which the ramp reads
                    // as its last colour and a bisection could not place).
                    let finite =
                        rect.minX.isFinite && rect.minY.isFinite && rect.width.isFinite && rect.height.isFinite
                        && gradient.startPoint.x.isFinite && gradient.startPoint.y.isFinite
                        && gradient.endPoint.x.isFinite && gradient.endPoint.y.isFinite
                    let flat =
                        finite
                        ? Self.flatColumns(of: gradient, ends: ramp.flatEnds, in: b.x0..<b.x1) { location($0, full.y0) }
                        : nil
                    let (before, from) = flat.map { ($0.before, $0.from) } ?? (b.x0, b.x1)
                    let ends = flat.map { (ramp.color(at: $0.positionBefore), ramp.color(at: $0.positionFrom)) }
                    let (colorBefore, colorFrom) = ends ?? (.clear, .clear)
                    // Each column's colour, already scaled by the column's coverage. A chunk's
                    // positions along the ramp are found first, `location`'s operations in its
                    // order with the row's part found once (so the same numbers): divisions
                    // that do not wait on one another or on the ramp's branches.
                    let (sx, dx) = (gradient.startPoint.x, gradient.endPoint.x - gradient.startPoint.x)
                    let dy = gradient.endPoint.y - gradient.startPoint.y, length2 = dx * dx + dy * dy
                    let across = ((Double(full.y0) + 0.5 - rect.minY) / rect.height - gradient.startPoint.y) * dy
                    withUnsafeTemporaryAllocation(of: Double.self, capacity: chunk) { positions in
                        withUnsafeTemporaryAllocation(of: Pixel.self, capacity: chunk) { colors in
                            for start in stride(from: b.x0, to: b.x1, by: chunk) {
                                let end = Swift.min(start + chunk, b.x1)
                                let first = Swift.max(start, before)
                                for x in first..<Swift.max(first, Swift.min(end, from)) {
                                    positions[x &- start] =
                                        length2 > 0
                                        ? (((Double(x) + 0.5 - rect.minX) / rect.width - sx) * dx + across) / length2
                                        : 0
                                }
                                for x in start..<end {
                                    // A flat end's colour without its position, else the ramp's.
                                    let c =
                                        x < before
                                        ? colorBefore : x >= from ? colorFrom : ramp.color(at: positions[x &- start])
                                    let cx = column(x)
                                    colors[x - start] =
                                        cx == 1
                                        ? pixel(c)
                                        : Canvas.pixel(ImageBitmap.premultiplied(c, opacity: opacity) * Float(cx))
                                }
                                for y in b.y0..<b.y1 {
                                    blitter.row(y).blend(
                                        colors.baseAddress!, count: end &- start, factor: Canvas.factor(Float(row(y))),
                                        at: start)
                                }
                            }
                        }
                    }
                } else if vertical {
                    for y in b.y0..<b.y1 {
                        let c = Canvas.spread(pixel(ramp.color(at: location(b.x0, y)))), cy = row(y),
                            line = blitter.row(y)
                        for x in b.x0..<b.x1 { line.blend(c, coverage: Float(cy * column(x)), at: x) }
                    }
                } else {
                    for y in b.y0..<b.y1 {
                        let cy = row(y), line = blitter.row(y)
                        for x in b.x0..<b.x1 {
                            line.blend(
                                Canvas.spread(pixel(ramp.color(at: location(x, y)))), coverage: Float(cy * column(x)),
                                at: x)
                        }
                    }
                }
            }
        }
    }

    /// The last colour premultiplied and its pixel: neighbouring pixels of a gradient mostly
    /// share a colour (8-bit steps, and the flat ends of a ramp), so each is converted once.
    struct LastPremultiplied {
        let opacity: Float
        var color = Color.clear
        var pixel: Pixel

        init(opacity: Float) {
            self.opacity = opacity
            pixel = Canvas.premultiplied(.clear, opacity: opacity)
        }

        /// `c` premultiplied at the opacity, as a pixel.
        @inline(__always)
        mutating func callAsFunction(_ c: Color) -> Pixel {
            if c != color { (color, pixel) = (c, Canvas.premultiplied(c, opacity: opacity)) }
            return pixel
        }
    }

    /// For an axial gradient along rows: the columns of `columns` that show a flat end of the
    /// ramp, found by bisection rather than by each column's position. Positions along a
    /// row are monotonic in x (each step of `location` rounds monotonically), so the columns
    /// before `before` all show the ramp's colour at `positionBefore` and those from `from`
    /// its colour at `positionFrom`: its first and last colours, in the order the axis runs.
    /// `nil` when the ramp has no flat `ends` (`ColorRamp.Reader.flatEnds`).
    static func flatColumns(
        of gradient: Gradient, ends: (low: Double, high: Double)?, in columns: Range<Int>, location: (Int) -> Double
    ) -> (before: Int, positionBefore: Double, from: Int, positionFrom: Double)? {
        guard let ends, !columns.isEmpty else { return nil }
        /// The first column from which `test` holds (it holds from some column on).
        func firstColumn(where test: (Double) -> Bool) -> Int {
            var (lo, hi) = (columns.lowerBound, columns.upperBound)
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if test(location(mid)) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        // Positions at most `low` show the first colour; past `high`, the last.
        let (below, above) = (ends.low, ends.high.nextUp)
        if gradient.endPoint.x >= gradient.startPoint.x {
            return (firstColumn { $0 > ends.low }, below, firstColumn { $0 > ends.high }, above)
        }
        return (firstColumn { $0 <= ends.high }, above, firstColumn { $0 <= ends.low }, below)
    }

    /// How much of pixel `p` (the span p..<p+1) lies between `lo` and `hi`.
    @inlinable
    public static func overlap(_ p: Int, _ lo: Double, _ hi: Double) -> Double {
        max(0, min(hi, Double(p) + 1) - max(lo, Double(p)))
    }
}
