/// Assembles the frames another program streams (DDP, E1.31 or Art-Net) out of their
/// datagrams, as an LED controller does: pixel bytes land at their place in one RGB
/// buffer, and a frame is complete on DDP's push, on an E1.31 sync or ArtSync packet, or
/// when every universe of the frame has come. Every datagram is parsed with bounds checks;
/// a refused one is counted by reason and changes nothing. Pure, so it is tested, fuzzed
/// and benchmarked without sockets. Nothing is allocated after `init`: E1.31 packets are
/// read through `E131.parseFraming`, which leaves the sender's CID and name unread.
public struct StreamAssembler: Sendable {
    public enum Wire: String, Sendable, CaseIterable { case ddp, e131, artnet }

    /// Counts of what came, for `status`.
    public struct Counters: Sendable, Equatable {
        public var packets: UInt64 = 0
        public var frames: UInt64 = 0
        /// Refused: fewer bytes than the header, or than it says follow.
        public var short: UInt64 = 0
        /// Refused: more bytes than the protocol allows.
        public var oversized: UInt64 = 0
        /// Refused: another protocol (wrong identifier, vector or opcode).
        public var wrongVector: UInt64 = 0
        /// Refused: this protocol with a field value it does not allow.
        public var invalid: UInt64 = 0
        /// Refused: a universe (or DDP destination) this layer does not show.
        public var wrongUniverse: UInt64 = 0
        /// Refused: E1.31 from a lower priority while a higher one is sending.
        public var lowPriority: UInt64 = 0
        public init() {}

        /// The refusals by reason, as `status` names them.
        public var rejected: [(reason: String, count: UInt64)] {
            [
                ("short", short), ("oversized", oversized), ("wrong-vector", wrongVector), ("invalid", invalid),
                ("wrong-universe", wrongUniverse), ("low-priority", lowPriority),
            ]
        }

        mutating func count(_ reason: WireError.Reason) {
            switch reason {
            case .short: short &+= 1
            case .oversized: oversized &+= 1
            case .wrongVector: wrongVector &+= 1
            case .invalid: invalid &+= 1
            }
        }
    }

    public let wire: Wire
    /// E1.31: first universe; Art-Net: first port-address.
    public let firstUniverse: Int
    public let channelsPerUniverse: Int
    public let universeCount: Int
    /// The frame being filled: R, G, B per incoming pixel.
    public private(set) var pixels: [UInt8]
    public private(set) var counters = Counters()
    /// E1.31: the source the layer shows sent stream-terminated; cleared by its next data.
    public private(set) var terminated = false
    private var arrived: [Bool]
    private var arrivedCount = 0
    private var syncedUniverse: UInt16 = 0
    /// E1.31: the highest priority heard lately, and when (the caller's clock, ns).
    private var priority: UInt8 = 0
    private var priorityHeard: UInt64 = 0
    private var lastArtSync: UInt64?

    /// How long after the last ArtSync frames wait for the next one.
    public static let artSyncHold: UInt64 = 4_000_000_000

    /// How long a higher-priority E1.31 source holds the layer after its last packet.
    public static let priorityHold: UInt64 = 2_500_000_000

    /// A stream of `pixelCount` pixels.
    public init(wire: Wire, pixelCount: Int, firstUniverse: Int, channelsPerUniverse: Int = 510) {
        self.wire = wire
        self.firstUniverse = firstUniverse
        self.channelsPerUniverse = max(3, min(channelsPerUniverse, 512) / 3 * 3)
        self.universeCount = max(1, (pixelCount * 3 + self.channelsPerUniverse - 1) / self.channelsPerUniverse)
        pixels = [UInt8](repeating: 0, count: pixelCount * 3)
        arrived = [Bool](repeating: false, count: universeCount)
    }

