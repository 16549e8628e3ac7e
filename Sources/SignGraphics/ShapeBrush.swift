/// Draws the built-in sprite shapes (a disc, a turned rectangle) onto a canvas, the canvas's
/// pixels, damage and mask reached once for a whole batch (an emitter's particles) rather than
/// once a shape. Coverage is worked out four columns at a time (`SIMD4<Float>`) and blended
/// four pixels at a time in 16-bit lanes, the same sums as one at a time (which the columns at
/// the canvas's right edge and under a mask take).
public struct ShapeBrush {
    let blitter: Blitter
    /// The canvas's width: four columns from `x` are blended at once only below it.
    let canvasWidth: Int
    /// Where paints may land: the clip's pixels, cut to the canvas and to the mask.
    let x0: Int, y0: Int, x1: Int, y1: Int
    let additive: Bool
    /// The union of the boxes drawn (`x0 >= x1`: none), marked as the canvas's damage once
    /// when the brush is done rather than row by row a shape: a batch's particles overlap and
    /// fill the rows between them, and the frame's writing out reads a span a row anyway.
    var drawn: (x0: Int, y0: Int, x1: Int, y1: Int) = (Int.max, Int.max, Int.min, Int.min)
    /// `DiscTable.factors`, reached for the brush's life.
    let discs: UnsafePointer<UInt8>
    /// `SquareTable.factors`, reached for the brush's life.
    let squares: UnsafePointer<UInt8>

    /// Draws a circle (`round`) or a rectangle `spriteWidth` x `spriteHeight` pixels before
    /// `scale`, centred at `center`, turned by `angle` radians (clockwise on the board), in
    /// `color` (premultiplied, 0...1), each pixel's coverage analytic: a disc's 1 less its
    /// centre's distance past the radius less half a pixel, a rectangle's the product of its
    /// two sides' (each pixel's centre taken into the rectangle's frame), held to 0...1. A
    /// shape thinner than a pixel keeps its area rather than its width: its coverage is that of
    /// a pixel-wide shape times how much thinner it is.
    @inline(__always)
    public mutating func draw(
        round: Bool, width spriteWidth: Double, height spriteHeight: Double, center: Point, scale: Double,
        angle: Double, color: SIMD4<Float>
    ) {
        guard color[3] > 0 else { return }
        draw(
            round: round, width: spriteWidth, height: spriteHeight, x: center.x, y: center.y, scale: scale,
            angle: angle, pixel: Canvas.pixel(color))
    }

    /// Draws `count` shapes from `shapes` in turn, as `draw(round:width:height:center:scale:angle:color:)`
    /// draws each (its colour already a pixel, `Canvas.pixel` of one whose alpha is above 0):
    /// a batch's loop in this module, so that each shape's table look-up and blends are
    /// compiled into it rather than called a shape.
    public mutating func draw(_ shapes: UnsafePointer<Shape>, count: Int) {
        for i in 0..<count {
            let s = shapes + i
            let table = s.pointee.table, x = s.pointee.x, y = s.pointee.y, angle = s.pointee.angle
            // Its table known (`table(round:width:height:scale:)`): what `draw` finds, without
            // the size's checks and look-up, when the centre and turn are within the table's
            // reach (else `draw`, which finds what to do).
            if table != 0, abs(x) < 0x1p40, abs(y) < 0x1p40, angle.isFinite, table < 16 || abs(angle) < 0x1p40 {
                let p =
                    table < 16
                    ? disc(size: Int(table &- 1), center: Point(x: x, y: y))
                    : square(size: Int(table &- 16), center: Point(x: x, y: y), angle: angle)
                drawTable(
                    p.entry, rowBytes: p.rowBytes, at: (p.ox, p.oy), box: (p.x0, p.y0, p.x1, p.y1),
                    pixel: s.pointee.pixel)
                continue
            }
            draw(
                round: s.pointee.round, width: s.pointee.width, height: s.pointee.height, x: x, y: y,
                scale: s.pointee.scale, angle: angle, pixel: s.pointee.pixel)
        }
    }

    /// Which table a shape `width` x `height` px before `scale` has its coverage from, as
    /// `Shape.table` says it (0: none, the arithmetic's or not drawn): the same for every shape
    /// of that size, so that a batch of them is told it once.
    public static func table(round: Bool, width: Double, height: Double, scale: Double) -> UInt8 {
        let w = min(width * scale, Canvas.largestSprite), h = min(height * scale, Canvas.largestSprite)
        guard w > 0, h > 0, w.isFinite, h.isFinite, w == h,
            let size = round ? DiscTable.size(w) : SquareTable.size(w)
        else { return 0 }
        return UInt8(round ? 1 &+ size : 16 &+ size)
    }

