/// The Colorlight 5A-75 receiver card's raw-Ethernet protocol, as FPP and xLights send it
/// and as captures document it (no vendor specification exists): frames from
/// 22:22:33:44:55:66 to 11:22:33:44:55:66 whose EtherType field is the packet type.
///
/// - Row data, EtherType 0x55 then the row's high byte: the row's low byte, the first
///   pixel's offset and the pixel count (16 bits each, big-endian), 0x08 0x88, then the
///   pixels in B, G, R order; at most 497 pixels a packet, so a wider row takes several.
/// - Brightness, EtherType 0x0A then red: green, blue, 0xFF, then zeros (63 bytes).
/// - Display frame, EtherType 0x0107: the rows sent so far are shown; 98 bytes, the
///   brightness at 21, 0x05 at 22, red, green, blue brightness at 24 to 26.
public enum Colorlight {
    public static let receiverMAC: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    public static let senderMAC: [UInt8] = [0x22, 0x22, 0x33, 0x44, 0x55, 0x66]
    public static let maxPixelsPerPacket = 497
    /// Ethernet header (two MACs, the type) and the row fields before the pixels.
    public static let rowHeaderSize = 14 + 7
    public static let brightnessSize = 14 + 63
    public static let displayFrameSize = 14 + 98
    /// The most rows the type's high byte can number (0x55 00 to 0x55 FF).
    public static let maxRows = 65536

    /// How many packets a row of `width` pixels takes.
    public static func packetsPerRow(width: Int) -> Int { max(1, (width + maxPixelsPerPacket - 1) / maxPixelsPerPacket) }

    private static func addresses(_ p: UnsafeMutableRawBufferPointer) {
        for i in 0..<6 {
            p[i] = receiverMAC[i]
            p[6 + i] = senderMAC[i]
        }
    }

    /// Packet `part` of row `row`, from `rgb` (the row's pixels, R G B each) into `packet`,
    /// resized in place (its storage reused).
    public static func writeRow(_ row: Int, part: Int, of rgb: UnsafeRawBufferPointer, into packet: inout [UInt8]) {
        let width = rgb.count / 3
        let offset = part * maxPixelsPerPacket
        let count = max(0, min(maxPixelsPerPacket, width - offset))
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: rowHeaderSize + count * 3))
        packet.withUnsafeMutableBytes { p in
            writeRowHeader(row, offset: offset, count: count, into: p)
            var o = rowHeaderSize
            var i = offset * 3
            for _ in 0..<count {
                p[o] = rgb[i + 2]
                p[o + 1] = rgb[i + 1]
                p[o + 2] = rgb[i]
                o += 3
                i += 3
            }
        }
    }

    /// A row packet's header for `count` pixels from pixel `offset` of row `row`, into the
    /// start of `p` (room for `rowHeaderSize` bytes); the pixels (B, G, R) go after it.
    public static func writeRowHeader(_ row: Int, offset: Int, count: Int, into p: UnsafeMutableRawBufferPointer) {
        addresses(p)
        p[12] = 0x55
        p[13] = UInt8(truncatingIfNeeded: row >> 8)
        p[14] = UInt8(truncatingIfNeeded: row)
        p[15] = UInt8(truncatingIfNeeded: offset >> 8)
        p[16] = UInt8(truncatingIfNeeded: offset)
        p[17] = UInt8(truncatingIfNeeded: count >> 8)
        p[18] = UInt8(truncatingIfNeeded: count)
        p[19] = 0x08
        p[20] = 0x88
    }

    /// The brightness packet: `level` for red, green and blue.
    public static func writeBrightness(_ level: UInt8, into packet: inout [UInt8]) {
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: brightnessSize))
        packet.withUnsafeMutableBytes { p in
            addresses(p)
            p[12] = 0x0A
            p[13] = level
            p[14] = level
            p[15] = level
            p[16] = 0xFF
        }
    }

    /// The display-frame packet that shows the rows sent, at `level`.
    public static func writeDisplayFrame(_ level: UInt8, into packet: inout [UInt8]) {
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: displayFrameSize))
        packet.withUnsafeMutableBytes { p in
            addresses(p)
            p[12] = 0x01
            p[13] = 0x07
            p[14 + 21] = level
            p[14 + 22] = 0x05
            p[14 + 24] = level
            p[14 + 25] = level
            p[14 + 26] = level
        }
    }
}
