/// How one UDP LED protocol turns a frame's LED bytes (R, G, B per LED, in LED order, after
/// colour correction) into datagrams. Plain Swift over reused buffers, so it is tested and
/// benchmarked without a network and allocates nothing per frame.
public protocol DatagramFramer: Sendable {
    /// `ddp`, `e131`, `artnet`.
    var kind: String { get }
    /// The universes whose multicast groups the datagrams go to, when the output multicasts;
    /// `emit`'s destination is an index into this list (0 when there is one destination).
    var groups: [UInt16] { get }
    /// Writes one frame's datagrams, handing each to `emit(datagram, destination)` in order.
    mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void)
    /// Writes what a receiver should hear when the output stops (E1.31's stream-terminated
    /// packets); nothing for most protocols.
    mutating func writeGoodbye(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void)
}

extension DatagramFramer {
    public var groups: [UInt16] { [] }

    public mutating func writeGoodbye(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {}
}
