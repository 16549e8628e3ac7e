import Testing

@testable import SignGraphics

/// The one blend every paint uses: a pixel's colour at a coverage, source-over the canvas,
/// the same whether a pixel is drawn alone or four and eight at a time.
@Suite("Blitter")
struct BlitterTests {
    /// A board of varied pixels: opaque, translucent and transparent.
    static func board(width: Int) -> Canvas {
        var canvas = Canvas(width: width, height: 1)
        var state: UInt32 = 0x9E37_79B9
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let c = Color(
                red: UInt8(truncatingIfNeeded: state >> 8), green: UInt8(truncatingIfNeeded: state >> 16),
                blue: UInt8(truncatingIfNeeded: state >> 24), alpha: [255, 0, 120, 255][x % 4])
            canvas.pixels[x] = Canvas.premultiplied(c)
        }
        return canvas
    }

    /// A fade mask over the board's columns 1 to 24: 0, rising levels, 255, falling levels.
    static let mask = CoverageMask(
        width: 24, height: 1, coverage: (0..<24).map { UInt8([0, 255, 37, 128, 255, 255, 9, 200][$0 % 8]) }, x0: 1)

    @Test("an opaque colour is mixed in one rounding: every channel is the level nearest the exact mix")
    func mixRoundsOnce() {
        for c in stride(from: 0, through: 255, by: 5) {
            for d in stride(from: 0, through: 255, by: 3) {
                let color = Canvas.spread(Canvas.premultiplied(Color(red: UInt8(c), green: 255, blue: 0)))
                let dst = Canvas.premultiplied(Color(red: UInt8(d), green: UInt8(d), blue: UInt8(d)))
                for f in 0...255 {
                    let mixed = Canvas.mix(color, dst, factor: UInt64(f))
                    let exact = (Double(c * f) + Double(d * (255 - f))) / 255
                    let red = Int(mixed & 0xFF)
                    #expect(abs(Double(red) - exact) <= 0.5, "colour \(c) over \(d) at \(f): \(red), exact \(exact)")
                    #expect(mixed >> 24 == 255, "alpha of an opaque colour over an opaque pixel")
                    if abs(Double(red) - exact) > 0.5 { return }
                }
            }
        }
    }

    @Test(
        "a colour four and eight pixels at a time, with and without a mask, blends each pixel as Canvas.blend does",
        arguments: [
            Color(red: 255, green: 176, blue: 0), Color(red: 200, green: 30, blue: 220, alpha: 150),
            Color(red: 9, green: 250, blue: 128, alpha: 1),
        ])
    func uniformColour(color: Color) {
        let spread = Canvas.spread(Canvas.premultiplied(color))
        let coverage = SIMD8<UInt16>(0, 255, 17, 128, 255, 254, 1, 77)
        for mask in [nil, Self.mask] {
            var canvas = Self.board(width: 26)
            let before = canvas.pixels
            canvas.paint(within: (1, 0, 25, 1), mask: mask) { blitter, _ in
                let row = blitter.row(0)
                row.blend(Blitter.Lanes(spread), coverage: coverage, at: 1)
                row.blend(Blitter.Lanes(spread), factors: SIMD4<UInt32>(255, 3, 0, 200), at: 9)
                for x in 13..<25 { row.blend(spread, factor: UInt64((x * 41) % 256), at: x) }
            }
            let factors =
                (0..<8).map { UInt64(coverage[$0]) } + [255, 3, 0, 200] + (13..<25).map { UInt64(($0 * 41) % 256) }
            for x in 1..<25 {
                var f = factors[x - 1]
                if let mask { f = Canvas.product(f, UInt64(mask.coverage[x - 1])) }
                let expected = f == 0 ? before[x] : Canvas.blend(spread, factor: f, over: before[x])
                #expect(canvas.pixels[x] == expected, "masked: \(mask != nil); column \(x)")
            }
        }
    }

    @Test(
        "pixels of their own colours (a gradient's columns) four at a time, opaque, translucent and both in one four, blend each as Canvas.blend does"
    )
    func ownColours() {
        // Eights of fours (all opaque, none opaque, two and two, one opaque), a four left
        // over, then a tail of three.
        let alphas: [UInt8] = [
            255, 255, 255, 255, 90, 0, 200, 1, 255, 40, 255, 0, 7, 7, 255, 7, 255, 255, 255, 255, 255, 30, 255,
        ]
        let colors = alphas.enumerated().map { i, a in
            Canvas.premultiplied(Color(red: UInt8(truncatingIfNeeded: i * 13), green: UInt8(255 - i * 11), blue: 70, alpha: a))
        }
        for (mask, factor) in [(nil, UInt64(255)), (nil, 180), (Self.mask, 255), (Self.mask, 99)] {
            var canvas = Self.board(width: 26)
            let before = canvas.pixels
            canvas.paint(within: (1, 0, 24, 1), mask: mask) { blitter, _ in
                colors.withUnsafeBufferPointer {
                    blitter.row(0).blend($0.baseAddress!, count: 23, factor: factor, at: 1)
                }
            }
            for x in 1..<24 {
                var f = factor
                if let mask { f = Canvas.product(f, UInt64(mask.coverage[x - 1])) }
                let expected = Canvas.blend(Canvas.spread(colors[x - 1]), factor: f, over: before[x])
                #expect(canvas.pixels[x] == expected, "masked: \(mask != nil), factor \(factor); column \(x)")
            }
        }
    }
}
