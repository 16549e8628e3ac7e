import Testing

@testable import SignGraphics

@Suite("Geometry")
struct GeometryTests {
    @Test(
        "a pixel coordinate is the value rounded by the rule and clamped to the pixel limit, NaN 0, for every rule geometry uses"
    )
    func pixelCoordinatesRoundThenClamp() {
        let limit = Double(Int.pixelLimit)
        let values: [Double] = [
            0, -0.0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994, 3.999999999,
            -3.999999999, 127.25, -127.25, 1e-300, -1e-300, limit - 0.5, limit, limit + 0.5, -limit - 0.5, 1e300,
            -1e300, .infinity, -.infinity, Double(Int.max), 4_503_599_627_370_497,
        ]
        let rules: [FloatingPointRoundingRule] = [
            .towardZero, .down, .up, .toNearestOrAwayFromZero, .toNearestOrEven, .awayFromZero,
        ]
        for rule in rules {
            for v in values {
                let expected = Int(Swift.max(-limit, Swift.min(limit, v.rounded(rule))))
                #expect(Int(pixel: v, rule) == expected, "\(v) rounded \(rule)")
            }
            #expect(Int(pixel: .nan, rule) == 0)
        }
        #expect(Rect(x: -0.5, y: 1.25, width: 3, height: 2).pixelBounds(clippedTo: 10, 10) == (0, 1, 3, 4))
    }
}
