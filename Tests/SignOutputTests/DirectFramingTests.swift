import SignGraphics
import SignWire
import Testing

@testable import SignOutput

/// The outputs colour each packet straight from the frame (`LEDPipeline.colour(leds:)`, in
/// the wire's channel order) instead of colouring the whole frame and copying it: the
/// bytes on the wire are the same as colouring first and framing the copy.
@Suite("LEDs coloured straight into packets")
struct DirectFramingTests {
    static func frame(_ w: Int, _ h: Int, _ k: Int) -> Frame {
        var frame = Frame(width: w, height: h)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(truncatingIfNeeded: i &* 37 &+ k &* 11 &+ i / 7) }
        return frame
    }

    /// A plain map, a serpentine one, and a scattered one (turned, mirrored, partly off the
    /// frame, with LEDs no panel covers) that goes LED by LED.
    static func maps(_ w: Int, _ h: Int) -> [PixelMap] {
        var serpentine = Panel(width: w, height: h)
        serpentine.serpentine = true
        serpentine.strip = .columns
        var turned = Panel(width: h, height: h)
        turned.rotation = 90
        turned.start = .bottomRight
        var off = Panel(width: 6, height: 5)
        off.x = w - 3
        off.mirror = .both
        off.firstLED = h * h + 3
        return [
            PixelMap(panels: [Panel(width: w, height: h)], frameWidth: w, frameHeight: h),
            PixelMap(panels: [serpentine], frameWidth: w, frameHeight: h),
            PixelMap(panels: [turned, off], frameWidth: w, frameHeight: h, ledCount: h * h + 40),
        ]
    }

    static let scales: [UInt32] = [65536, 65536, 30000, 0, 900, 65536]

    @Test("a map breaks into runs, or into none when it is scattered")
    func runs() throws {
        let maps = Self.maps(40, 12)
        #expect(try #require(PixelRuns(maps[0].source)).runs.count == 1)
        let serpentine = try #require(PixelRuns(maps[1].source))
        #expect(serpentine.runs.count == 40 && serpentine.runs[1].step == -40)
        let scattered = Array((0..<400).map { Int32(($0 * 7919) % 480) })
        #expect(PixelRuns(scattered) == nil)
    }

    @Test("colour in a wire order is the R, G, B colour reordered, frame after frame")
    func order() {
        for map in Self.maps(40, 12) {
            for name in ColourOrder.names {
                let order = ColourOrder(name)!
                for dithering in [true, false] {
                    var rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: dithering)
                    var wire = rgb.ordered(order)
                    for (k, scale) in Self.scales.enumerated() {
                        var a: [UInt8] = [], b: [UInt8] = []
                        rgb.colour(Self.frame(40, 12, k), scale: scale, into: &a)
                        wire.colour(Self.frame(40, 12, k), scale: scale, into: &b)
                        let reordered = stride(from: 0, to: a.count, by: 3).flatMap {
                            [a[$0 + order.first], a[$0 + order.second], a[$0 + order.third]]
                        }
                        #expect(b == reordered, "\(name), dithering \(dithering), frame \(k)")
                    }
                }
            }
        }
    }

    @Test("colour range by range gives the whole frame's bytes, and a frame smaller than the map goes LED by LED")
    func ranges() {
        for map in Self.maps(40, 12) {
            var whole = LEDPipeline(map: map, correction: ColorCorrection(curve: .cie1931), dithering: true)
            var parts = whole
            for (k, scale) in Self.scales.enumerated() {
                // The last frames are smaller than the map: past the frame is black.
                let frame = k < 4 ? Self.frame(40, 12, k) : Self.frame(20, 6, k)
                var a: [UInt8] = []
                whole.colour(frame, scale: scale, into: &a)
                var b = [UInt8](repeating: 0xEE, count: a.count)
                b.withUnsafeMutableBytes { out in
                    var led = 0
                    var step = 1
                    while led < map.ledCount {
                        let n = min(step, map.ledCount - led)
                        parts.colour(frame, scale: scale, leds: led..<led + n, into: out.baseAddress! + led * 3)
                        led += n
                        step = step * 3 % 97 + 1
                    }
                }
                #expect(a == b, "frame \(k)")
            }
        }
    }

    /// The datagrams of `framer` for a few frames: straight through a pipeline, and from the
    /// R, G, B bytes a second pipeline coloured.
    static func sameDatagrams<F: DatagramFramer>(_ framer: F, map: PixelMap, w: Int, h: Int) -> Bool {
        var direct = framer, copied = framer
        var pipeline = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true).ordered(framer.order)
        var rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
        for (k, scale) in scales.enumerated() {
            let frame = Self.frame(w, h, k)
            var a: [[UInt8]] = [], b: [[UInt8]] = []
            direct.writeFrame(frame, scale: scale, through: &pipeline) { d, to in a.append(Array(d) + [UInt8(to)]) }
            var leds: [UInt8] = []
            rgb.colour(frame, scale: scale, into: &leds)
            leds.withUnsafeBytes { copied.writeFrame($0) { d, to in b.append(Array(d) + [UInt8(to)]) } }
            guard a == b else { return false }
        }
        var a: [[UInt8]] = [], b: [[UInt8]] = []
        direct.writeGoodbye { d, _ in a.append(Array(d)) }
        copied.writeGoodbye { d, _ in b.append(Array(d)) }
        return a == b
    }

    @Test("DDP, E1.31, Art-Net, FlaschenTaschen and Colorlight datagrams straight from the frame equal the copied ones")
    func datagrams() {
        let (w, h) = (40, 12)
        for map in Self.maps(w, h) {
            let leds = map.ledCount
            let source = E131.Source(cid: Array(0..<16), name: "test")
            #expect(Self.sameDatagrams(DDPFramer(), map: map, w: w, h: h))
            #expect(
                Self.sameDatagrams(
                    E131Framer(source: source, firstUniverse: 1, syncUniverse: 9, multicast: false, ledCount: leds),
                    map: map, w: w, h: h))
            #expect(Self.sameDatagrams(ArtNetFramer(firstPortAddress: 3, channelsPerUniverse: 100, sync: true), map: map, w: w, h: h))
            #expect(Self.sameDatagrams(FlaschenTaschenFramer(width: 17, ledCount: leds, maxDatagram: 300), map: map, w: w, h: h))
            #expect(Self.sameDatagrams(ColorlightFramer(width: 41, ledCount: leds), map: map, w: w, h: h))
        }
    }

    @Test("OPC, serial and DMX messages straight from the frame equal those of the coloured bytes")
    func messages() {
        let (w, h) = (40, 12)
        for map in Self.maps(w, h) {
            let framings: [SerialSink.Framing] = [
                .adalight, .awa, .tpm2, .enttecSendDMX(channels: 512, startChannel: 2),
                .enttecSendDMX(channels: 100, startChannel: 1),
            ]
            for framing in framings {
                var direct = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
                var rgb = direct
                for (k, scale) in Self.scales.enumerated() {
                    let frame = Self.frame(w, h, k)
                    var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                    SerialSink.compose(frame, scale: scale, framing: framing, through: &direct, into: &a)
                    rgb.colour(frame, scale: scale, into: &leds)
                    switch framing {
                    case .adalight: Adalight.encode(leds, into: &b)
                    case .awa: Adalight.encodeAWA(leds, into: &b)
                    case .tpm2: TPM2.encode(leds, into: &b)
                    case .enttecSendDMX(let channels, let start):
                        EnttecDMXUSBPro.encodeSendDMX(leds, channels: channels, startChannel: start, into: &b)
                    }
                    #expect(a == b, "\(framing) frame \(k)")
                }
            }
            var direct = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
            var rgb = direct
            for (k, scale) in Self.scales.enumerated() {
                let frame = Self.frame(w, h, k)
                var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                OPCSink.compose(frame, scale: scale, channel: 3, through: &direct, into: &a)
                rgb.colour(frame, scale: scale, into: &leds)
                leds.withUnsafeBytes { OPC.writePixels(channel: 3, pixels: $0, into: &b) }
                #expect(a == b, "OPC frame \(k)")
            }
        }
    }

    @Test("a bulk panel's transfer straight from the frame equals the message of the coloured bytes")
    func bulk() {
        let (w, h) = (40, 12)
        for map in Self.maps(w, h) {
            var device = BulkPanelDevice(
                match: USBMatch(vendorID: 1, productID: 1, serial: nil), interface: 0, endpoint: 1, order: "GBR",
                header: [0xAA, 0x55, 7], footer: [0x0D], packetSize: 64, map: map, correction: ColorCorrection(),
                dithering: true)
            var rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: true)
            var transfers: [[UInt8]] = []
            for (k, scale) in Self.scales.enumerated() {
                let frame = Self.frame(w, h, k)
                device.encode(frame, display: DisplaySetting(brightness: Double(scale) / 65536), into: &transfers)
                var leds: [UInt8] = [], b: [UInt8] = []
                rgb.colour(frame, scale: DisplaySetting(brightness: Double(scale) / 65536).scale, into: &leds)
                BulkPanelDevice.message(
                    leds: leds, order: [1, 2, 0], header: [0xAA, 0x55, 7], footer: [0x0D], packetSize: 64, into: &b)
                #expect(transfers == [b], "frame \(k)")
            }
        }
    }
}
