/// E1.31 (streaming ACN, "sACN"; UDP 5568): DMX512 universes of 512 slots, with a
/// sender's CID, source name, priority and per-universe sequence, and optional sync packets
/// that make receivers show every universe of a frame at once.
public enum E131 {
    public static let port: UInt16 = 5568
    /// A data packet with all 512 slots.
    public static let dataPacketSize = 638
    public static let syncPacketSize = 49
    public static let maxSlots = 512
    /// Universes senders may use (64214 is reserved for discovery).
    public static let universes: ClosedRange<UInt16> = 1...63999
    /// Where a data packet's sequence, options and first slot (after the start code) are.
    public static let sequenceOffset = 111, optionsOffset = 112, slotsOffset = 126

    /// Options: stream terminated (sent three times when a source stops).
    public static let streamTerminated: UInt8 = 0x40
    public static let preview: UInt8 = 0x80
    public static let forceSynchronization: UInt8 = 0x20

    static let identifier: [UInt8] = [0x41, 0x53, 0x43, 0x2d, 0x45, 0x31, 0x2e, 0x31, 0x37, 0x00, 0x00, 0x00]
    static let rootData: UInt32 = 0x0000_0004
    static let rootExtended: UInt32 = 0x0000_0008
    static let framingData: UInt32 = 0x0000_0002
    static let framingSync: UInt32 = 0x0000_0001

    /// Who sends: a component identifier (16 bytes, stable for the sender) and a name.
    public struct Source: Sendable, Equatable {
        public var cid: [UInt8]
        /// UTF-8, at most 63 bytes on the wire.
        public var name: String

        public init(cid: [UInt8], name: String) {
            precondition(cid.count == 16, "a CID is 16 bytes")
            self.cid = cid
            self.name = name
        }
    }

    /// A data packet's fields.
    public struct DataPacket: Sendable, Equatable {
        public var cid: [UInt8]
        public var sourceName: String
        public var priority: UInt8
        /// The universe whose sync packets release this data; 0 when none.
        public var syncAddress: UInt16
        public var sequence: UInt8
        public var options: UInt8
        public var universe: UInt16
        /// Where the slots (after the start code) lie in the datagram.
        public var slots: Range<Int>
    }

    /// A sync packet's fields.
    public struct SyncPacket: Sendable, Equatable {
        public var cid: [UInt8]
        public var sequence: UInt8
        public var syncAddress: UInt16
    }

    public enum Packet: Sendable, Equatable {
        case data(DataPacket)
        case sync(SyncPacket)
    }

    /// The multicast group of a universe: 239.255.hi.lo.
    public static func multicastGroup(universe: UInt16) -> (UInt8, UInt8, UInt8, UInt8) {
        (239, 255, UInt8(universe >> 8), UInt8(universe & 0xff))
    }

