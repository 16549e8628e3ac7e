import Glibc
import Testing

@testable import SignOutput

@Suite("Colour correction and temporal dithering")
struct ColorCorrectionTests {
    @Test("an exponent curve, brightness and white point scale each channel")
    func exponent() {
        let c = ColorCorrection(curve: .exponent(2), brightness: 0.5, whitePoint: [1, 0.5, 0.25])
        let t = c.tables()
        #expect(t[0][255] == 32768)  // 1^2 * 0.5
        #expect(t[1][255] == 16384)
        #expect(t[2][255] == 8192)
        #expect(t[0][128] == UInt16((pow(128.0 / 255, 2) * 0.5 * 65535).rounded()))
        #expect(t[0][0] == 0)
    }

    @Test("CIE 1931: L* 50 is luminance 0.1842; below L* 8 the line L/903.3")
    func cie1931() {
        let c = ColorCorrection(curve: .cie1931)
        #expect(abs(c.duty(0.5) - 0.184186) < 1e-5)
        #expect(abs(c.duty(0.05) - 5 / 903.3) < 1e-9)
        #expect(c.duty(1) == 1)
    }

    @Test("the Fadecandy table has 3 x 257 entries, entry i for input i/256")
    func fadecandyTable() {
        let table = ColorCorrection(curve: .exponent(1)).fadecandyTable()
        #expect(table.count == 771)
        #expect(table[0] == 0 && table[128] == 32768 && table[256] == 65535 && table[257] == 0)
    }

    @Test("temporal dithering averages to the exact 16-bit level over 256 frames")
    func ditherAverage() {
        for level: UInt16 in [1, 100, 257, 1000, 32767, 65000, 65535] {
            var dither = TemporalDither()
            dither.reserve(1)
            var sum = 0
            for _ in 0..<256 { sum += Int(dither.quantise(level, slot: 0)) }
            let expected = Double(level) / 65535 * 255 * 256
            #expect(abs(Double(sum) - expected) <= 1.0, "level \(level): \(sum) vs \(expected)")
        }
    }

    @Test("the dither's steps, by multiply and shift, are the division's for every 16-bit level")
    func ditherStepsExact() {
        var wrong = 0
        for level in 0...65535 {
            let divided = (UInt32(level) * 65280 + 32767) / 65535
            if UInt32(TemporalDither.steps(UInt16(level))) != divided { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("grey's brightest luminance sum is 65535.0, so its rounding needs no clamp")
    func greyLuminanceBound() {
        let w = LEDPipeline.luminanceWeights
        // Products and sums round monotonically: no sum of levels up to 65535 is larger.
        let brightest = w[0] * 65535 + w[1] * 65535 + w[2] * 65535
        #expect(brightest == 65535.0)
        #expect(LEDPipeline.greyLevel(brightest, scale: 65536) == 65535)
        #expect(LEDPipeline.greyLevel(brightest.nextDown, scale: 65536) == 65535)
        #expect(LEDPipeline.greyLevel(65534.5, scale: 65536) == 65535)
        #expect(LEDPipeline.greyLevel(65534.5.nextDown, scale: 65536) == 65534)
    }

    @Test("a slow fade below one 8-bit step still moves with dithering, and stays dark without")
    func lowFade() {
        var dither = TemporalDither()
        dither.reserve(1)
        let level: UInt16 = 128  // half an 8-bit step
        let shown = (0..<8).map { _ in dither.quantise(level, slot: 0) }
        #expect(shown.contains(1) && shown.contains(0))
        #expect(TemporalDither.round(level) == 0)
    }
}