    /// One shape of a batch (`draw(_:count:)`): a circle (`round`) or a rectangle `width` x
    /// `height` px before `scale`, centred at `x`, `y` on the canvas, turned by `angle`
    /// radians, in `pixel` (premultiplied, its alpha above 0 before rounding).
    public struct Shape {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public var scale: Double
        public var angle: Double
        public var pixel: Canvas.Pixel
        public var round: Bool
        /// `ShapeBrush.table(round:width:height:scale:)` of the shape, or 0 (worked out when
        /// it is drawn).
        public var table: UInt8

        @inlinable
        public init(
            round: Bool, width: Double, height: Double, x: Double, y: Double, scale: Double, angle: Double,
            pixel: Canvas.Pixel, table: UInt8 = 0
        ) {
            (self.round, self.width, self.height, self.x, self.y) = (round, width, height, x, y)
            (self.scale, self.angle, self.pixel, self.table) = (scale, angle, pixel, table)
        }
    }

    /// The same with the colour as a pixel and the centre as its two coordinates.
    @inline(__always)
    mutating func draw(
        round: Bool, width spriteWidth: Double, height spriteHeight: Double, x centerX: Double, y centerY: Double,
        scale: Double, angle: Double, pixel: Canvas.Pixel
    ) {
        let center = Point(x: centerX, y: centerY)
        // Far larger than any board is as large as that: every sum below stays finite.
        let w = min(spriteWidth * scale, Canvas.largestSprite), h = min(spriteHeight * scale, Canvas.largestSprite)
        guard w > 0, h > 0, w.isFinite, h.isFinite, center.x.isFinite, center.y.isFinite, angle.isFinite
        else { return }
        // A disc 1 to 3 px across in steps of half a pixel has its coverage from a table, its
        // centre taken to the nearest 1/16 px (its bounds too, so the table and the arithmetic
        // below agree on every pixel); so has a square 1 to 2.5 px, its centre taken to the
        // nearest 1/8 px and its turn to the nearest 32nd of a quarter turn. Neither reaches
        // the arithmetic's set-up.
        if w == h, abs(center.x) < 0x1p40, abs(center.y) < 0x1p40,
            let size = round ? DiscTable.size(w) : abs(angle) < 0x1p40 ? SquareTable.size(w) : nil
        {
            let p = round ? disc(size: size, center: center) : square(size: size, center: center, angle: angle)
            return drawTable(
                p.entry, rowBytes: p.rowBytes, at: (p.ox, p.oy), box: (p.x0, p.y0, p.x1, p.y1), pixel: pixel)
        }
        let hw = Float(w / 2), hh = Float(h / 2)
        let fx = min(1, 2 * hw), fy = min(1, 2 * hh)
        let rx = max(hw, 0.5), ry = max(hh, 0.5)
        // A circle looks the same turned: no turn to compute.
        let c: Float, s: Float
        if round {
            (c, s) = (1, 0)
        } else {
            let turn = sineCosine(angle)
            (c, s) = (Float(turn.cos), Float(turn.sin))
        }
        let edge = min(rx, ry) + 0.5, thin = min(fx, fy) * min(fx, fy)
        // How far from the centre a pixel's centre may be and have any coverage: a disc's edge,
        // or the turned rectangle's (its sides half a pixel out) half extent. The pixels drawn
        // and marked are those whose centres lie within it, no more.
        let ax = Double(round ? edge : abs(c) * (rx + 0.5) + abs(s) * (ry + 0.5))
        let ay = Double(round ? edge : abs(s) * (rx + 0.5) + abs(c) * (ry + 0.5))
        let bx0 = max(Int(pixel: center.x - ax - 0.5, .down) &+ 1, x0)
        let bx1 = min(Int(pixel: center.x + ax - 0.5, .up), x1)
        let by0 = max(Int(pixel: center.y - ay - 0.5, .down) &+ 1, y0)
        let by1 = min(Int(pixel: center.y + ay - 0.5, .up), y1)
        guard bx0 < bx1, by0 < by1 else { return }
        mark(bx0, by0, bx1, by1)
        let spread = Canvas.spread(pixel)
        let lanes = Blitter.Lanes(spread)
        // The first column's centre from the shape's, and each of four columns' from the first.
        let left = Float(Double(bx0) + 0.5 - center.x), columns = SIMD4<Float>(0, 1, 2, 3)
        // Four columns blended at once where they all lie on the canvas and no mask is read.
        let whole = blitter.mask == nil ? canvasWidth - 4 : Int.min
        for y in by0..<by1 {
            let dy = Float(Double(y) + 0.5 - center.y)
            let row = blitter.row(y)
            var x = bx0
            while x < bx1 {
                let dx = columns + (left + Float(x &- bx0))
                var coverage =
                    round
                    ? Self.disc(edge: edge, dx: dx, dy: dy) * thin
                    : Self.square(c: c, s: s, rx: rx, ry: ry, fx: fx, fy: fy, dx: dx, dy: dy)
                // Columns past the shape's box (or the clip) left as they are.
                coverage.replace(with: 0, where: columns .>= Float(bx1 &- x))
                // Rounded to 0...255 as `Canvas.factor` rounds (coverage is within 0...1).
                blend(Self.factors(coverage), lanes: lanes, spread: spread, row: row, at: x, whole: whole, end: bx1)
                x &+= 4
            }
        }
    }

