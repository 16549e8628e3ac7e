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
    /// One row packet's room, reused for each: the header, then the pixels filled in place.
    private var row = [UInt8](repeating: 0, count: Colorlight.rowHeaderSize + Colorlight.maxPixelsPerPacket * 3)

    public init(width: Int, ledCount: Int, level: UInt8 = 0xFF) {
        self.width = max(1, width)
        self.rows = max(1, (ledCount + self.width - 1) / self.width)
        self.level = level
        packet.reserveCapacity(Colorlight.rowHeaderSize + Colorlight.maxPixelsPerPacket * 3 + Colorlight.displayFrameSize)
    }

    /// Row packets a frame.
    public var packetsPerFrame: Int { rows * Colorlight.packetsPerRow(width: width) }

    /// The card takes B, G, R.
    public var order: ColourOrder { ColourOrder("BGR")! }

    public mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        Colorlight.writeBrightness(level, into: &packet)
        packet.withUnsafeBytes { emit($0, 0) }
        let parts = Colorlight.packetsPerRow(width: width)
        let header = Colorlight.rowHeaderSize
        row.withUnsafeMutableBytes { p in
            for y in 0..<rows {
                for part in 0..<parts {
                    let offset = part * Colorlight.maxPixelsPerPacket
                    let count = max(0, min(Colorlight.maxPixelsPerPacket, width - offset))
                    Colorlight.writeRowHeader(y, offset: offset, count: count, into: p)
                    // The part's bytes; LEDs past the last are black.
                    let start = (y * width + offset) * 3
                    let filled = max(0, min(count * 3, byteCount - start))
                    if filled > 0 { fill(start, UnsafeMutableRawBufferPointer(rebasing: p[header..<header + filled])) }
                    for i in header + filled..<header + count * 3 { p[i] = 0 }
                    emit(UnsafeRawBufferPointer(rebasing: p[0..<header + count * 3]), 0)
                }
            }
        }
        Colorlight.writeDisplayFrame(level, into: &packet)
        packet.withUnsafeBytes { emit($0, 0) }
    }
}
