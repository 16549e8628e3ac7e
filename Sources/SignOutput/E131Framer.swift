import SignWire

/// E1.31: one full data packet per universe of `channelsPerUniverse` channels (whole
/// pixels), numbered from `firstUniverse`, each universe with its own sequence; then a sync
/// packet when `syncUniverse` is set. On stop, three stream-terminated packets a universe.
///
/// Every universe's packet is kept from frame to frame: its header is written once, a frame
/// writes only its sequence and slots, and the stream-terminated packets carry the last
/// frame's slots without a copy of them kept elsewhere.
public struct E131Framer: DatagramFramer {
    public let kind = "e131"
    public let source: E131.Source
    public let firstUniverse: UInt16
    public let channelsPerUniverse: Int
    public let priority: UInt8
    /// 0: no sync packets.
    public let syncUniverse: UInt16
    /// Whether datagrams go to each universe's multicast group (no `host`).
    public let multicast: Bool
    public let universeCount: Int
    private var sequences: [UInt8]
    private var syncSequence: UInt8 = 0
    /// `universeCount` data packets one after the other.
    private var packets: [UInt8]
    private var packet: [UInt8] = []

    /// `channelsPerUniverse` is rounded down to whole pixels (a pixel is never split).
    public init(
        source: E131.Source, firstUniverse: UInt16, channelsPerUniverse: Int = 510, priority: UInt8 = 100,
        syncUniverse: UInt16 = 0, multicast: Bool, ledCount: Int
    ) {
        self.source = source
        self.firstUniverse = firstUniverse
        self.channelsPerUniverse = max(3, min(channelsPerUniverse, E131.maxSlots) / 3 * 3)
        self.priority = min(priority, 200)
        self.syncUniverse = syncUniverse
        self.multicast = multicast
        self.universeCount = max(1, (ledCount * 3 + self.channelsPerUniverse - 1) / self.channelsPerUniverse)
        sequences = [UInt8](repeating: 0, count: universeCount)
        packets = []
        packets.reserveCapacity(universeCount * E131.dataPacketSize)
        packet.reserveCapacity(E131.dataPacketSize)
        for u in 0..<universeCount {
            E131.writeData(
                source: source, universe: universe(at: u), priority: self.priority, syncAddress: syncUniverse,
                sequence: 0, options: 0, slots: UnsafeRawBufferPointer(start: nil, count: 0), into: &packet)
            packets += packet
        }
    }

    /// Universe numbers in order, then the sync universe (each a multicast group).
    public var groups: [UInt16] {
        guard multicast else { return [] }
        let data = (0..<universeCount).map { universe(at: $0) }
        return syncUniverse != 0 ? data + [syncUniverse] : data
    }

    private func universe(at index: Int) -> UInt16 { UInt16(min(Int(firstUniverse) + index, Int(E131.universes.upperBound))) }

    public mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        let channels = channelsPerUniverse
        packets.withUnsafeMutableBytes { all in
            for u in 0..<universeCount {
                let p = UnsafeMutableRawBufferPointer(rebasing: all[u * E131.dataPacketSize..<(u + 1) * E131.dataPacketSize])
                let start = min(u * channels, byteCount)
                let count = min(start + channels, byteCount) - start
                let slots = p.baseAddress! + E131.slotsOffset
                fill(start, UnsafeMutableRawBufferPointer(start: slots, count: count))
                // Slots past the universe's channels (or a smaller frame's end) are 0.
                (slots + count).initializeMemory(as: UInt8.self, repeating: 0, count: E131.maxSlots - count)
                sequences[u] &+= 1
                p[E131.sequenceOffset] = sequences[u]
                p[E131.optionsOffset] = 0
                emit(UnsafeRawBufferPointer(p), u)
            }
        }
        if syncUniverse != 0 {
            syncSequence &+= 1
            E131.writeSync(cid: source.cid, sequence: syncSequence, syncAddress: syncUniverse, into: &packet)
            packet.withUnsafeBytes { emit($0, universeCount) }
        }
    }

    public mutating func writeGoodbye(emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void) {
        packets.withUnsafeMutableBytes { all in
            for _ in 0..<3 {
                for u in 0..<universeCount {
                    let p = UnsafeMutableRawBufferPointer(
                        rebasing: all[u * E131.dataPacketSize..<(u + 1) * E131.dataPacketSize])
                    sequences[u] &+= 1
                    p[E131.sequenceOffset] = sequences[u]
                    p[E131.optionsOffset] = E131.streamTerminated
                    emit(UnsafeRawBufferPointer(p), u)
                }
            }
        }
    }
}
