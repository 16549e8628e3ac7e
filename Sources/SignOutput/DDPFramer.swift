import SignWire

/// DDP: the frame in packets of 480 pixels at their byte offsets, push on the last, one
/// sequence number (1 to 15) per frame.
public struct DDPFramer: DatagramFramer {
    public let kind = "ddp"
    private var sequence: UInt8 = 0
    /// One packet's room, reused for each: the header, then the LED bytes filled in place.
    private var packet = [UInt8](repeating: 0, count: DDP.headerSize + DDP.maxDataPerPacket)

    public init() {}

    public mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        sequence = sequence % 15 + 1
        let sequence = sequence
        packet.withUnsafeMutableBytes { p in
            for index in 0..<DDP.packetCount(frameBytes: byteCount) {
                let (start, count) = DDP.writeHeader(index, frameBytes: byteCount, sequence: sequence, into: p)
                fill(start, UnsafeMutableRawBufferPointer(rebasing: p[DDP.headerSize..<DDP.headerSize + count]))
                emit(UnsafeRawBufferPointer(rebasing: p[0..<DDP.headerSize + count]), 0)
            }
        }
    }
}
