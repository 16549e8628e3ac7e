import Glibc
@testable import SignGraphics
import Testing

@Suite("Sprites")
struct SpriteTests {
    static let white = SIMD4<Float>(1, 1, 1, 1)
    static let board = Rect(x: 0, y: 0, width: 32, height: 32)

    /// The summed alpha of a canvas, in pixels.
    static func area(_ canvas: Canvas) -> Double {
        canvas.pixels.reduce(0) { $0 + Double($1 >> 24) } / 255
    }

    @Test("a circle's coverage adds up to its area (within a tenth of a pixel per pixel of edge)")
    func circleArea() {
        for diameter in [2.0, 5.0, 9.5] {
            var canvas = Canvas(width: 32, height: 32)
            canvas.draw(
                Sprite(look: .circle, width: diameter, height: diameter), center: Point(x: 16.3, y: 15.8), scale: 1,
                angle: 0, color: Self.white, blend: .over, clip: Self.board)
            let expected = Double.pi * diameter * diameter / 4
            #expect(abs(Self.area(canvas) - expected) < 0.1 * Double.pi * diameter, "diameter \(diameter)")
        }
    }

    @Test("a sprite narrower than a pixel keeps its area: a 0.5 px square covers a quarter pixel")
    func thinSprite() {
        var canvas = Canvas(width: 4, height: 4)
        canvas.draw(
            Sprite(look: .square, width: 1, height: 1), center: Point(x: 1.5, y: 1.5), scale: 0.5, angle: 0,
            color: Self.white, blend: .over, clip: Rect(x: 0, y: 0, width: 4, height: 4))
        #expect(canvas.pixels[1 * 4 + 1] >> 24 == 64)
        #expect(Self.area(canvas) < 0.26)
    }

    @Test("a square turned a quarter turn covers what it covered unturned; turned 45 degrees, its area")
    func turnedSquare() {
        func drawn(_ angle: Double) -> Canvas {
            var canvas = Canvas(width: 32, height: 32)
            canvas.draw(
                Sprite(look: .square, width: 6, height: 6), center: Point(x: 16, y: 16), scale: 1, angle: angle,
                color: Self.white, blend: .over, clip: Self.board)
            return canvas
        }
        #expect(drawn(0).pixels == drawn(Double.pi / 2).pixels)
        #expect(abs(Self.area(drawn(Double.pi / 4)) - 36) < 1.5)
        // Turned, it reaches the corners' diagonal: 6 / 2 x sqrt 2 = 4.24 px from the centre.
        let turned = drawn(Double.pi / 4)
        #expect(turned.pixels[16 * 32 + 12] >> 24 > 150)
        #expect(drawn(0).pixels[16 * 32 + 12] >> 24 == 0)
    }

