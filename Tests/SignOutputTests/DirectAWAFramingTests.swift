import SignGraphics
import Testing

@testable import SignOutput

/// AWA's frames straight from the frame equal those of the coloured bytes with dithering on
/// and off, and a pipeline that coloured for APA102's lanes gives the wire's bytes after.
/// (The strips' frames with dithering off are DirectStripFramingTests' second arguments.)
@Suite("AWA frames straight from the frame, and a pipeline's layout changed")
struct DirectAWAFramingTests {
    @Test("AWA frames with dithering on and off equal those of the coloured bytes, over many blocks")
    func awa() {
        let (w, h) = (64, 32)
        let map = PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h)
        for dithering in [true, false] {
            var (rgb, direct) = DirectStripFramingTests.pipelines(map, .rgb, dithering: dithering)
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
        var (rgb, wire) = DirectStripFramingTests.pipelines(map, order)
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
