import SignGraphics

/// How one UDP LED protocol turns a frame's LED bytes (three per LED, in LED order, after
/// colour correction) into datagrams. Plain Swift over reused buffers, so it is tested and
/// benchmarked without a network and allocates nothing per frame.
public protocol DatagramFramer: Sendable {
    /// `ddp`, `e131`, `artnet`.
    var kind: String { get }
    /// The universes whose multicast groups the datagrams go to, when the output multicasts;
    /// `emit`'s destination is an index into this list (0 when there is one destination).
    var groups: [UInt16] { get }
    /// The order the datagrams carry each LED's colour bytes in (`fill` writes them so).
    var order: ColourOrder { get }
    /// Writes one frame of `byteCount` LED bytes as datagrams, handing each to
    /// `emit(datagram, destination)` in order. Each datagram's LED bytes are asked of `fill`
    /// (bytes `offset ..< offset + buffer.count` of the frame, into `buffer`, which lies in
    /// the datagram) just before it is emitted; offsets and counts are whole LEDs.
    mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void)
    /// Writes what a receiver should hear when the output stops (E1.31's stream-terminated
    /// packets, with the last frame's bytes); nothing for most protocols.
    mutating func writeGoodbye(emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void)
}

extension DatagramFramer {
    public var groups: [UInt16] { [] }

    public var order: ColourOrder { .rgb }

    public mutating func writeGoodbye(emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void) {}

    /// `writeFrame` from the frame's LED bytes in R, G, B order, copied (and reordered to
    /// `order`) into each datagram.
    public mutating func writeFrame(
        _ leds: UnsafeRawBufferPointer, emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        let order = order
        writeFrame(
            byteCount: leds.count,
            fill: { offset, buffer in
                guard buffer.count > 0 else { return }
                if order == .rgb {
                    buffer.baseAddress!.copyMemory(from: leds.baseAddress! + offset, byteCount: buffer.count)
                    return
                }
                var i = 0
                while i + 2 < buffer.count {
                    buffer[i] = leds[offset + i + order.first]
                    buffer[i + 1] = leds[offset + i + order.second]
                    buffer[i + 2] = leds[offset + i + order.third]
                    i += 3
                }
            }, emit: emit)
    }
}

extension DatagramFramer {
    /// One frame straight from `frame` through `pipeline` (in this framer's `order`) into
    /// the datagrams: each datagram's LEDs are corrected and dithered into it, with no
    /// copy of the frame's bytes between.
    public mutating func writeFrame(
        _ frame: Frame, scale: UInt32, through pipeline: inout LEDPipeline,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        precondition(pipeline.order == order, "the pipeline writes another channel order than the datagrams carry")
        let byteCount = pipeline.colourByteCount
        pipeline.withPass(frame, scale: scale) { pass in
            writeFrame(
                byteCount: byteCount,
                fill: { offset, buffer in
                    guard buffer.count > 0 else { return }
                    assert(offset % 3 == 0 && buffer.count % 3 == 0, "datagrams split no LED")
                    pass.colour(leds: offset / 3..<(offset + buffer.count) / 3, into: buffer.baseAddress!)
                }, emit: emit)
        }
    }
}