    @Test("an image sprite at scale 1, unturned and on the pixel grid, draws the image's pixels")
    func imageOnGrid() {
        let rgba: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128]
        let image = ImageBitmap(width: 2, height: 2, straightRGBA: rgba)
        var canvas = Canvas(width: 8, height: 8)
        canvas.draw(
            Sprite(look: .image(image), width: 2, height: 2), center: Point(x: 4, y: 4), scale: 1, angle: 0,
            color: Self.white, blend: .over, clip: Rect(x: 0, y: 0, width: 8, height: 8))
        #expect(canvas.pixels[3 * 8 + 3] == image.packed[0])
        #expect(canvas.pixels[3 * 8 + 4] == image.packed[1])
        #expect(canvas.pixels[4 * 8 + 3] == image.packed[2])
        #expect(canvas.pixels[4 * 8 + 4] == image.packed[3])
        #expect(canvas.pixels[2 * 8 + 3] == 0 && canvas.pixels[3 * 8 + 5] == 0)
    }

    @Test("the colour multiplies the contents: a white image tinted half-transparent red is that red")
    func tint() {
        let image = ImageBitmap(width: 1, height: 1, straightRGBA: [255, 255, 255, 255])
        var canvas = Canvas(width: 3, height: 3)
        canvas.draw(
            Sprite(look: .image(image), width: 1, height: 1), center: Point(x: 1.5, y: 1.5), scale: 1, angle: 0,
            color: SIMD4(0.5, 0, 0, 0.5), blend: .over, clip: Rect(x: 0, y: 0, width: 3, height: 3))
        #expect(canvas.pixels[4] == Canvas.pixel(SIMD4(0.5, 0, 0, 0.5)))
    }

    @Test("additive blending adds channels and holds them at full; source-over does not add")
    func additive() {
        func drawn(_ blend: Sprite.Blend) -> Canvas {
            var canvas = Canvas(width: 3, height: 3)
            for _ in 0..<3 {
                canvas.draw(
                    Sprite(look: .square, width: 1, height: 1), center: Point(x: 1.5, y: 1.5), scale: 1, angle: 0,
                    color: SIMD4(0.4, 0.1, 0, 0.4), blend: blend, clip: Rect(x: 0, y: 0, width: 3, height: 3))
            }
            return canvas
        }
        let added = drawn(.additive).pixels[4]
        #expect(added & 0xFF == 255)  // 3 x 102 held at 255
        #expect((added >> 8) & 0xFF == 78)  // 3 x 26 (0.1 x 255 rounded)
        #expect(added >> 24 == 255)
        let over = drawn(.over).pixels[4]
        #expect(over & 0xFF < 255 && over >> 24 < 255)
    }

    @Test("a sprite is clipped: nothing is drawn outside the clip, nothing off the canvas")
    func clipped() {
        var canvas = Canvas(width: 8, height: 8)
        canvas.draw(
            Sprite(look: .circle, width: 6, height: 6), center: Point(x: 4, y: 4), scale: 1, angle: 0.3,
            color: Self.white, blend: .over, clip: Rect(x: 0, y: 0, width: 4, height: 8))
        for y in 0..<8 { for x in 4..<8 { #expect(canvas.pixels[y * 8 + x] == 0) } }
        // Far off the canvas, huge, or not a number: nothing, and no trap.
        for (center, scale) in [(Point(x: -1e12, y: 3), 1.0), (Point(x: 4, y: 4), 1e300), (Point(x: .nan, y: 0), 1)] {
            var c = Canvas(width: 8, height: 8)
            c.draw(
                Sprite(look: .square, width: 2, height: 2), center: center, scale: scale, angle: 0, color: Self.white,
                blend: .over, clip: Rect(x: 0, y: 0, width: 8, height: 8))
        }
    }
}

@Suite("Shape brush")
struct ShapeBrushTests {
    /// A board of translucent and opaque stripes for shapes to land on.
    static func background() -> Canvas {
        var canvas = Canvas(width: 13, height: 9)
        let all = CoverageMask(width: 13, height: 9, coverage: [UInt8](repeating: 255, count: 117))
        let board = Rect(x: 0, y: 0, width: 13, height: 9)
        canvas.fill(
            coverage: all, paint: .color(Color(red: 30, green: 90, blue: 10, alpha: 120)), box: board, opacity: 1,
            clip: board)
        canvas.fill(
            coverage: all, paint: .color(Color(red: 200, green: 20, blue: 70)), box: board, opacity: 1,
            clip: Rect(x: 0, y: 3, width: 13, height: 3))
        return canvas
    }

    static let shapes: [(round: Bool, size: Double, angle: Double, x: Double, y: Double)] = [
        (true, 2, 0, 3.3, 2.7), (false, 2, 0.7, 6.5, 4.1), (true, 3, 0, 11.8, 6.2), (false, 1.5, 2.2, 12.4, 1.3),
        (true, 1, 0, 0.2, 8.6), (false, 3, -1.1, 8.9, 7.7),
    ]

    @Test("four columns at a time draw the bytes one column at a time draws (under a full mask)")
    func fourAtATimeIsOneAtATime() {
        let full = CoverageMask(width: 13, height: 9, coverage: [UInt8](repeating: 255, count: 117))
        for blend in [Sprite.Blend.over, .additive] {
            for color in [SIMD4<Float>(1, 0.5, 0.25, 1), SIMD4<Float>(0.3, 0.1, 0.4, 0.6)] {
                var four = Self.background(), one = Self.background()
                for (canvas, mask) in [(0, nil), (1, full)] as [(Int, CoverageMask?)] {
                    var target = canvas == 0 ? four : one
                    target.withShapeBrush(clip: Rect(x: 0, y: 0, width: 13, height: 9), mask: mask, blend: blend) {
                        for s in Self.shapes {
                            $0.draw(
                                round: s.round, width: s.size, height: s.size, center: Point(x: s.x, y: s.y),
                                scale: 1, angle: s.angle, color: color)
                        }
                    }
                    if canvas == 0 { four = target } else { one = target }
                }
                #expect(four.pixels == one.pixels, "\(blend) \(color)")
                #expect(four.pixels != Self.background().pixels)
            }
        }
    }

    @Test("a disc 1 to 3 px across (coverage from a table) covers its area, centred on its centre, at every 1/16 px")
    func tableDiscs() {
        for diameter in [1.0, 1.5, 2, 2.5, 3] {
            for phase in 0..<16 {
                let center = Point(x: 6 + Double(phase) / 16, y: 5 + Double(15 - phase) / 16)
                var canvas = Canvas(width: 13, height: 11)
                canvas.drawShape(
                    round: true, width: diameter, height: diameter, center: center, scale: 1, angle: 0,
                    color: SIMD4(1, 1, 1, 1), blend: .over, clip: Rect(x: 0, y: 0, width: 13, height: 11))
                var area = 0.0, mx = 0.0, my = 0.0
                for y in 0..<11 {
                    for x in 0..<13 {
                        let a = Double(canvas.pixels[y * 13 + x] >> 24) / 255
                        (area, mx, my) = (area + a, mx + a * (Double(x) + 0.5), my + a * (Double(y) + 0.5))
                    }
                }
                let expected = Double.pi * diameter * diameter / 4
                #expect(abs(area - expected) < 0.15 * Double.pi * diameter, "\(diameter) at \(center)")
                #expect(abs(mx / area - center.x) < 0.1 && abs(my / area - center.y) < 0.1, "\(diameter) at \(center)")
            }
        }
    }

    @Test("a square 1 to 2.5 px (coverage from a table) draws what the arithmetic draws at its 1/8 px centre and 32nd of a quarter turn")
    func tableSquares() {
        let clip = Rect(x: 0, y: 0, width: 13, height: 11)
        for side in [1.0, 1.5, 2, 2.5] {
            for k in 0..<40 {
                // Centres on the 1/8 px grid, turns on the table's steps, either way round and
                // past a whole turn.
                let center = Point(x: 6 + Double(k % 8) / 8, y: 5 + Double((k * 3) % 8) / 8)
                let angle = Double(k * 5 - 90) * (Double.pi / 64)
                var table = Canvas(width: 13, height: 11), arithmetic = Canvas(width: 13, height: 11)
                table.drawShape(
                    round: false, width: side, height: side, center: center, scale: 1, angle: angle,
                    color: SIMD4(1, 1, 1, 1), blend: .over, clip: clip)
                // A hair taller: not a table's square, every pixel worked out.
                arithmetic.drawShape(
                    round: false, width: side, height: side * (1 + 0x1p-40), center: center, scale: 1, angle: angle,
                    color: SIMD4(1, 1, 1, 1), blend: .over, clip: clip)
                var worst = 0
                for (a, b) in zip(table.pixels, arithmetic.pixels) { worst = max(worst, abs(Int(a >> 24) - Int(b >> 24))) }
                #expect(worst <= 1, "\(side) px at \(center) turned \(angle)")
                #expect(table.pixels.contains { $0 != 0 })
            }
        }
        // Between the steps: the nearest step.
        #expect(SquareTable.turn(Double.pi / 128 * 0.9) == 0 && SquareTable.turn(Double.pi / 64 * 1.1) == 1)
        #expect(SquareTable.turn(-Double.pi / 64) == 31 && SquareTable.turn(Double.pi / 2) == 0)
    }

    @Test("shapes handed to the brush at once draw what they draw handed one by one")
    func shapesAtOnce() {
        let clip = Rect(x: 1, y: 0.5, width: 10.5, height: 8)
        for blend in [Sprite.Blend.over, .additive] {
            for color in [SIMD4<Float>(0.9, 0.8, 0.1, 1), SIMD4<Float>(0.3, 0.1, 0.4, 0.6)] {
                var many = Self.background(), single = Self.background()
                let shapes = Self.shapes.map {
                    ShapeBrush.Shape(
                        round: $0.round, width: $0.size, height: $0.size, x: $0.x, y: $0.y, scale: 1.2, angle: $0.angle,
                        pixel: Canvas.pixel(color))
                }
                many.withShapeBrush(clip: clip, mask: nil, blend: blend) { brush in
                    shapes.withUnsafeBufferPointer { brush.draw($0.baseAddress!, count: $0.count) }
                }
                single.withShapeBrush(clip: clip, mask: nil, blend: blend) { brush in
                    for s in Self.shapes {
                        brush.draw(
                            round: s.round, width: s.size, height: s.size, center: Point(x: s.x, y: s.y), scale: 1.2,
                            angle: s.angle, color: color)
                    }
                }
                #expect(many.pixels == single.pixels, "\(blend) \(color)")
                #expect(many.pixels != Self.background().pixels)
            }
        }
    }

    @Test("a batch draws what the shapes drawn one by one draw, and marks the box of what they mark")
    func batchIsOneByOne() {
        let clip = Rect(x: 1, y: 0.5, width: 10.5, height: 8)
        var batch = Canvas(width: 13, height: 9), single = Canvas(width: 13, height: 9)
        batch.withShapeBrush(clip: clip, mask: nil, blend: .over) {
            for s in Self.shapes {
                $0.draw(
                    round: s.round, width: s.size, height: s.size, center: Point(x: s.x, y: s.y), scale: 1.2,
                    angle: s.angle, color: SIMD4(0.9, 0.8, 0.1, 1))
            }
        }
        for s in Self.shapes {
            single.drawShape(
                round: s.round, width: s.size, height: s.size, center: Point(x: s.x, y: s.y), scale: 1.2,
                angle: s.angle, color: SIMD4(0.9, 0.8, 0.1, 1), blend: .over, clip: clip)
        }
        #expect(batch.pixels == single.pixels)
        // The batch marks once: the union of the shapes' boxes, every row between them.
        var box = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for y in 0..<9 {
            guard let s = single.damage.span(y) else { continue }
            box = (min(box.x0, s.x0), min(box.y0, y), max(box.x1, s.x1), max(box.y1, y + 1))
        }
        for y in 0..<9 {
            let b = batch.damage.span(y)
            #expect(y >= box.y0 && y < box.y1 ? b.map { $0 == (box.x0, box.x1) } == true : b == nil, "row \(y)")
        }
        #expect(!batch.damage.isEmpty)
    }
}
