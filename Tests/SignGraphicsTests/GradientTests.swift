import Testing

@testable import SignGraphics

@Suite("Gradient")
struct GradientTests {
    /// What `fill` must paint at an interior pixel of an opaque gradient on a transparent
    /// canvas: the ramp's colour at the pixel centre's position, premultiplied.
    static func expected(_ gradient: Gradient, _ rect: Rect, x: Int, y: Int) -> Canvas.Pixel {
        let u = (Double(x) + 0.5 - rect.minX) / rect.width, v = (Double(y) + 0.5 - rect.minY) / rect.height
        return Canvas.premultiplied(gradient.ramp.color(at: gradient.location(u: u, v: v)))
    }

    static let red = Color(red: 255, green: 0, blue: 0), green = Color(red: 0, green: 255, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 255)

    @Test(
        "a gradient along rows paints each column the ramp's colour at its centre, its flat ends found by bisection placed to the column, either way along the axis",
        arguments: [
            // Hard steps: a column on the wrong side of a flat end's edge shows another colour.
            (NumberList([0.3, 0.3, 0.7]), Point(x: 0, y: 0.5), Point(x: 1, y: 0.5)),
            (NumberList([0.3, 0.3, 0.7]), Point(x: 1, y: 0.5), Point(x: 0, y: 0.5)),
            (NumberList([0.2, 0.5, 0.5]), Point(x: 0.1, y: 0.5), Point(x: 0.9, y: 0.5)),
            (NumberList([0.2, 0.5, 0.5]), Point(x: 0.9, y: 0.5), Point(x: 0.1, y: 0.5)),
            // Ends beyond the layer, a band wholly outside it, and a decreasing location.
            (NumberList([-0.5, 0.25, 1.5]), Point(x: 0, y: 0.5), Point(x: 1, y: 0.5)),
            (NumberList([1.2, 1.3, 1.4]), Point(x: 0, y: 0.5), Point(x: 1, y: 0.5)),
            (NumberList([0.6, 0.4, 0.8]), Point(x: 0, y: 0.5), Point(x: 1, y: 0.5)),
            // No axis: every position is 0.
            (NumberList([0.0, 0.5, 1.0]), Point(x: 0.5, y: 0.5), Point(x: 0.5, y: 0.5)),
        ])
    func rowGradientColumns(locations: NumberList, start: Point, end: Point) {
        let gradient = Gradient(
            ramp: ColorRamp(colors: [Self.red, Self.green, Self.blue], locations: locations), startPoint: start,
            endPoint: end)
        // Whole-pixel edges, so every pixel is covered in full; widths that divide the unit
        // square unevenly, and chunks of 32 columns crossed.
        for width in [7, 40, 77, 100] {
            let rect = Rect(x: 3, y: 2, width: Double(width), height: 4)
            var canvas = Canvas(width: 110, height: 8)
            canvas.fill(rect, with: gradient, opacity: 1, clip: Rect(x: 0, y: 0, width: 110, height: 8))
            var wrong: [Int] = []
            for x in 3..<(3 + width) where canvas.pixels[4 * 110 + x] != Self.expected(gradient, rect, x: x, y: 4) {
                wrong.append(x)
            }
            #expect(wrong.isEmpty, "width \(width): columns \(wrong) differ")
        }
    }
}
