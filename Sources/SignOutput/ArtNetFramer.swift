import SignWire

/// Art-Net: one ArtDmx per universe of `channelsPerUniverse` channels (whole pixels),
/// numbered from `firstPortAddress`, one sequence (1 to 255) per frame, then an ArtSync
/// when asked for.
public struct ArtNetFramer: DatagramFramer {
    public let kind = "artnet"
    public let firstPortAddress: UInt16
    public let channelsPerUniverse: Int
    public let sync: Bool
    private var sequence: UInt8 = 0
    /// One ArtDmx's room, reused for each: the header, then the channels filled in place.
    private var packet = [UInt8](repeating: 0, count: ArtNet.dmxHeaderSize + ArtNet.maxChannels)
    private var syncPacket: [UInt8] = []

    /// `channelsPerUniverse` is rounded down to whole pixels (a pixel is never split).
    public init(firstPortAddress: UInt16, channelsPerUniverse: Int = 510, sync: Bool = false) {
        self.firstPortAddress = firstPortAddress
        self.channelsPerUniverse = max(3, min(channelsPerUniverse, ArtNet.maxChannels) / 3 * 3)
        self.sync = sync
        ArtNet.writeSync(into: &syncPacket)
    }

    /// Universes a frame of `ledCount` LEDs takes.
    public func universeCount(ledCount: Int) -> Int { max(1, (ledCount * 3 + channelsPerUniverse - 1) / channelsPerUniverse) }

    public mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        sequence = sequence == 255 ? 1 : sequence + 1
        let (sequence, channels, first) = (sequence, channelsPerUniverse, Int(firstPortAddress))
        let header = ArtNet.dmxHeaderSize
        let universes = universeCount(ledCount: byteCount / 3)
        packet.withUnsafeMutableBytes { p in
            for u in 0..<universes {
                let start = min(u * channels, byteCount)
                let count = min(start + channels, byteCount) - start
                let length = ArtNet.dmxLength(channels: count)
                let address = UInt16(min(first + u, Int(ArtNet.maxPortAddress)))
                ArtNet.writeDmxHeader(portAddress: address, sequence: sequence, channels: count, into: p)
                fill(start, UnsafeMutableRawBufferPointer(rebasing: p[header..<header + count]))
                // The padding to an even length.
                for i in header + count..<header + length { p[i] = 0 }
                emit(UnsafeRawBufferPointer(rebasing: p[0..<header + length]), 0)
            }
        }
        if sync { syncPacket.withUnsafeBytes { emit($0, 0) } }
    }
}
