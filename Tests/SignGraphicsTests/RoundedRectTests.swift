@testable import SignGraphics
import Testing

@Suite("Rounded rectangles")
struct RoundedRectTests {
    /// Every pixel of `canvas` against source-over of `paint` at the coverage `expected`
    /// gives at the pixel centre, over the mid-grey backdrop: within one 8-bit level a channel
    /// (the canvas rounds the paint, the coverage and the blend to 8 bits).
    func check(_ canvas: Canvas, paint: ImageBitmap.Pixel, expected: (Double, Double) -> Float) {
        let grey = Self.unit(Canvas.pixel(ImageBitmap.Pixel(0.5, 0.5, 0.5, 1)))
        var worst: Float = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let c = expected(Double(x) + 0.5, Double(y) + 0.5)
                let want = paint * c + grey * (1 - paint.w * c)
                let got = Self.unit(canvas.pixels[y * canvas.width + x])
                worst = max(worst, ((got - want) * (got - want)).max().squareRoot())
            }
        }
        #expect(worst <= 1.0001 / 255)
    }

    static func unit(_ p: Canvas.Pixel) -> ImageBitmap.Pixel {
        ImageBitmap.Pixel(Float(p & 0xFF), Float(p >> 8 & 0xFF), Float(p >> 16 & 0xFF), Float(p >> 24)) / 255
    }

    func backdrop(_ width: Int, _ height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        for i in canvas.pixels.indices { canvas.pixels[i] = Canvas.pixel(ImageBitmap.Pixel(0.5, 0.5, 0.5, 1)) }
        return canvas
    }

    @Test(
        "a stroke paints each pixel by its distance to the outline, and leaves the inside alone",
        arguments: [(1.5, 7.25), (1.0, 0.0), (3.0, 12.0), (0.5, 2.5)])
    func stroke(lineWidth: Double, radius: Double) {
        let shape = RoundedRect(rect: Rect(x: 1.75, y: 1.25, width: 44.5, height: 20.5), cornerRadius: radius)
        var canvas = backdrop(48, 24)
        let red = Color(red: 255, green: 0, blue: 0)
        canvas.draw(
            shape, paint: .color(red), lineWidth: lineWidth, opacity: 1, clip: Rect(x: 0, y: 0, width: 48, height: 24))
        check(canvas, paint: ImageBitmap.premultiplied(red)) {
            shape.strokeCoverage(x: $0, y: $1, lineWidth: lineWidth)
        }
    }

    @Test(
        "a shape larger than the canvas draws the part that shows",
        arguments: [Rect(x: -30, y: 1, width: 50, height: 6), Rect(x: 4, y: -3, width: 60, height: 20)])
    func clipped(rect: Rect) {
        let shape = RoundedRect(rect: rect, cornerRadius: 2)
        let white = Color(red: 255, green: 255, blue: 255)
        for lineWidth in [1.5, nil] {
            var canvas = backdrop(16, 8)
            canvas.draw(
                shape, paint: .color(white), lineWidth: lineWidth, opacity: 1,
                clip: Rect(x: 0, y: 0, width: 16, height: 8))
            check(canvas, paint: ImageBitmap.premultiplied(white)) { x, y in
                lineWidth.map { shape.strokeCoverage(x: x, y: y, lineWidth: $0) } ?? shape.fillCoverage(x: x, y: y)
            }
        }
    }

    @Test("a fill covers its inside fully and its edge by distance", arguments: [0.0, 3.0, 7.0])
    func fill(radius: Double) {
        let shape = RoundedRect(rect: Rect(x: 2.5, y: 1, width: 14, height: 14), cornerRadius: radius)
        var canvas = backdrop(20, 16)
        let blue = Color(red: 0, green: 0, blue: 255, alpha: 200)
        canvas.draw(shape, paint: .color(blue), opacity: 1, clip: Rect(x: 0, y: 0, width: 20, height: 16))
        check(canvas, paint: ImageBitmap.premultiplied(blue)) { shape.fillCoverage(x: $0, y: $1) }
    }
}