    /// Writes a full data packet (512 slots; those past `slots` are 0) into `packet`,
    /// resized in place.
    public static func writeData(
        source: Source, universe: UInt16, priority: UInt8, syncAddress: UInt16, sequence: UInt8, options: UInt8,
        slots: UnsafeRawBufferPointer, into packet: inout [UInt8]
    ) {
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: dataPacketSize))
        packet.withUnsafeMutableBytes { p in
            writeRoot(p, vector: rootData, cid: source.cid, total: dataPacketSize)
            p.put(0x7000 | UInt16(dataPacketSize - 38), at: 38)
            p.put(framingData, at: 40)
            var name = 0
            for byte in source.name.utf8 where name < 63 {
                p[44 + name] = byte
                name += 1
            }
            p[108] = priority
            p.put(syncAddress, at: 109)
            p[sequenceOffset] = sequence
            p[optionsOffset] = options
            p.put(universe, at: 113)
            p.put(0x7000 | UInt16(dataPacketSize - 115), at: 115)
            p[117] = 0x02  // set property
            p[118] = 0xa1  // address and data type
            p.put(UInt16(0), at: 119)  // first property address
            p.put(UInt16(1), at: 121)  // address increment
            p.put(UInt16(maxSlots + 1), at: 123)  // start code and 512 slots
            p[125] = 0  // start code: dimmer data
            let count = min(slots.count, maxSlots)
            if count > 0 { (p.baseAddress! + slotsOffset).copyMemory(from: slots.baseAddress!, byteCount: count) }
        }
    }

    /// Writes a sync packet into `packet`, resized in place.
    public static func writeSync(cid: [UInt8], sequence: UInt8, syncAddress: UInt16, into packet: inout [UInt8]) {
        packet.removeAll(keepingCapacity: true)
        packet.append(contentsOf: repeatElement(0, count: syncPacketSize))
        packet.withUnsafeMutableBytes { p in
            writeRoot(p, vector: rootExtended, cid: cid, total: syncPacketSize)
            p.put(0x7000 | UInt16(syncPacketSize - 38), at: 38)
            p.put(framingSync, at: 40)
            p[44] = sequence
            p.put(syncAddress, at: 45)
        }
    }

    private static func writeRoot(_ p: UnsafeMutableRawBufferPointer, vector: UInt32, cid: [UInt8], total: Int) {
        p.put(UInt16(0x0010), at: 0)
        p.put(UInt16(0), at: 2)
        for (i, byte) in identifier.enumerated() { p[4 + i] = byte }
        p.put(0x7000 | UInt16(total - 16), at: 16)
        p.put(vector, at: 18)
        for (i, byte) in cid.prefix(16).enumerated() { p[22 + i] = byte }
    }

    /// What a packet says about its slots: a data packet's framing and DMP fields, or a sync
    /// packet's. `parseFraming` checks all `parse` checks but copies out neither the sender's
    /// CID nor its name, so it allocates nothing: what a receiver needs for every packet.
    public enum Framing: Sendable, Equatable {
        case data(
            priority: UInt8, syncAddress: UInt16, sequence: UInt8, options: UInt8, universe: UInt16, slots: Range<Int>)
        case sync(sequence: UInt8, syncAddress: UInt16)
    }

    /// Reads a datagram as a data or sync packet, checking every length and vector: its
    /// framing (`parseFraming`) with the sender's CID and name.
    public static func parse(_ d: UnsafeRawBufferPointer) throws(WireError) -> Packet {
        let framing = try parseFraming(d)
        let cid = Array(d[22..<38])
        switch framing {
        case .sync(let sequence, let syncAddress):
            return .sync(SyncPacket(cid: cid, sequence: sequence, syncAddress: syncAddress))
        case .data(let priority, let syncAddress, let sequence, let options, let universe, let slots):
            let nameBytes = d[44..<108].prefix { $0 != 0 }
            return .data(
                DataPacket(
                    cid: cid, sourceName: String(decoding: nameBytes, as: UTF8.self), priority: priority,
                    syncAddress: syncAddress, sequence: sequence, options: options, universe: universe,
                    slots: slots))
        }
    }

    /// A datagram's framing, every length and vector checked; nothing allocated.
    public static func parseFraming(_ d: UnsafeRawBufferPointer) throws(WireError) -> Framing {
        guard d.count >= syncPacketSize else {
            throw WireError(.short, "an E1.31 packet is at least 49 bytes; this one has \(d.count)")
        }
        guard d.count <= dataPacketSize else {
            throw WireError(.oversized, "an E1.31 packet is at most 638 bytes; this one has \(d.count)")
        }
        guard d.u16(0) == 0x0010, d.u16(2) == 0, identifier.indices.allSatisfy({ d[4 + $0] == identifier[$0] }) else {
            throw WireError(.wrongVector, "not an ACN packet (preamble or identifier)")
        }
        // Each layer's length (low 12 bits) must reach exactly to the end of the datagram.
        func layerLength(at offset: Int) -> Int { Int(d.u16(offset) & 0x0fff) }
        guard layerLength(at: 16) == d.count - 16, layerLength(at: 38) == d.count - 38 else {
            throw WireError(.short, "an E1.31 layer's length does not match the packet's")
        }
        switch (d.u32(18), d.u32(40)) {
        case (rootExtended, framingSync):
            return .sync(sequence: d[44], syncAddress: d.u16(45))
        case (rootData, framingData):
            guard d.count >= 126 else { throw WireError(.short, "an E1.31 data packet has a 126-byte header") }
            guard layerLength(at: 115) == d.count - 115, d[117] == 0x02, d[118] == 0xa1, d.u16(121) == 1 else {
                throw WireError(.wrongVector, "not an E1.31 DMP set-property layer")
            }
            let values = Int(d.u16(123))
            guard values >= 1, 125 + values == d.count else {
                throw WireError(.short, "the property count (\(values)) does not match the packet")
            }
            guard d[125] == 0 else { throw WireError(.invalid, "start code \(d[125]) is not dimmer data") }
            let universe = d.u16(113)
            guard universes.contains(universe) else {
                throw WireError(.invalid, "universe \(universe) is outside 1...63999")
            }
            return .data(
                priority: d[108], syncAddress: d.u16(109), sequence: d[111], options: d[112], universe: universe,
                slots: 126..<d.count)
        default:
            throw WireError(
                .wrongVector,
                "vectors 0x\(String(d.u32(18), radix: 16))/0x\(String(d.u32(40), radix: 16)) are not E1.31 data or sync"
            )
        }
    }
}