    /// Takes one datagram received at `now` (ns); true when it completed a frame, which is
    /// then in `pixels` until the next datagram.
    public mutating func take(_ datagram: UnsafeRawBufferPointer, now: UInt64) -> Bool {
        counters.packets &+= 1
        do throws(WireError) {
            let complete: Bool
            switch wire {
            case .ddp: complete = try takeDDP(datagram)
            case .e131: complete = try takeE131(datagram, now: now)
            case .artnet: complete = try takeArtNet(datagram, now: now)
            }
            if complete { counters.frames &+= 1 }
            return complete
        } catch {
            counters.count(error.reason)
            return false
        }
    }

    /// Counts a datagram too big for the receiver's buffer, which never reaches `take`.
    public mutating func countOversized() {
        counters.packets &+= 1
        counters.oversized &+= 1
    }

    private mutating func refuseUniverse() -> Bool {
        counters.wrongUniverse &+= 1
        return false
    }

    private mutating func takeDDP(_ d: UnsafeRawBufferPointer) throws(WireError) -> Bool {
        let (header, data) = try DDP.parse(d)
        guard header.destination == DDP.display || header.destination == 0 else { return refuseUniverse() }
        let offset = Int(header.offset)
        if offset < pixels.count {
            let count = min(data.count, pixels.count - offset)
            pixels.withUnsafeMutableBytes { p in
                (p.baseAddress! + offset).copyMemory(from: d.baseAddress! + data.lowerBound, byteCount: count)
            }
        }
        return header.push
    }

    private mutating func takeE131(_ d: UnsafeRawBufferPointer, now: UInt64) throws(WireError) -> Bool {
        switch try E131.parseFraming(d) {
        case .sync(_, let syncAddress):
            guard syncAddress == syncedUniverse, arrivedCount > 0 else { return false }
            return finish()
        case .data(let priority, let syncAddress, _, let options, let universe, let slots):
            if options & E131.preview != 0 { return false }
            let index = Int(universe) - firstUniverse
            guard index >= 0, index < universeCount else { return refuseUniverse() }
            // The standard's merge: the highest priority wins while it keeps sending.
            if priority < self.priority, now &- priorityHeard < Self.priorityHold {
                counters.lowPriority &+= 1
                return false
            }
            self.priority = priority
            priorityHeard = now
            // The source says it stops: the layer goes dark now, not after the timeout.
            if options & E131.streamTerminated != 0 {
                terminated = true
                self.priority = 0
                priorityHeard = 0
                return false
            }
            terminated = false
            place(index, d, slots)
            syncedUniverse = syncAddress
            return syncAddress == 0 && arrivedCount == universeCount ? finish() : false
        }
    }

    private mutating func takeArtNet(_ d: UnsafeRawBufferPointer, now: UInt64) throws(WireError) -> Bool {
        switch try ArtNet.parse(d) {
        case .sync:
            lastArtSync = now
            guard arrivedCount > 0 else { return false }
            return finish()
        case .other:
            return false
        case .dmx(let dmx):
            let index = Int(dmx.portAddress) - firstUniverse
            guard index >= 0, index < universeCount else { return refuseUniverse() }
            place(index, d, dmx.data)
            // While ArtSync is heard, frames end with it; 4 s after the last one a frame is
            // complete again when every universe has come (Art-Net 4's fall-back).
            let synced = lastArtSync.map { now &- $0 < Self.artSyncHold } ?? false
            return !synced && arrivedCount == universeCount ? finish() : false
        }
    }

    private mutating func place(_ index: Int, _ d: UnsafeRawBufferPointer, _ range: Range<Int>) {
        let start = index * channelsPerUniverse
        let count = max(0, min(range.count, channelsPerUniverse, pixels.count - start))
        if count > 0 {
            pixels.withUnsafeMutableBytes { p in
                (p.baseAddress! + start).copyMemory(from: d.baseAddress! + range.lowerBound, byteCount: count)
            }
        }
        if !arrived[index] {
            arrived[index] = true
            arrivedCount += 1
        }
    }

    private mutating func finish() -> Bool {
        for i in arrived.indices { arrived[i] = false }
        arrivedCount = 0
        return true
    }
}
