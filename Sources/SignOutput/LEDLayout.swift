/// How one LED's lane word (`DriveTable`: three 16-bit lanes in the wire's channel order,
/// each lane's high byte the byte shown) is laid on the wire: `size` bytes an LED, written
/// by `write`. The pipeline's loop is specialised for each, so the layout costs no call.
protocol LEDLayout {
    /// Bytes an LED takes.
    var size: Int { get }
    /// Whether the wire's second byte is in lane 2 and its third in lane 1 (its first in
    /// lane 0 as ever), because `write` puts them in place with fewer instructions so.
    static var swapsLastTwoLanes: Bool { get }
    /// Whether `write` looks its bytes up in a table by the shown bytes: then the colour loop
    /// writes each LED a turn after its sum (`LEDPipeline.alongLate`), so the look-ups wait
    /// on no load still under way.
    static var looksUp: Bool { get }
    /// Writes the LED whose lane word is `sum` at `at`.
    func write(_ sum: UInt64, at: UnsafeMutablePointer<UInt8>)
}

extension LEDLayout {
    static var swapsLastTwoLanes: Bool { false }
    static var looksUp: Bool { false }
}

/// The LED's three bytes, in lane order: what most wires carry.
struct ThreeBytes: LEDLayout {
    var size: Int { 3 }

    @inline(__always)
    func write(_ sum: UInt64, at o: UnsafeMutablePointer<UInt8>) {
        o[0] = UInt8(truncatingIfNeeded: sum &>> 8)
        o[1] = UInt8(truncatingIfNeeded: sum &>> 24)
        o[2] = UInt8(truncatingIfNeeded: sum &>> 40)
    }
}

/// An APA102 or SK9822 LED frame: the `0b111` and 5-bit global brightness byte, then the
/// three bytes, stored as one 32-bit word. Its lanes have the wire's third byte in the
/// middle (`swapsLastTwoLanes`): then the first and third shown bytes (bits 8 and 24 of the
/// sum) are already where the word has them, and only the second (bit 40) moves, to bit
/// 16: a mask, a shift, a mask and two ORs an LED, where lanes in wire order take three
/// shifts and masks.
struct APA102Layout: LEDLayout {
    /// The first byte, `0xE0 | brightness`.
    let global: UInt8

    var size: Int { 4 }

    static var swapsLastTwoLanes: Bool { true }

    @inline(__always)
    func write(_ sum: UInt64, at o: UnsafeMutablePointer<UInt8>) {
        let word = UInt32(global) | (UInt32(truncatingIfNeeded: sum) & 0xff00_ff00)
            | (UInt32(truncatingIfNeeded: sum &>> 24) & 0xff_0000)
        UnsafeMutableRawPointer(o).storeBytes(of: word.littleEndian, as: UInt32.self)
    }
}

/// A WS2812's three bytes as SPI bit patterns (`WS2812SPIFrame`), `Width.bytes` SPI bytes
/// each, from a table of each byte's pattern as it lies in memory: each pattern is stored
/// as one 32-bit word. With 3 bytes a byte its fourth byte is 0 and the next pattern or,
/// after the last LED, the reset gap's first zero byte overwrites it, so `out` needs room
/// for one byte past the LEDs. The width is the type's, not a stored value, so the stores'
/// offsets are constants and the unrolled loop keeps its pointers in registers.
struct WS2812Layout<Width: WS2812PatternWidth>: LEDLayout {
    let patterns: UnsafePointer<UInt32>

    var size: Int { 3 * Width.bytes }

    static var looksUp: Bool { true }

    @inline(__always)
    func write(_ sum: UInt64, at o: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(o)
        raw.storeBytes(of: patterns[Int(truncatingIfNeeded: (sum &>> 8) & 0xff)], as: UInt32.self)
        raw.storeBytes(of: patterns[Int(truncatingIfNeeded: (sum &>> 24) & 0xff)], toByteOffset: Width.bytes, as: UInt32.self)
        // Lane 2 is the top one (a lane never carries out of its 16 bits): no mask.
        raw.storeBytes(of: patterns[Int(truncatingIfNeeded: sum &>> 40)], toByteOffset: 2 * Width.bytes, as: UInt32.self)
    }
}

/// SPI bytes a WS2812 data byte becomes (`WS2812Layout`).
protocol WS2812PatternWidth {
    static var bytes: Int { get }
}

/// Three SPI bits a data bit (about 2.4 MHz): 3 bytes a byte.
enum ThreeSPIBytes: WS2812PatternWidth {
    static var bytes: Int { 3 }
}

/// Four SPI bits a data bit (about 3.2 MHz): 4 bytes a byte.
enum FourSPIBytes: WS2812PatternWidth {
    static var bytes: Int { 4 }
}
