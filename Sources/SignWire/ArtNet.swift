/// Art-Net 4 (UDP 6454): ArtDmx carries one universe (a 15-bit port-address) of up to 512
/// channels with a sequence; ArtSync makes receivers show what they hold.
public enum ArtNet {
    public static let port: UInt16 = 6454
    public static let protocolVersion: UInt16 = 14
    public static let opDmx: UInt16 = 0x5000
    public static let opSync: UInt16 = 0x5200
    public static let opPoll: UInt16 = 0x2000
    public static let dmxHeaderSize = 18
    public static let syncPacketSize = 14
    public static let maxChannels = 512
    /// The largest port-address (net 0-127, sub-net 0-15, universe 0-15).
    public static let maxPortAddress: UInt16 = 0x7fff

    static let identifier: [UInt8] = Array("Art-Net".utf8) + [0]

    /// An ArtDmx packet's fields.
    public struct Dmx: Sendable, Equatable {
        /// 1...255; 0 when the sender does not number packets.
        public var sequence: UInt8
        public var physical: UInt8
        public var portAddress: UInt16
        /// Where the channels lie in the datagram.
        public var data: Range<Int>
    }

    public enum Packet: Sendable, Equatable {
        case dmx(Dmx)
        case sync
        /// An ArtPoll, or another opcode signd does not act on.
        case other(opcode: UInt16)
    }

    /// Writes an ArtDmx packet into `packet`, resized in place: the channels, padded with
    /// a 0 to an even length as the standard asks (at least 2).
    public static func writeDmx(
        portAddress: UInt16, sequence: UInt8, channels: UnsafeRawBufferPointer, into packet: inout [UInt8]
    ) {
        let count = min(channels.count, maxChannels)
        let length = max(2, count + count % 2)
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: dmxHeaderSize + length))
        packet.withUnsafeMutableBytes { p in
            writeDmxHeader(portAddress: portAddress, sequence: sequence, channels: count, into: p)
            if count > 0 { (p.baseAddress! + dmxHeaderSize).copyMemory(from: channels.baseAddress!, byteCount: count) }
        }
    }

    /// The data length an ArtDmx of `channels` channels gives: even, at least 2.
    public static func dmxLength(channels: Int) -> Int {
        let count = min(channels, maxChannels)
        return max(2, count + count % 2)
    }

    /// Writes an ArtDmx header for `channels` channels into the start of `p` (room for
    /// `dmxHeaderSize` bytes); the caller puts the channels and their padding after it.
    public static func writeDmxHeader(
        portAddress: UInt16, sequence: UInt8, channels: Int, into p: UnsafeMutableRawBufferPointer
    ) {
        writeHeader(p, opcode: opDmx)
        p[12] = sequence
        p[13] = 0
        p[14] = UInt8(portAddress & 0xff)  // sub-net and universe
        p[15] = UInt8(portAddress >> 8 & 0x7f)  // net
        p.put(UInt16(dmxLength(channels: channels)), at: 16)
    }

    /// Writes an ArtSync packet into `packet`, resized in place.
    public static func writeSync(into packet: inout [UInt8]) {
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: syncPacketSize))
        packet.withUnsafeMutableBytes { p in writeHeader(p, opcode: opSync) }
    }

    private static func writeHeader(_ p: UnsafeMutableRawBufferPointer, opcode: UInt16) {
        // "Art-Net" and a 0.
        (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]) = (0x41, 0x72, 0x74, 0x2d, 0x4e, 0x65, 0x74, 0x00)
        p[8] = UInt8(opcode & 0xff)  // low byte first
        p[9] = UInt8(opcode >> 8)
        p.put(protocolVersion, at: 10)
    }

    /// Reads a datagram: an ArtDmx (lengths checked), an ArtSync, or another opcode.
    public static func parse(_ d: UnsafeRawBufferPointer) throws(WireError) -> Packet {
        guard d.count >= 12 else {
            throw WireError(.short, "an Art-Net packet has at least 12 bytes; this one \(d.count)")
        }
        guard identifier.indices.allSatisfy({ d[$0] == identifier[$0] }) else {
            throw WireError(.wrongVector, "not an Art-Net packet (no \"Art-Net\" identifier)")
        }
        let opcode = UInt16(d[8]) | UInt16(d[9]) << 8
        switch opcode {
        case opDmx:
            guard d.count >= dmxHeaderSize else { throw WireError(.short, "an ArtDmx header is 18 bytes") }
            guard d.u16(10) >= protocolVersion else {
                throw WireError(.invalid, "Art-Net protocol version \(d.u16(10)) is older than 14")
            }
            let length = Int(d.u16(16))
            guard (2...maxChannels).contains(length) else {
                throw WireError(length > maxChannels ? .oversized : .invalid, "ArtDmx length \(length) is not 2 to 512")
            }
            guard d.count >= dmxHeaderSize + length else {
                throw WireError(.short, "ArtDmx says \(length) channels; \(d.count - dmxHeaderSize) came")
            }
            return .dmx(
                Dmx(
                    sequence: d[12], physical: d[13], portAddress: UInt16(d[15] & 0x7f) << 8 | UInt16(d[14]),
                    data: dmxHeaderSize..<(dmxHeaderSize + length)))
        case opSync:
            guard d.count >= syncPacketSize else { throw WireError(.short, "an ArtSync is 14 bytes") }
            return .sync
        default:
            return .other(opcode: opcode)
        }
    }
}
