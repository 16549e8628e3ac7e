import SignGraphics
import Testing

@testable import SignOutput

/// The SPI strips' frames made straight from the frame (`APA102Frame.encode(_:scale:...)`,
/// `WS2812SPIFrame.encode(_:scale:...)`, each LED coloured into its place on the wire) equal
/// those of the R, G, B bytes coloured first; AWA's checksums taken a block at a time equal
/// the byte-by-byte sums.
@Suite("Strip frames straight from the frame")
struct DirectStripFramingTests {
    /// A pipeline in R, G, B order and one in `order`, both dithering or both not.
    static func pipelines(_ map: PixelMap, _ order: ColourOrder, dithering: Bool = true) -> (LEDPipeline, LEDPipeline) {
        let rgb = LEDPipeline(map: map, correction: ColorCorrection(), dithering: dithering)
        return (rgb, rgb.ordered(order))
    }

    @Test(
        "APA102 and SK9822 frames straight from the frame equal those of the coloured bytes, in every order, dithering on and off (the loop without carries, and APA102's lanes, which differ from the wire's order)",
        arguments: [true, false])
    func apa102(dithering: Bool) {
        let (w, h) = (40, 12)
        for map in DirectFramingTests.maps(w, h) {
            for name in ColourOrder.names {
                let order = ColourOrder(name)!
                for chip in APA102Frame.Chip.allCases {
                    var (rgb, wire) = Self.pipelines(map, order, dithering: dithering)
                    var a: [UInt8] = [], b: [UInt8] = [], leds: [UInt8] = []
                    for (k, scale) in DirectFramingTests.scales.enumerated() {
                        let frame = DirectFramingTests.frame(w, h, k)
                        let brightness = UInt8(k * 7 % 40)
                        APA102Frame.encode(frame, scale: scale, brightness: brightness, chip: chip, through: &wire, into: &a)
                        rgb.colour(frame, scale: scale, into: &leds)
                        APA102Frame.encode(leds, brightness: brightness, order: order, chip: chip, into: &b)
                        #expect(a == b, "\(name) \(chip) dithering \(dithering) frame \(k)")
                    }
                }
            }
        }
    }

    @Test(
        "WS2812 SPI patterns straight from the frame equal those of the coloured bytes, 3 and 4 bits a bit, dithering on and off",
        arguments: [true, false])
    func ws2812(dithering: Bool) {
        let (w, h) = (40, 12)
        for map in DirectFramingTests.maps(w, h) {
            for speed in [2_400_000, 3_200_000] {
                let patterns = WS2812SPIFrame(speedHz: speed)!
                for name in ["GRB", "RGB", "BRG"] {
                    let order = ColourOrder(name)!
                    var (rgb, wire) = Self.pipelines(map, order, dithering: dithering)
                    var a = [UInt8](repeating: 0xEE, count: 7), b: [UInt8] = [], leds: [UInt8] = []
                    for (k, scale) in DirectFramingTests.scales.enumerated() {
                        let frame = DirectFramingTests.frame(w, h, k)
                        patterns.encode(frame, scale: scale, through: &wire, into: &a)
                        rgb.colour(frame, scale: scale, into: &leds)
                        patterns.encode(leds, order: order, into: &b)
                        #expect(a == b, "\(speed) Hz \(name) dithering \(dithering) frame \(k)")
                    }
                }
            }
        }
    }

    @Test("AWA's checksums a block at a time equal the byte-by-byte sums, for every length around a block")
    func fletcher() {
        func reference(_ data: [UInt8]) -> (UInt8, UInt8, UInt8) {
            var f1: UInt32 = 0, f2: UInt32 = 0, ext: UInt32 = 0
            for (i, byte) in data.enumerated() {
                f1 = (f1 + UInt32(byte)) % 255
                f2 = (f2 + f1) % 255
                ext = (ext + UInt32(byte ^ UInt8(truncatingIfNeeded: i))) % 255
            }
            return (UInt8(f1), UInt8(f2), ext == 0x41 ? 0xaa : UInt8(ext))
        }
        var seed: UInt64 = 5
        var lengths = Array(0...600)
        lengths += [4095, 4096, 4097, 65_535 * 3, 196_608]
        for n in lengths {
            for fill in 0..<3 {
                let data = (0..<n).map { i -> UInt8 in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return fill == 0 ? UInt8(truncatingIfNeeded: seed >> 56) : fill == 1 ? 255 : UInt8(truncatingIfNeeded: i)
                }
                let fast = data.withUnsafeBufferPointer { Adalight.fletcher($0) }
                let slow = reference(data)
                #expect(fast.fletcher1 == slow.0 && fast.fletcher2 == slow.1 && fast.fletcherExt == slow.2, "\(n) bytes, fill \(fill)")
            }
        }
    }
}
