import SignWire

/// DDP: the frame in packets of 480 pixels at their byte offsets, push on the last, one
/// sequence number (1 to 15) per frame.
public struct DDPFramer: DatagramFramer {
    public let kind = "ddp"
    private var sequence: UInt8 = 0
    private var packet: [UInt8] = []

    public init() {
        packet.reserveCapacity(DDP.headerSize + DDP.maxDataPerPacket)
    }

    public mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        sequence = sequence % 15 + 1
        for index in 0..<DDP.packetCount(frameBytes: leds.count) {
            DDP.writePacket(index, of: leds, sequence: sequence, into: &packet)
            packet.withUnsafeBytes { emit($0, 0) }
        }
    }
}
