import SignWire

/// E1.31: one full data packet per universe of `channelsPerUniverse` channels (whole
/// pixels), numbered from `firstUniverse`, each universe with its own sequence; then a sync
/// packet when `syncUniverse` is set. On stop, three stream-terminated packets a universe.
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
        packet.reserveCapacity(E131.dataPacketSize)
    }

    /// Universe numbers in order, then the sync universe (each a multicast group).
    public var groups: [UInt16] {
        guard multicast else { return [] }
        let data = (0..<universeCount).map { universe(at: $0) }
        return syncUniverse != 0 ? data + [syncUniverse] : data
    }

    private func universe(at index: Int) -> UInt16 { UInt16(min(Int(firstUniverse) + index, Int(E131.universes.upperBound))) }

    public mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        writeUniverses(leds, options: 0, emit: emit)
        if syncUniverse != 0 {
            syncSequence &+= 1
            E131.writeSync(cid: source.cid, sequence: syncSequence, syncAddress: syncUniverse, into: &packet)
            packet.withUnsafeBytes { emit($0, universeCount) }
        }
    }

    public mutating func writeGoodbye(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        for _ in 0..<3 { writeUniverses(leds, options: E131.streamTerminated, emit: emit) }
    }

    private mutating func writeUniverses(
        _ leds: UnsafeRawBufferPointer, options: UInt8,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        for u in 0..<universeCount {
            let start = min(u * channelsPerUniverse, leds.count)
            let end = min(start + channelsPerUniverse, leds.count)
            sequences[u] &+= 1
            E131.writeData(
                source: source, universe: universe(at: u), priority: priority, syncAddress: syncUniverse,
                sequence: sequences[u], options: options, slots: UnsafeRawBufferPointer(rebasing: leds[start..<end]),
                into: &packet)
            packet.withUnsafeBytes { emit($0, u) }
        }
    }
}