    /// Where a table shape's coverage is: its entry, `rowBytes` a row, its first byte the pixel
    /// at `ox`, `oy`, its nonzero bytes within `x0..<x1` by `y0..<y1` (not yet cut to the clip).
    struct Placed {
        var entry: UnsafePointer<UInt8>
        var rowBytes: Int
        var ox: Int, oy: Int
        var x0: Int, y0: Int, x1: Int, y1: Int
    }

    /// A disc of `DiscTable`'s `size` centred at `center` (within ±2^40), its centre taken to
    /// the nearest 1/16 px: the pixels whose centres lie within its edge (the radius and half a
    /// pixel), in sixteenths, what the arithmetic's bounds give, without four conversions.
    @inline(__always)
    func disc(size: Int, center: Point) -> Placed {
        let qx = Int(Self.nearest(center.x * 16)), qy = Int(Self.nearest(center.y * 16))
        let e = size &* 4 &+ 16
        return Placed(
            entry: discs + DiscTable.entry(size: size, phaseX: qx & 15, phaseY: qy & 15), rowBytes: DiscTable.rowBytes,
            ox: (qx >> 4) &- 2, oy: (qy >> 4) &- 2, x0: ((qx &- 8 &- e) >> 4) &+ 1, y0: ((qy &- 8 &- e) >> 4) &+ 1,
            x1: (qx &- 8 &+ e &+ 15) >> 4, y1: (qy &- 8 &+ e &+ 15) >> 4)
    }

    /// A square of `SquareTable`'s `size` centred at `center` and turned `angle` (both within
    /// ±2^40), its centre taken to the nearest 1/8 px and its turn to the nearest step: the
    /// entry's box of nonzero bytes, the pixels it covers.
    @inline(__always)
    func square(size: Int, center: Point, angle: Double) -> Placed {
        let qx = Int(Self.nearest(center.x * 8)), qy = Int(Self.nearest(center.y * 8))
        let (ox, oy) = ((qx >> 3) &- 2, (qy >> 3) &- 2)
        let entry =
            squares + SquareTable.entry(size: size, turn: SquareTable.turn(angle), phaseX: qx & 7, phaseY: qy & 7)
        let b = Int(UnsafeRawPointer(entry + SquareTable.boxOffset).loadUnaligned(as: UInt32.self))
        return Placed(
            entry: entry, rowBytes: SquareTable.rowBytes, ox: ox, oy: oy, x0: ox &+ (b & 0xFF),
            y0: oy &+ (b >> 8 & 0xFF), x1: ox &+ (b >> 16 & 0xFF), y1: oy &+ (b >> 24))
    }

