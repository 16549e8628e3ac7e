import Testing

@testable import SignOutput

/// The serial, DMX and SPI strip encodings, byte for byte against the protocols' documents:
/// Adafruit's Adalight sketch, Hyperion's AWA (HyperSerialESP32's receiver), TPM2, Enttec's
/// DMX USB Pro API, the APA102 and SK9822 datasheets and the WS2812B datasheet's timing.
@Suite("LED strip encodings: Adalight, AWA, TPM2, Enttec, APA102, SK9822, WS2812 on SPI")
struct StripEncodingTests {
    static let three: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]

    @Test("Adalight: 'Ada', LED count minus one big-endian, hi ^ lo ^ 0x55, then RGB")
    func adalight() {
        var out: [UInt8] = []
        Adalight.encode(Self.three, into: &out)
        #expect(out == [0x41, 0x64, 0x61, 0x00, 0x02, 0x57] + Self.three)
        let many = [UInt8](repeating: 9, count: 300 * 3)
        Adalight.encode(many, into: &out)
        // 300 LEDs: 299 = 0x012B; 0x01 ^ 0x2B ^ 0x55 = 0x7F.
        #expect(Array(out[0..<6]) == [0x41, 0x64, 0x61, 0x01, 0x2b, 0x7f])
        #expect(out.count == 6 + 900)
    }

    @Test("AWA: 'Awa' header, RGB, fletcher1, fletcher2 and fletcherExt, whose 0x41 goes out as 0xAA")
    func awaEscape() {
        var out: [UInt8] = []
        // One LED whose position-mixed sum is exactly 0x41: (0x41^0) + (1^1) + (2^2).
        Adalight.encodeAWA([0x41, 0x01, 0x02], into: &out)
        #expect(out == [0x41, 0x77, 0x61, 0x00, 0x00, 0x55, 0x41, 0x01, 0x02, 0x44, 0xc7, 0xaa])
    }

    @Test("AWA: fletcherExt's position is counted in a byte and wraps after 256 bytes")
    func awaPositionWraps() {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        var out: [UInt8] = []
        Adalight.encodeAWA(data, into: &out)
        #expect(Array(out[0..<6]) == [0x41, 0x77, 0x61, 0x00, 0x63, 0x36])  // 100 LEDs: 99 = 0x63; 0x63 ^ 0x55
        // Computed by the receiver's rule; an unwrapped position would give 0x82.
        #expect(Array(out.suffix(3)) == [0x75, 0x8b, 0x56])
    }

    @Test("TPM2: 0xC9 0xDA, data size big-endian, RGB, 0x36")
    func tpm2() {
        var out: [UInt8] = []
        TPM2.encode(Array(Self.three[0..<6]), into: &out)
        #expect(out == [0xc9, 0xda, 0x00, 0x06, 1, 2, 3, 4, 5, 6, 0x36])
        TPM2.encode([UInt8](repeating: 1, count: 1024 * 3), into: &out)
        #expect(Array(out[0..<4]) == [0xc9, 0xda, 0x0c, 0x00] && out.last == 0x36 && out.count == 3077)
    }

    @Test("Enttec label 6: 0x7E 0x06, length little-endian, start code 0, the channels from start_channel, 0xE7")
    func enttec() {
        var out: [UInt8] = []
        EnttecDMXUSBPro.encodeSendDMX(Array(Self.three[0..<6]), channels: 24, startChannel: 4, into: &out)
        let channels: [UInt8] = [0, 0, 0, 1, 2, 3, 4, 5, 6] + [UInt8](repeating: 0, count: 15)
        #expect(out == [0x7e, 0x06, 25, 0, 0] + channels + [0xe7])
        // 512 channels: length 513 = 0x0201; LEDs past the last channel are left out.
        EnttecDMXUSBPro.encodeSendDMX([UInt8](repeating: 7, count: 600), channels: 512, startChannel: 1, into: &out)
        #expect(Array(out[0..<5]) == [0x7e, 0x06, 0x01, 0x02, 0x00] && out.count == 518 && out.last == 0xe7)
        #expect(out[5..<517].allSatisfy { $0 == 7 })
    }

    @Test("APA102: 32 zero bits, 0xE0|brightness then B G R per LED, an end frame of ones at least 32 and n/2 bits")
    func apa102() {
        var out: [UInt8] = []
        let rgb: [UInt8] = [0x10, 0x20, 0x30, 0x40, 0x50, 0x60]
        APA102Frame.encode(rgb, brightness: 31, order: ColourOrder("BGR")!, chip: .apa102, into: &out)
        #expect(out == [0, 0, 0, 0, 0xff, 0x30, 0x20, 0x10, 0xff, 0x60, 0x50, 0x40, 0xff, 0xff, 0xff, 0xff])
        APA102Frame.encode(rgb, brightness: 3, order: ColourOrder("RGB")!, chip: .apa102, into: &out)
        #expect(out[4] == 0xe3 && Array(out[5...7]) == [0x10, 0x20, 0x30])
        // 100 LEDs need 50 more clock edges: 7 bytes.
        APA102Frame.encode(
            [UInt8](repeating: 0, count: 300), brightness: 31, order: ColourOrder("BGR")!,
            chip: .apa102, into: &out)
        #expect(out.count == 4 + 400 + 7 && out.suffix(7).allSatisfy { $0 == 0xff })
    }

    @Test("SK9822: the same LED frames, then a 32-bit zero reset frame and n/2 zero bits")
    func sk9822() {
        var out: [UInt8] = []
        APA102Frame.encode(
            [0x10, 0x20, 0x30, 0x40, 0x50, 0x60], brightness: 31, order: ColourOrder("BGR")!,
            chip: .sk9822, into: &out)
        #expect(out == [0, 0, 0, 0, 0xff, 0x30, 0x20, 0x10, 0xff, 0x60, 0x50, 0x40, 0, 0, 0, 0, 0])
        APA102Frame.encode(
            [UInt8](repeating: 0, count: 300), brightness: 31, order: ColourOrder("BGR")!,
            chip: .sk9822, into: &out)
        #expect(out.count == 4 + 400 + 4 + 7 && out.suffix(11).allSatisfy { $0 == 0 })
    }

    @Test("APA102 dimming goes into the 5-bit global brightness first, the colour bytes keep their range")
    func globalBrightness() {
        #expect(APA102Frame.split(scale: 65536) == (31, 65536))
        #expect(APA102Frame.split(scale: 0) == (0, 0))
        // 5%: brightness 2 of 31, colours at 0.775 of full: 2/31 * 0.775 = 0.05.
        let dim = APA102Frame.split(scale: 3277)
        #expect(dim.brightness == 2 && abs(Double(dim.colourScale) / 65536 - 0.775) < 0.001)
        for scale in stride(from: UInt32(1), through: 65536, by: 97) {
            let (b, c) = APA102Frame.split(scale: scale)
            let effective = Double(b) / 31 * Double(c) / 65536
            #expect(abs(effective - Double(scale) / 65536) < 1.0 / 65536 * 32, "scale \(scale)")
            #expect(c > 32768 || b == 1, "colours keep at least half their range at scale \(scale)")
        }
    }

    @Test("WS2812 at 2.4 MHz: 3 SPI bits a bit, 100 for 0 and 110 for 1, G R B, 300 µs of zeros")
    func ws2812ThreeBits() throws {
        let frame = try #require(WS2812SPIFrame(speedHz: 2_400_000))
        #expect(frame.bitsPerBit == 3 && frame.resetBytes == 90)
        var out: [UInt8] = []
        frame.encode([0xff, 0x00, 0x80], order: ColourOrder("GRB")!, into: &out)
        // G = 0x00, R = 0xFF, B = 0x80 (1 then seven 0s).
        #expect(Array(out[0..<9]) == [0x92, 0x49, 0x24, 0xdb, 0x6d, 0xb6, 0xd2, 0x49, 0x24])
        #expect(out.count == 9 + 90 && out[9...].allSatisfy { $0 == 0 })
    }

    @Test("WS2812 at 3.2 MHz: 4 SPI bits a bit, 1000 for 0 and 1110 for 1, 300 µs of zeros")
    func ws2812FourBits() throws {
        let frame = try #require(WS2812SPIFrame(speedHz: 3_200_000))
        #expect(frame.bitsPerBit == 4 && frame.resetBytes == 120)
        var out: [UInt8] = []
        frame.encode([0x00, 0xff, 0xa5], order: ColourOrder("RGB")!, into: &out)
        #expect(Array(out[0..<12]) == [0x88, 0x88, 0x88, 0x88, 0xee, 0xee, 0xee, 0xee, 0xe8, 0xe8, 0x8e, 0x8e])
        #expect(out.count == 12 + 120)
    }

    @Test("WS2812 refuses a clock that makes no WS2812 timing")
    func ws2812Clock() {
        #expect(WS2812SPIFrame(speedHz: 8_000_000) == nil && WS2812SPIFrame(speedHz: 1_000_000) == nil)
    }

    @Test("every encoding writes into the same storage frame after frame")
    func reusesStorage() throws {
        let rgb = [UInt8](repeating: 100, count: 64 * 3)
        let ws = try #require(WS2812SPIFrame(speedHz: 2_400_000))
        let encoders: [(inout [UInt8]) -> Void] = [
            { Adalight.encode(rgb, into: &$0) }, { Adalight.encodeAWA(rgb, into: &$0) },
            { TPM2.encode(rgb, into: &$0) },
            { EnttecDMXUSBPro.encodeSendDMX(rgb, channels: 512, startChannel: 1, into: &$0) },
            { APA102Frame.encode(rgb, brightness: 31, order: ColourOrder("BGR")!, chip: .sk9822, into: &$0) },
            { ws.encode(rgb, order: ColourOrder("GRB")!, into: &$0) },
        ]
        for encode in encoders {
            var out: [UInt8] = []
            encode(&out)
            let first = out.withUnsafeBufferPointer { $0.baseAddress }
            encode(&out)
            #expect(out.withUnsafeBufferPointer { $0.baseAddress } == first)
        }
    }

    @Test("colour orders name a permutation of R, G, B")
    func orders() {
        #expect(ColourOrder("grb").map { [$0.first, $0.second, $0.third] } == [1, 0, 2])
        #expect(ColourOrder("BGR")?.description == "BGR" && ColourOrder("RGBW") == nil && ColourOrder("RRB") == nil)
    }
}
