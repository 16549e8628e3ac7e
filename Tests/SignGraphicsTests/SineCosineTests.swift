import Glibc
import SignGraphics
import Testing

@Suite("Sine and cosine")
struct SineCosineTests {
    @Test("sineCosine agrees with libm's sin and cos within 2 ulp of 1 over |x| < 2^20")
    func agreesWithLibm() {
        var worst = 0.0
        // Small angles, every quadrant's ends, and the large times a particle may reach.
        var arguments: [Double] = (-4000...4000).map { Double($0) * 0.001 }
        arguments += (-64...64).map { Double($0) * Double.pi / 4 }
        arguments += (0..<2000).map { Double($0) * 524.287 + 0.123 }
        arguments += [0, -0.0, 1e-300, 0x1p-30, 0x1p19 + 0.5, -0x1p19 - 0.25]
        for x in arguments {
            let (s, c) = sineCosine(x)
            worst = max(worst, abs(s - sin(x)), abs(c - cos(x)))
        }
        #expect(worst <= 2 * Double.ulpOfOne, "worst \(worst)")
    }

    @Test("beyond 2^30 the argument is reduced first; not a number or infinity gives not a number")
    func largeAndNotFinite() {
        for x in [0x1p31 + 3, -1e12, 1e300] {
            let (s, c) = sineCosine(x)
            #expect(abs(s * s + c * c - 1) < 1e-9, "\(x)")
        }
        for x in [Double.nan, .infinity, -.infinity] {
            let (s, c) = sineCosine(x)
            #expect(s.isNaN && c.isNaN)
        }
    }
}
