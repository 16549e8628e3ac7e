import SignGraphics

/// WS2812 (NeoPixel) strips driven from an SPI data line: every data bit becomes a short
/// pattern of SPI bits whose high part is the WS2812's pulse. At 2.4 MHz (417 ns an SPI bit)
/// three SPI bits make one 1.25 µs data bit: `100` is a 0 (417 ns high), `110` a 1 (833 ns);
/// at 3.2 MHz (312 ns) four do: `1000` and `1110`. Colour bytes go green, red, blue, most
/// significant bit first, and the frame ends with the line low for at least 300 µs (the
/// reset that latches the colours; newer WS2812B parts need 280 µs).
public struct WS2812SPIFrame: Sendable, Equatable {
    /// SPI bits per data bit: 3 or 4.
    public let bitsPerBit: Int
    /// The SPI clock the patterns are timed for.
    public let speedHz: Int
    /// Zero bytes after the LED data: the reset gap at `speedHz`.
    public let resetBytes: Int
    /// Each byte's SPI pattern, most significant bit first, right-aligned.
    private let patterns: [UInt32]
    /// Each byte's SPI pattern as its bytes lie on the wire, in a word stored as it is
    /// (little-endian; with 3 bytes a byte, the fourth is 0).
    private let stored: [UInt32]

    /// The clocks that make WS2812 timing: about 2.1 to 2.9 MHz with 3 bits a bit, about
    /// 3.0 to 3.4 MHz with 4 (the datasheet's 150 ns tolerances).
    public static let threeBitClocks = 2_100_000...2_900_000
    public static let fourBitClocks = 3_000_000...3_400_000
    /// The reset gap the frame ends with.
    public static let resetMicroseconds = 300

    /// nil when `speedHz` makes no WS2812 timing.
    public init?(speedHz: Int) {
        if Self.threeBitClocks.contains(speedHz) {
            bitsPerBit = 3
        } else if Self.fourBitClocks.contains(speedHz) {
            bitsPerBit = 4
        } else {
            return nil
        }
        self.speedHz = speedHz
        resetBytes = (Self.resetMicroseconds * speedHz / 1_000_000 + 7) / 8
        let one: UInt32 = bitsPerBit == 3 ? 0b110 : 0b1110
        let zero: UInt32 = bitsPerBit == 3 ? 0b100 : 0b1000
        let width = bitsPerBit
        patterns = (0..<256).map { byte in
            (0..<8).reduce(UInt32(0)) { pattern, bit in
                pattern << UInt32(width) | (byte & (0x80 >> bit) != 0 ? one : zero)
            }
        }
        stored = patterns.map { pattern in
            let bytes = (0..<width).map { UInt32(pattern >> UInt32(8 * (width - 1 - $0)) & 0xff) }
            return bytes.enumerated().reduce(UInt32(0)) { $0 | $1.element << UInt32(8 * $1.offset) }.littleEndian
        }
    }

    /// The SPI bytes one colour byte becomes.
    public var bytesPerByte: Int { bitsPerBit }

    /// The size of a frame for `leds`.
    public func size(leds: Int) -> Int { leds * 3 * bytesPerByte + resetBytes }

    /// Writes a frame for `rgb` (R, G, B per LED) in `order` into `out`, reusing its storage.
    public func encode(_ rgb: [UInt8], order: ColourOrder, into out: inout [UInt8]) {
        let leds = rgb.count / 3
        let size = size(leds: leds)
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        let (a, b, c) = (order.first, order.second, order.third)
        let four = bitsPerBit == 4
        patterns.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { o in
                rgb.withUnsafeBufferPointer { source in
                    var at = 0
                    for led in 0..<leds {
                        for k in 0..<3 {
                            let channel = k == 0 ? a : k == 1 ? b : c
                            let pattern = table[Int(source[led * 3 + channel])]
                            if four {
                                o[at] = UInt8(truncatingIfNeeded: pattern >> 24)
                                o[at + 1] = UInt8(truncatingIfNeeded: pattern >> 16)
                                o[at + 2] = UInt8(truncatingIfNeeded: pattern >> 8)
                                o[at + 3] = UInt8(truncatingIfNeeded: pattern)
                                at += 4
                            } else {
                                o[at] = UInt8(truncatingIfNeeded: pattern >> 16)
                                o[at + 1] = UInt8(truncatingIfNeeded: pattern >> 8)
                                o[at + 2] = UInt8(truncatingIfNeeded: pattern)
                                at += 3
                            }
                        }
                    }
                    for i in at..<size { o[i] = 0 }
                }
            }
        }
    }

    /// A frame straight from `frame` through `pipeline`, which writes the strip's channel
    /// order (`LEDPipeline.ordered`): each LED's bytes become their patterns as they are
    /// coloured, with no copy between; the bytes `encode(_:order:into:)` writes for the same
    /// colours.
    public func encode(_ frame: Frame, scale: UInt32, through pipeline: inout LEDPipeline, into out: inout [UInt8]) {
        let leds = pipeline.map.ledCount
        let size = size(leds: leds)
        // The patterns are stored a word at a time: with 3 bytes a byte the last word reaches
        // one byte into the reset gap (which is longer than that), and writes a 0 there.
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        let data = leds * 3 * bytesPerByte
        precondition(resetBytes >= 1, "the reset gap takes the last pattern's spare byte")
        stored.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBytes { o in
                if bytesPerByte == 3 {
                    pipeline.colour(
                        frame, scale: scale, leds: 0..<leds, as: WS2812Layout<ThreeSPIBytes>(patterns: table.baseAddress!),
                        into: o.baseAddress!)
                } else {
                    pipeline.colour(
                        frame, scale: scale, leds: 0..<leds, as: WS2812Layout<FourSPIBytes>(patterns: table.baseAddress!),
                        into: o.baseAddress!)
                }
                (o.baseAddress! + data).initializeMemory(as: UInt8.self, repeating: 0, count: size - data)
            }
        }
    }
}
