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
    private var packet: [UInt8] = []

    /// `channelsPerUniverse` is rounded down to whole pixels (a pixel is never split).
    public init(firstPortAddress: UInt16, channelsPerUniverse: Int = 510, sync: Bool = false) {
        self.firstPortAddress = firstPortAddress
        self.channelsPerUniverse = max(3, min(channelsPerUniverse, ArtNet.maxChannels) / 3 * 3)
        self.sync = sync
        packet.reserveCapacity(ArtNet.dmxHeaderSize + ArtNet.maxChannels)
    }

    /// Universes a frame of `ledCount` LEDs takes.
    public func universeCount(ledCount: Int) -> Int { max(1, (ledCount * 3 + channelsPerUniverse - 1) / channelsPerUniverse) }

    public mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        sequence = sequence == 255 ? 1 : sequence + 1
        for u in 0..<universeCount(ledCount: leds.count / 3) {
            let start = min(u * channelsPerUniverse, leds.count)
            let end = min(start + channelsPerUniverse, leds.count)
            let address = UInt16(min(Int(firstPortAddress) + u, Int(ArtNet.maxPortAddress)))
            ArtNet.writeDmx(
                portAddress: address, sequence: sequence, channels: UnsafeRawBufferPointer(rebasing: leds[start..<end]),
                into: &packet)
            packet.withUnsafeBytes { emit($0, 0) }
        }
        if sync {
            ArtNet.writeSync(into: &packet)
            packet.withUnsafeBytes { emit($0, 0) }
        }
    }
}
