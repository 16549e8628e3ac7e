import Testing

@testable import SignGraphics

@Suite("Color")
struct ColorTests {
    @Test("parses #rgb, #rrggbb, #rrggbbaa and names")
    func parsing() {
        #expect(Color(parsing: "#f80") == Color(red: 255, green: 136, blue: 0))
        #expect(Color(parsing: "#102030") == Color(red: 16, green: 32, blue: 48))
        #expect(Color(parsing: "#10203040") == Color(red: 16, green: 32, blue: 48, alpha: 64))
        #expect(Color(parsing: "Amber") == Color(red: 255, green: 191, blue: 0))
    }

    @Test("rejects what is not a colour", arguments: ["", "#12", "#ggg", "102030", "#1234567", "chartreuse"])
    func rejects(text: String) {
        #expect(Color(parsing: text) == nil)
    }

    @Test("hexString round-trips")
    func hexString() {
        #expect(Color(red: 1, green: 171, blue: 255).hexString == "#01abff")
        #expect(Color(red: 1, green: 2, blue: 3, alpha: 4).hexString == "#01020304")
    }

    @Test("white to transparent black passes through grey, as in Core Animation")
    func straightInterpolation() {
        let mid = Color.white.interpolated(to: .clear, fraction: 0.5)
        #expect(mid == Color(red: 128, green: 128, blue: 128, alpha: 128))
    }

    @Test(
        "interpolation rounds a + (b - a) x f, clamped to 0...255, half up, for fractions in and out of 0...1 (NaN keeps the first colour)"
    )
    func interpolationRoundsEachChannel() {
        func reference(_ a: UInt8, _ b: UInt8, _ f: Double) -> UInt8 {
            let v = Double(a) + (Double(b) - Double(a)) * f
            if v.isNaN { return a }
            return UInt8(Int(min(max(v, 0), 255) + 0.5))
        }
        let levels: [UInt8] = [0, 1, 2, 127, 128, 129, 200, 254, 255]
        var fractions = (0...1000).map { Double($0) / 1000 }
        fractions += [
            Double.leastNonzeroMagnitude, 1.0.nextDown, 0.5.nextDown, 0.5.nextUp, 1 / 3, 2 / 3, -0.25, 1.25, -1e300,
            1e300, .infinity, -.infinity, .nan,
        ]
        var wrong: [String] = []
        for f in fractions {
            for a in levels {
                for b in levels {
                    let from = Color(red: a, green: b, blue: a, alpha: b),
                        to = Color(red: b, green: a, blue: 255, alpha: 0)
                    let mixed = from.interpolated(to: to, fraction: f)
                    let expected = Color(
                        red: reference(a, b, f), green: reference(b, a, f), blue: reference(a, 255, f),
                        alpha: reference(b, 0, f))
                    if mixed != expected { wrong.append("\(from) to \(to) at \(f): \(mixed), not \(expected)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
    }

    @Test("an opaque colour premultiplied at full opacity keeps its bytes, exactly as the float path rounds them")
    func opaquePremultipliedFastPath() {
        for level in 0...255 {
            let v = UInt8(level)
            for c in [
                Color(red: v, green: 0, blue: 0), Color(red: 7, green: v, blue: 200),
                Color(red: 255, green: 1, blue: v),
            ] {
                #expect(Canvas.premultiplied(c) == Canvas.pixel(ImageBitmap.premultiplied(c)), "\(c)")
            }
        }
        // Translucent colours and opacities below 1 take the float path.
        let half = Color(red: 200, green: 100, blue: 50, alpha: 128)
        #expect(Canvas.premultiplied(half) == Canvas.pixel(ImageBitmap.premultiplied(half)))
        #expect(
            Canvas.premultiplied(.white, opacity: 0.5) == Canvas.pixel(ImageBitmap.premultiplied(.white, opacity: 0.5)))
    }
}
