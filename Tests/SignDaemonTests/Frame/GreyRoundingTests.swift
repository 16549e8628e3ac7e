import SignGraphics
import SignOutput
import Testing

/// Grey sums its weighted levels in fixed point and adds the doubles only near a rounding
/// half: every colour whose luminance lies near a half (all of them, found by going through
/// the 2^24) and a sample of the rest give the reference's grey bytes, dithering on and off,
/// at full and fading brightness, along runs and LED by LED.
@Suite("Grey's rounding near a half")
struct GreyRoundingTests {
    /// The colours whose luminance under `correction` is within 2^-20 of a half, and every
    /// 4,099th other one.
    static func awkwardColours(_ correction: ColorCorrection) -> [UInt8] {
        let tables = correction.tables().enumerated().map { channel, table in
            table.map { [0.2126, 0.7152, 0.0722][channel] * Double($0) }
        }
        var colours: [UInt8] = []
        var near = 0
        tables[0].withUnsafeBufferPointer { red in
            tables[1].withUnsafeBufferPointer { green in
                tables[2].withUnsafeBufferPointer { blue in
                    var k = 0
                    for r in 0..<256 {
                        for g in 0..<256 {
                            let rg = red[r] + green[g]
                            for b in 0..<256 {
                                let y = rg + blue[b]
                                let half = abs(y - y.rounded(.down) - 0.5) < 0x1p-20
                                if half { near += 1 }
                                if half || k % 4099 == 0 {
                                    colours += [UInt8(r), UInt8(g), UInt8(b)]
                                }
                                k += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(near > 100, "colours near a half: \(near)")
        return colours
    }

    @Test(
        "grey equals the reference for every colour near a half, dithering on and off, full and fading",
        arguments: [ColorCorrection(), ColorCorrection(curve: .cie1931, brightness: 0.8, whitePoint: [1, 0.9, 0.7])])
    func nearHalves(correction: ColorCorrection) {
        let colours = Self.awkwardColours(correction)
        // Four rows of them: a map along the rows (four runs) and one down the columns
        // (runs of four LEDs, too short: LED by LED).
        let width = (colours.count / 3 + 3) / 4
        var frame = Frame(width: width, height: 4)
        frame.pixels = colours + [UInt8](repeating: 0, count: width * 12 - colours.count)
        let run = PixelMap(panels: [Panel(width: width, height: 4)], frameWidth: width, frameHeight: 4)
        var columns = Panel(width: width, height: 4)
        columns.strip = .columns
        let scattered = PixelMap(panels: [columns], frameWidth: width, frameHeight: 4)
        for map in [run, scattered] {
            for dithering in [true, false] {
                var new = LEDPipeline(map: map, correction: correction, dithering: dithering)
                var old = ReferenceLEDPipeline(map: map, correction: correction, dithering: dithering)
                var a: [UInt8] = [], b: [UInt8] = []
                for scale: UInt32 in [65536, 65536, 30000, 900, 65536] {
                    new.grey(frame, scale: scale, into: &a)
                    old.grey(frame, scale: scale, into: &b)
                    #expect(a == b, "dithering \(dithering), scale \(scale), \(map.source.count) LEDs")
                }
            }
        }
    }
}
