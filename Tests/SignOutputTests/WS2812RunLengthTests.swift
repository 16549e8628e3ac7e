import SignGraphics
import Testing

@testable import SignOutput

/// WS2812's colour loop with dithering writes four LEDs a turn, each group the turn after
/// its sums (`LEDPipeline.alongLate`), on runs of 8 LEDs or more, and the rest one by one:
/// every run length around those steps, forwards, backwards and down columns, makes the
/// same SPI bytes as the LEDs coloured first and encoded after.
@Suite("WS2812 SPI patterns along runs of every length")
struct WS2812RunLengthTests {
    /// Panels `w` wide and 3 high in the bottom-right corner of a frame 2 pixels wider and
    /// taller (so each row is a run of its own and the last row ends on the frame's last
    /// pixel): rows, serpentine rows (every other run backwards) and serpentine columns (runs
    /// 3 long, a frame row apart; up to 16 wide, more runs than a map keeps).
    static func maps(_ w: Int) -> [PixelMap] {
        func panel(_ strip: Panel.Strip, serpentine: Bool) -> Panel {
            var panel = Panel(width: w, height: 3)
            panel.x = 2
            panel.y = 2
            panel.strip = strip
            panel.serpentine = serpentine
            return panel
        }
        return ([panel(.rows, serpentine: false), panel(.rows, serpentine: true)]
            + (w <= 16 ? [panel(.columns, serpentine: true)] : [])).map { PixelMap(panels: [$0], frameWidth: w + 2, frameHeight: 5) }
    }

    @Test("runs of 1 to 19 LEDs, 3 and 4 bits a bit, frame after frame", arguments: 1...19)
    func runs(width: Int) {
        for map in Self.maps(width) {
            #expect(PixelRuns(map.source) != nil, "the map goes run by run")
            for speed in [2_400_000, 3_200_000] {
                let patterns = WS2812SPIFrame(speedHz: speed)!
                var rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
                var wire = rgb.ordered(ColourOrder("GRB")!)
                var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                for (k, scale) in DirectFramingTests.scales.enumerated() {
                    let frame = DirectFramingTests.frame(width + 2, 5, k)
                    patterns.encode(frame, scale: scale, through: &wire, into: &a)
                    rgb.colour(frame, scale: scale, into: &leds)
                    patterns.encode(leds, order: ColourOrder("GRB")!, into: &b)
                    #expect(a == b, "\(width) wide, \(speed) Hz, frame \(k)")
                }
            }
        }
    }
}
