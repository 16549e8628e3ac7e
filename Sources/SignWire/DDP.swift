/// The Distributed Display Protocol (UDP 4048): a 10-byte header (14 with a timecode) before
/// up to 1440 bytes of pixel data at a byte offset into the display; the last packet of a
/// frame carries the push flag. What WLED receives best.
public enum DDP {
    public static let port: UInt16 = 4048
    public static let headerSize = 10
    /// The most data bytes a packet carries: 480 RGB pixels (WLED's and xLights' figure).
    public static let maxDataPerPacket = 1440
    /// Flags: version 1.
    public static let version1: UInt8 = 0x40
    public static let pushFlag: UInt8 = 0x01
    public static let timecodeFlag: UInt8 = 0x10
    /// Data type: RGB, 8 bits a channel.
    public static let rgb8: UInt8 = 0x0B
    /// Destination: the display.
    public static let display: UInt8 = 1

    /// A packet's header.
    public struct Header: Sendable, Equatable {
        public var flags: UInt8
        /// 1...15; 0 when the sender does not number packets.
        public var sequence: UInt8
        public var dataType: UInt8
        public var destination: UInt8
        /// Where the data goes, in bytes from the start of the display.
        public var offset: UInt32
        public var length: UInt16

        public var push: Bool { flags & DDP.pushFlag != 0 }
    }

    /// How many packets a frame of `bytes` takes.
    public static func packetCount(frameBytes bytes: Int) -> Int {
        max(1, (bytes + maxDataPerPacket - 1) / maxDataPerPacket)
    }

    /// Writes packet `index` of a frame (`frame` is its RGB bytes) into `packet`, which is
    /// resized in place (its storage reused): the header, then the packet's slice of the
    /// frame; the push flag on the frame's last packet.
    public static func writePacket(
        _ index: Int, of frame: UnsafeRawBufferPointer, sequence: UInt8, into packet: inout [UInt8]
    ) {
        let start = index * maxDataPerPacket
        let count = max(0, min(maxDataPerPacket, frame.count - start))
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: headerSize + count))
        packet.withUnsafeMutableBytes { p in
            writeHeader(index, frameBytes: frame.count, sequence: sequence, into: p)
            if count > 0 {
                (p.baseAddress! + headerSize).copyMemory(from: frame.baseAddress! + start, byteCount: count)
            }
        }
    }

    /// Writes the header of packet `index` of a frame of `frameBytes` bytes into the start of
    /// `packet` (room for `headerSize` bytes at least): the packet's slice of the frame,
    /// the push flag on the frame's last packet. Returns where its data lies in the frame,
    /// for the caller to put after the header.
    @discardableResult
    public static func writeHeader(
        _ index: Int, frameBytes: Int, sequence: UInt8, into p: UnsafeMutableRawBufferPointer
    ) -> (start: Int, count: Int) {
        let start = index * maxDataPerPacket
        let count = max(0, min(maxDataPerPacket, frameBytes - start))
        let last = start + count >= frameBytes
        p[0] = version1 | (last ? pushFlag : 0)
        p[1] = sequence & 0x0f
        p[2] = rgb8
        p[3] = display
        p.put(UInt32(start), at: 4)
        p.put(UInt16(count), at: 8)
        return (start, count)
    }

    /// Reads a datagram: its header and where its data lies in it.
    public static func parse(_ datagram: UnsafeRawBufferPointer) throws(WireError) -> (header: Header, data: Range<Int>)
    {
        guard datagram.count >= headerSize else {
            throw WireError(.short, "a DDP packet has a 10-byte header; this one has \(datagram.count) bytes")
        }
        let flags = datagram[0]
        guard flags & 0xC0 == version1 else {
            throw WireError(.wrongVector, "not DDP version 1 (flags 0x\(String(flags, radix: 16)))")
        }
        let header = Header(
            flags: flags, sequence: datagram[1] & 0x0f, dataType: datagram[2], destination: datagram[3],
            offset: datagram.u32(4), length: datagram.u16(8))
        let start = flags & timecodeFlag != 0 ? headerSize + 4 : headerSize
        let end = start + Int(header.length)
        guard datagram.count >= end else {
            throw WireError(
                .short, "the header says \(header.length) data bytes; \(max(0, datagram.count - start)) came")
        }
        return (header, start..<end)
    }
}
