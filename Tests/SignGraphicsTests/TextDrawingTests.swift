import Testing

@testable import SignGraphics

/// Drawing a text strip's coverage in one colour: the loops that read eight pixels at once
/// against the sum each pixel is defined by.
@Suite("TextDrawing")
struct TextDrawingTests {
    /// A strip of letters and gaps: runs of 0, of 255, and of levels between.
    static let strip: AlphaBitmap = {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let (w, h) = (41, 3)
        let coverage = (0..<w * h).map { i -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let column = i % w
            if column % 13 < 3 { return 0 }  // a gap between letters
            return [0, 255, 255, UInt8(truncatingIfNeeded: state >> 40)][Int(state >> 61 & 3)]
        }
        return AlphaBitmap(width: w, height: h, coverage: coverage)
    }()

    /// A board of opaque and translucent pixels to draw over.
    static func board() -> Canvas {
        var canvas = Canvas(width: 48, height: 6)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in canvas.pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            canvas.pixels[i] = Canvas.premultiplied(
                Color(
                    red: UInt8(truncatingIfNeeded: state >> 24), green: UInt8(truncatingIfNeeded: state >> 32),
                    blue: UInt8(truncatingIfNeeded: state >> 40), alpha: [0, 90, 255][Int(state >> 58 % 3)]))
        }
        return canvas
    }

    /// A fade: 0 at the left, levels rising, 255 across the middle, levels falling.
    static let mask: CoverageMask = {
        let (w, h) = (44, 6)
        let coverage = (0..<w * h).map { i -> UInt8 in
            let x = i % w
            return x < 2 ? 0 : x < 10 ? UInt8(x * 28) : x < 34 ? 255 : UInt8((w - x) * 25)
        }
        return CoverageMask(width: w, height: h, coverage: coverage, x0: 2, y0: 0)
    }()

    /// Pixel (x, y) as its definition has it: the two columns (and rows) the position
    /// straddles weighted in 1/256 steps, times the mask, source-over the board. With
    /// `period`, strip column c is read at every c + k * period (nothing past its width).
    static func reference(
        _ strip: AlphaBitmap = strip, origin: Point, color: Color, mask: CoverageMask?, period: Int? = nil,
        over board: Canvas
    ) -> [Canvas.Pixel] {
        var pixels = board.pixels
        let bx = Int(origin.x.rounded(.down)), by = Int(origin.y.rounded(.down))
        let wx1 = UInt32(Canvas.steps(Float(origin.x - origin.x.rounded(.down)))), wx0 = 256 - wx1
        let wy1 = UInt32(Canvas.steps(Float(origin.y - origin.y.rounded(.down)))), wy0 = 256 - wy1
        func at(_ column: Int, _ r: Int) -> UInt32 {
            let c = period.map { (column % $0 + $0) % $0 } ?? column
            return c >= 0 && c < strip.width && r >= 0 && r < strip.height
                ? UInt32(strip.coverage[r * strip.width + c]) : 0
        }
        let color = Canvas.spread(Canvas.premultiplied(color))
        for y in 0..<board.height {
            for x in 0..<board.width {
                let (c, r) = (x - bx, y - by)
                let lower = at(c, r) * wx0 + at(c - 1, r) * wx1, upper = at(c, r - 1) * wx0 + at(c - 1, r - 1) * wx1
                var k = UInt64(min((lower * wy0 + upper * wy1 + 32768) >> 16, 255))
                if let mask {
                    let (mx, my) = (x - mask.x0, y - mask.y0)
                    guard mx >= 0, mx < mask.width, my >= 0, my < mask.height else { continue }
                    k = Canvas.product(k, UInt64(mask.coverage[my * mask.width + mx]))
                }
                if k > 0 {
                    pixels[y * board.width + x] = Canvas.blend(color, factor: k, over: pixels[y * board.width + x])
                }
            }
        }
        return pixels
    }

    @Test(
        "a strip at a fractional position, with and without a mask, draws each pixel's weighted coverage over the board",
        arguments: [
            (Point(x: 3.4, y: 1), Color(red: 255, green: 176, blue: 0)),
            (Point(x: 3.5, y: 1), Color(red: 255, green: 176, blue: 0)),
            (Point(x: 2.0, y: 2), Color(red: 40, green: 200, blue: 90)),
            (Point(x: -5.73, y: 0), Color(red: 255, green: 255, blue: 255)),
            (Point(x: 7.1, y: 1.25), Color(red: 255, green: 96, blue: 64)),
            (Point(x: 1.9, y: 0), Color(red: 200, green: 30, blue: 220, alpha: 150)),
            (Point(x: 2.9995, y: 0.9995), Color(red: 255, green: 176, blue: 0)),
        ])
    func matchesDefinition(origin: Point, color: Color) {
        for mask in [nil, Self.mask] {
            var canvas = Self.board()
            canvas.draw(
                Self.strip, at: origin, color: color, opacity: 1, smooth: true,
                clip: Rect(x: 0, y: 0, width: 48, height: 6), mask: mask)
            let expected = Self.reference(origin: origin, color: color, mask: mask, over: Self.board())
            let wrong = canvas.pixels.indices.filter { canvas.pixels[$0] != expected[$0] }
            #expect(
                wrong.isEmpty,
                "masked: \(mask != nil); pixels (x, y) that differ: \(wrong.prefix(8).map { ($0 % 48, $0 / 48) })")
        }
    }

    @Test(
        "a repeating strip draws every copy across the board and nothing in the gap between copies",
        arguments: [Point(x: -30.4, y: 1), Point(x: -31, y: 0), Point(x: 12.75, y: 1.5), Point(x: -95.5, y: 2)])
    func repeating(origin: Point) {
        let color = Color(red: 255, green: 176, blue: 0)
        for mask in [nil, Self.mask] {
            var canvas = Self.board()
            canvas.draw(
                Self.strip, at: origin, color: color, opacity: 1, smooth: true, tilePeriod: 50,
                clip: Rect(x: 0, y: 0, width: 48, height: 6), mask: mask)
            let expected = Self.reference(origin: origin, color: color, mask: mask, period: 50, over: Self.board())
            let wrong = canvas.pixels.indices.filter { canvas.pixels[$0] != expected[$0] }
            #expect(
                wrong.isEmpty,
                "masked: \(mask != nil); pixels (x, y) that differ: \(wrong.prefix(8).map { ($0 % 48, $0 / 48) })")
        }
    }

    @Test(
        "a strip marks as changed the rows and columns it can paint: the row below and the column right of it only at a fractional position",
        arguments: [
            (Point(x: 3, y: 1), (x0: 3, y0: 1, x1: 44, y1: 4)),
            (Point(x: 3.4, y: 1), (x0: 3, y0: 1, x1: 45, y1: 4)),
            (Point(x: 3, y: 1.25), (x0: 3, y0: 1, x1: 44, y1: 5)),
            (Point(x: 2.9995, y: 0.9995), (x0: 3, y0: 1, x1: 44, y1: 4)),
        ])
    func damage(origin: Point, expected: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        var canvas = Canvas(width: 48, height: 6)
        canvas.damage.removeAll()
        canvas.draw(
            Self.strip, at: origin, color: .white, opacity: 1, smooth: true,
            clip: Rect(x: 0, y: 0, width: 48, height: 6))
        let rows = (0..<6).filter { canvas.damage.span($0) != nil }
        let spans = Set(rows.compactMap { canvas.damage.span($0).map { "\($0.x0)..<\($0.x1)" } })
        #expect(rows == Array(expected.y0..<expected.y1))
        #expect(spans == ["\(expected.x0)..<\(expected.x1)"])
    }

    /// A line whose first two and last row hold nothing (the space above capitals and below
    /// descenders), with ink on the rows between.
    static let line: AlphaBitmap = {
        let (w, h) = (30, 6)
        let coverage = (0..<w * h).map { i -> UInt8 in
            let (x, y) = (i % w, i / w)
            guard (2..<5).contains(y), x % 7 != 0 else { return 0 }
            return UInt8(truncatingIfNeeded: 40 + x * 7 + y * 30)
        }
        return AlphaBitmap(width: w, height: h, coverage: coverage)
    }()

    @Test(
        "a line's empty rows are neither painted nor marked changed, and its inked rows draw as defined",
        arguments: [
            (Point(x: 4, y: -1), 1..<4),
            (Point(x: 4.5, y: -1), 1..<4),
            // Half a row down: the row below the last inked one takes the upper weight.
            (Point(x: 4.5, y: -0.5), 1..<5),
            (Point(x: 2, y: 3), 5..<6),
        ])
    func emptyRows(origin: Point, changed: Range<Int>) {
        #expect(Self.line.inkedRows == 2..<5)
        let board = Self.board()
        var canvas = board
        canvas.damage.removeAll()
        canvas.draw(
            Self.line, at: origin, color: Color(red: 255, green: 176, blue: 0), opacity: 1, smooth: true,
            clip: Rect(x: 0, y: 0, width: 48, height: 6))
        let rows = (0..<6).filter { canvas.damage.span($0) != nil }
        #expect(rows == Array(changed))
        let expected = Self.reference(
            Self.line, origin: origin, color: Color(red: 255, green: 176, blue: 0), mask: nil, over: board)
        let wrong = canvas.pixels.indices.filter { canvas.pixels[$0] != expected[$0] }
        #expect(wrong.isEmpty, "pixels (x, y) that differ: \(wrong.prefix(8).map { ($0 % 48, $0 / 48) })")
    }
}
