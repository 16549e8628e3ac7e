import SignWire

/// A Colorlight 5A-75 frame: the brightness packet, every row (in packets of at most 497
/// pixels, B G R), then the display-frame packet that shows them. The LEDs are laid in
/// rows of `width`, LED 0 top left, as the card's panels are configured in LEDVISION.
public struct ColorlightFramer: DatagramFramer {
    public let kind = "colorlight"
    public let width: Int
    public let rows: Int
    /// The card's own brightness byte (signd's `brightness` dims the pixels themselves).
    public let level: UInt8
    private var packet: [UInt8] = []
    private var row: [UInt8]

    public init(width: Int, ledCount: Int, level: UInt8 = 0xFF) {
        self.width = max(1, width)
        self.rows = max(1, (ledCount + self.width - 1) / self.width)
        self.level = level
        row = [UInt8](repeating: 0, count: self.width * 3)
        packet.reserveCapacity(Colorlight.rowHeaderSize + Colorlight.maxPixelsPerPacket * 3 + Colorlight.displayFrameSize)
    }

    /// Row packets a frame.
    public var packetsPerFrame: Int { rows * Colorlight.packetsPerRow(width: width) }

    public mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        Colorlight.writeBrightness(level, into: &packet)
        packet.withUnsafeBytes { emit($0, 0) }
        let parts = Colorlight.packetsPerRow(width: width)
        for y in 0..<rows {
            let start = y * width * 3
            let count = max(0, min(width * 3, leds.count - start))
            // The row's bytes; LEDs past the last are black.
            row.withUnsafeMutableBytes { r in
                if count > 0 { r.baseAddress!.copyMemory(from: leds.baseAddress! + start, byteCount: count) }
                if count < r.count { (r.baseAddress! + count).initializeMemory(as: UInt8.self, repeating: 0, count: r.count - count) }
            }
            for part in 0..<parts {
                row.withUnsafeBytes { Colorlight.writeRow(y, part: part, of: $0, into: &packet) }
                packet.withUnsafeBytes { emit($0, 0) }
            }
        }
        Colorlight.writeDisplayFrame(level, into: &packet)
        packet.withUnsafeBytes { emit($0, 0) }
    }
}
