/// How one LED's lane word (`DriveTable`: three 16-bit lanes in the wire's channel order,
/// each lane's high byte the byte shown) is laid on the wire: `size` bytes an LED, written
/// by `write`. The pipeline's loop is specialised for each, so the layout costs no call.
protocol LEDLayout {
    /// Bytes an LED takes.
    var size: Int { get }
    /// Writes the LED whose lane word is `sum` at `at`.
    func write(_ sum: UInt64, at: UnsafeMutablePointer<UInt8>)
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
/// three bytes, stored as one 32-bit word.
struct APA102Layout: LEDLayout {
    /// The first byte, `0xE0 | brightness`.
    let global: UInt8

    var size: Int { 4 }

    @inline(__always)
    func write(_ sum: UInt64, at o: UnsafeMutablePointer<UInt8>) {
        // Lane i's shown byte (bits 16i + 8 ..< 16i + 16) goes to byte i + 1 of the word.
        let word = UInt32(global) | UInt32(truncatingIfNeeded: sum & 0xff00)
            | UInt32(truncatingIfNeeded: (sum &>> 8) & 0xff_0000) | UInt32(truncatingIfNeeded: (sum &>> 16) & 0xff00_0000)
        UnsafeMutableRawPointer(o).storeBytes(of: word.littleEndian, as: UInt32.self)
    }
}

/// A WS2812's three bytes as SPI bit patterns (`WS2812SPIFrame`), `bytesPerByte` SPI bytes
/// each, from a table of each byte's pattern as it lies in memory: each pattern is stored
/// as one 32-bit word. With 3 bytes a byte its fourth byte is 0 and the next pattern or,
/// after the last LED, the reset gap's first zero byte overwrites it, so `out` needs room
/// for one byte past the LEDs.
struct WS2812Layout: LEDLayout {
    let patterns: UnsafePointer<UInt32>
    let bytesPerByte: Int

    var size: Int { 3 * bytesPerByte }

    @inline(__always)
    func write(_ sum: UInt64, at o: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(o)
        raw.storeBytes(of: patterns[Int(truncatingIfNeeded: (sum &>> 8) & 0xff)], as: UInt32.self)
        raw.storeBytes(of: patterns[Int(truncatingIfNeeded: (sum &>> 24) & 0xff)], toByteOffset: bytesPerByte, as: UInt32.self)
        raw.storeBytes(
            of: patterns[Int(truncatingIfNeeded: (sum &>> 40) & 0xff)], toByteOffset: 2 * bytesPerByte, as: UInt32.self)
    }
}
