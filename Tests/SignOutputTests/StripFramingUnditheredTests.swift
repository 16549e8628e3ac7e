import SignGraphics
import Testing

@testable import SignOutput

/// The strips' and AWA's frames straight from the frame equal those of the coloured bytes
/// with dithering off too (the pipeline's loop without carries, and APA102's lanes, which
/// differ from the wire's order), and after a pipeline has coloured for another layout.
@Suite("Strip and AWA frames straight from the frame, dithering off")
struct StripFramingUnditheredTests {
    static func pipelines(_ map: PixelMap, _ order: ColourOrder, dithering: Bool) -> (LEDPipeline, LEDPipeline) {
        let rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: dithering)
        return (rgb, rgb.ordered(order))
    }

    @Test("APA102 frames with dithering off equal those of the coloured bytes, in every order")
    func apa102() {
        let (w, h) = (40, 12)
        for map in DirectFramingTests.maps(w, h) {
            for name in ColourOrder.names {
                var (rgb, wire) = Self.pipelines(map, ColourOrder(name)!, dithering: false)
                var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                for (k, scale) in DirectFramingTests.scales.enumerated() {
                    let frame = DirectFramingTests.frame(w, h, k)
                    APA102Frame.encode(frame, scale: scale, brightness: 31, chip: .apa102, through: &wire, into: &a)
                    rgb.colour(frame, scale: scale, into: &leds)
                    APA102Frame.encode(leds, brightness: 31, order: ColourOrder(name)!, chip: .apa102, into: &b)
                    #expect(a == b, "\(name) frame \(k)")
                }
            }
        }
    }

    @Test("WS2812 SPI patterns with dithering off equal those of the coloured bytes")
    func ws2812() {
        let (w, h) = (40, 12)
        for map in DirectFramingTests.maps(w, h) {
            for speed in [2_400_000, 3_200_000] {
                let patterns = WS2812SPIFrame(speedHz: speed)!
                var (rgb, wire) = Self.pipelines(map, ColourOrder("GRB")!, dithering: false)
                var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                for (k, scale) in DirectFramingTests.scales.enumerated() {
                    let frame = DirectFramingTests.frame(w, h, k)
                    patterns.encode(frame, scale: scale, through: &wire, into: &a)
                    rgb.colour(frame, scale: scale, into: &leds)
                    patterns.encode(leds, order: ColourOrder("GRB")!, into: &b)
                    #expect(a == b, "\(speed) Hz frame \(k)")
                }
            }
        }
    }

    @Test("AWA frames with dithering on and off equal those of the coloured bytes, over many blocks")
    func awa() {
        let (w, h) = (64, 32)
        let map = PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h)
        for dithering in [true, false] {
            var (rgb, direct) = Self.pipelines(map, .rgb, dithering: dithering)
            var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
            for (k, scale) in DirectFramingTests.scales.enumerated() {
                let frame = DirectFramingTests.frame(w, h, k)
                SerialSink.compose(frame, scale: scale, framing: .awa, through: &direct, into: &a)
                rgb.colour(frame, scale: scale, into: &leds)
                Adalight.encodeAWA(leds, into: &b)
                #expect(a == b, "dithering \(dithering) frame \(k)")
            }
        }
    }

    @Test("a pipeline that coloured APA102's lanes and then the wire's order gives the wire's bytes")
    func lanesBack() {
        let (w, h) = (40, 12)
        let map = DirectFramingTests.maps(w, h)[0]
        let order = ColourOrder("BGR")!
        var (rgb, wire) = Self.pipelines(map, order, dithering: true)
        var reference = rgb.ordered(order)
        var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
        let frame = DirectFramingTests.frame(w, h, 1)
        APA102Frame.encode(frame, scale: 65536, brightness: 31, chip: .apa102, through: &wire, into: &a)
        rgb.colour(frame, scale: 65536, into: &leds)
        APA102Frame.encode(leds, brightness: 31, order: order, chip: .apa102, into: &b)
        #expect(a == b)
        // Back to three bytes an LED: the carries start afresh, as in a new pipeline.
        var direct: [UInt8] = [], fresh: [UInt8] = []
        wire.colour(frame, scale: 65536, into: &direct)
        reference.colour(frame, scale: 65536, into: &fresh)
        #expect(direct == fresh)
    }
}