    /// A shape whose coverage is a table's entry (`DiscTable`, `SquareTable`): `entry`'s rows
    /// `rowBytes` apart, its first byte the pixel at `origin`, its nonzero bytes within `box`
    /// (canvas pixels, at most 8 columns from `origin`, 8 bytes readable from any of them), in
    /// `pixel`. A row's bytes are read and blended at once where eight columns from the box's
    /// first lie on the canvas and no mask is read (the table's boxes are at most 5 wide).
    // Transparent: `@inline(__always)` left it a call a shape, out of the batch's loop.
    @_transparent
    mutating func drawTable(
        _ entry: UnsafePointer<UInt8>, rowBytes: Int, at origin: (x: Int, y: Int),
        box: (x0: Int, y0: Int, x1: Int, y1: Int), pixel: Canvas.Pixel
    ) {
        let bx0 = max(box.x0, x0), by0 = max(box.y0, y0), bx1 = min(box.x1, x1), by1 = min(box.y1, y1)
        guard bx0 < bx1, by0 < by1 else { return }
        mark(bx0, by0, bx1, by1)
        let spread = Canvas.spread(pixel)
        let lanes = Blitter.Lanes(spread)
        if blitter.mask == nil, bx0 &+ 8 <= canvasWidth {
            // The row's bytes from column bx0 up to bx1 (the box is 1 to 8 columns wide).
            let keep = UInt64.max >> ((8 &- (bx1 &- bx0)) &* 8)
            var bytes = entry + ((by0 &- origin.y) &* rowBytes &+ (bx0 &- origin.x))
            for y in by0..<by1 {
                let row = UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self) & keep
                bytes += rowBytes
                if row == 0 { continue }
                let coverage = Blitter.Row.widened(row)
                let line = blitter.row(y)
                if additive {
                    let words = unsafeBitCast(coverage, to: SIMD2<UInt64>.self)
                    if words[0] != 0 { Self.add(lanes, factors: Blitter.Row.pairs(coverage.lowHalf), at: line.dst + bx0) }
                    if words[1] != 0 {
                        Self.add(lanes, factors: Blitter.Row.pairs(coverage.highHalf), at: line.dst + (bx0 &+ 4))
                    }
                } else {
                    line.blend(lanes, coverage: coverage, at: bx0)
                }
            }
            return
        }
        let columns = SIMD4<UInt32>(0, 1, 2, 3)
        // Four columns blended at once where they all lie on the canvas and no mask is read.
        let whole = blitter.mask == nil ? canvasWidth - 4 : Int.min
        for y in by0..<by1 {
            let row = blitter.row(y)
            var x = bx0
            while x < bx1 {
                // The entry's row for y from column x (bytes past the box are left out below).
                let bytes = UnsafeRawPointer(entry + ((y &- origin.y) &* rowBytes &+ (x &- origin.x)))
                    .loadUnaligned(as: SIMD4<UInt8>.self)
                var factors = SIMD4<UInt32>(truncatingIfNeeded: bytes)
                factors.replace(with: 0, where: columns .>= SIMD4(repeating: UInt32(truncatingIfNeeded: bx1 &- x)))
                blend(factors, lanes: lanes, spread: spread, row: row, at: x, whole: whole, end: bx1)
                x &+= 4
            }
        }
    }

    /// Adds `x0..<x1` by `y0..<y1` to the boxes drawn.
    @inline(__always)
    mutating func mark(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        drawn = (min(drawn.x0, x0), min(drawn.y0, y0), max(drawn.x1, x1), max(drawn.y1, y1))
    }

    /// The colour at four factors (0...255) on four pixels of `row` from column `x`, none at or
    /// past `end`: four at once up to `whole`, else one at a time.
    @inline(__always)
    func blend(
        _ factors: SIMD4<UInt32>, lanes: Blitter.Lanes, spread: UInt64, row: Blitter.Row, at x: Int, whole: Int,
        end: Int
    ) {
        guard factors != .zero else { return }
        if x <= whole {
            let f = Blitter.Row.lanes(factors)
            if additive {
                Self.add(lanes, factors: f, at: row.dst + x)
            } else {
                row.blend(lanes, factors: f, at: x)
            }
        } else {
            for j in 0..<min(4, end &- x) where factors[j] != 0 {
                row.put(spread, factor: UInt64(factors[j]), additive: additive, at: x &+ j)
            }
        }
    }

    /// `v` rounded to the nearest whole number (ties to even) by adding and taking off 1.5 x
    /// 2^52, where `rounded()` calls the C library; `v` within ±2^51.
    @inline(__always)
    static func nearest(_ v: Double) -> Double { (v + 0x1.8p52) - 0x1.8p52 }

    /// A disc's coverage of four pixels whose centres are `dx`, `dy` from its centre: 1 less
    /// their distance past `edge` (the radius and half a pixel), held to 0...1.
    @inline(__always)
    static func disc(edge: Float, dx: SIMD4<Float>, dy: Float) -> SIMD4<Float> {
        unit(edge - (dx * dx + dy * dy).squareRoot())
    }

    /// A rectangle's coverage of four pixels whose centres are `dx`, `dy` from its centre,
    /// turned by the angle of cosine `c` and sine `s`: the product of its two sides' (each
    /// `rx`, `ry` and half a pixel from the centre, less the pixel's distance in the
    /// rectangle's frame, held to 0...1), times `fx`, `fy` (a side thinner than a pixel).
    @inline(__always)
    static func square(
        c: Float, s: Float, rx: Float, ry: Float, fx: Float, fy: Float, dx: SIMD4<Float>, dy: Float
    ) -> SIMD4<Float> {
        let u = c * dx + s * dy, v = c * dy - s * dx
        let cu = unit(rx + 0.5 - magnitude(u))
        let cv = unit(ry + 0.5 - magnitude(v))
        return cu * fx * cv * fy
    }

    /// Coverage (0...1) as factors 0...255, rounded as `Canvas.factor` rounds.
    @inline(__always)
    static func factors(_ coverage: SIMD4<Float>) -> SIMD4<UInt32> {
        unsafeBitCast(coverage * 255 + SIMD4(repeating: 8_388_608), to: SIMD4<UInt32>.self)
            & SIMD4(repeating: 0x7F_FFFF)
    }

    /// Each lane held to 0...1 (`clamped` is a lane-by-lane loop out of line).
    @inline(__always)
    static func unit(_ v: SIMD4<Float>) -> SIMD4<Float> {
        var r = v
        r.replace(with: 0, where: v .< 0)
        r.replace(with: 1, where: v .> 1)
        return r
    }

    /// Each lane's absolute value (its sign bit cleared).
    @inline(__always)
    static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & SIMD4(repeating: 0x7FFF_FFFF), to: SIMD4<Float>.self)
    }

    /// `color` (lanes) at four factors added to the four pixels at `dst`, each channel held at
    /// 255: `Blitter.Row.put(_:factor:additive:at:)` four at a time.
    @inline(__always)
    static func add(_ color: Blitter.Lanes, factors f: SIMD8<UInt16>, at dst: UnsafeMutablePointer<Canvas.Pixel>) {
        let low = SIMD8<UInt16>(repeating: 0xFF)
        let d = UnsafeRawPointer(dst).loadUnaligned(as: SIMD8<UInt16>.self)
        let e = Canvas.saturated(Canvas.product(color.even, f) &+ (d & low))
        let o = Canvas.saturated(Canvas.product(color.odd, f) &+ (d &>> 8))
        Canvas.store(e | o &<< 8, at: dst)
    }
}

extension Canvas {
    /// Calls `body` with a brush that draws shapes onto this canvas clipped to `clip` and
    /// scaled by `mask`, composited (`over`) or added (`additive`).
    public mutating func withShapeBrush<R>(
        clip: Rect, mask: CoverageMask?, blend: Sprite.Blend, _ body: (inout ShapeBrush) -> R
    ) -> R {
        var b = (
            x0: Swift.max(Int(pixel: clip.minX, .down), 0), y0: Swift.max(Int(pixel: clip.minY, .down), 0),
            x1: Swift.min(Int(pixel: clip.maxX, .up), width), y1: Swift.min(Int(pixel: clip.maxY, .up), height)
        )
        if let mask { b = mask.clip(b) }
        let w = width
        return DiscTable.factors.withUnsafeBufferPointer { discs in
            SquareTable.factors.withUnsafeBufferPointer { squares in
                Self.reach(&pixels, &damage, mask) { pixels, spans, maskBase in
                    var brush = ShapeBrush(
                        blitter: Blitter(pixels: pixels, width: w, mask: mask, maskBase: maskBase), canvasWidth: w,
                        x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, additive: blend == .additive,
                        discs: discs.baseAddress!, squares: squares.baseAddress!)
                    let result = body(&brush)
                    let d = brush.drawn
                    if d.x0 < d.x1 { spans.add(d.x0, d.y0, d.x1, d.y1) }
                    return result
                }
            }
        }
    }

    /// The pixels, the damage's spans and the mask's coverage in place, together.
    private static func reach<R>(
        _ pixels: inout [Pixel], _ damage: inout Damage, _ mask: CoverageMask?,
        _ body: (UnsafeMutablePointer<Pixel>, inout Damage.Spans, UnsafePointer<UInt8>?) -> R
    ) -> R {
        pixels.withUnsafeMutableBufferPointer { p in
            damage.withSpans { spans in
                guard let mask else { return body(p.baseAddress!, &spans, nil) }
                return mask.coverage.withUnsafeBufferPointer { m in body(p.baseAddress!, &spans, m.baseAddress!) }
            }
        }
    }
}
