/// Open Pixel Control (TCP 7890): messages of channel (0 = every channel), command (0 = RGB
/// pixels), a 16-bit big-endian length and that many data bytes, back to back on one stream.
public enum OPC {
    public static let port: UInt16 = 7890
    public static let headerSize = 4
    public static let setPixels: UInt8 = 0
    public static let systemExclusive: UInt8 = 255
    /// The most data one message carries.
    public static let maxData = 65535

    /// A message's fields.
    public struct Message: Sendable, Equatable {
        public var channel: UInt8
        public var command: UInt8
        /// Where the data lies in the buffer read.
        public var data: Range<Int>
    }

    /// Writes a set-pixels header for `count` data bytes (at most `maxData`) into the start
    /// of `p`; the pixels go after it.
    public static func writeHeader(channel: UInt8, count: Int, into p: UnsafeMutableRawBufferPointer) {
        p[0] = channel
        p[1] = setPixels
        p.put(UInt16(min(count, maxData)), at: 2)
    }

    /// Writes a set-pixels message for `channel` into `message`, resized in place.
    public static func writePixels(channel: UInt8, pixels: UnsafeRawBufferPointer, into message: inout [UInt8]) {
        let count = min(pixels.count, maxData)
        message.removeAll(keepingCapacity: true)
        message.append(contentsOf: repeatElement(0, count: headerSize + count))
        message.withUnsafeMutableBytes { p in
            p[0] = channel
            p[1] = setPixels
            p.put(UInt16(count), at: 2)
            if count > 0 { (p.baseAddress! + headerSize).copyMemory(from: pixels.baseAddress!, byteCount: count) }
        }
    }

    /// The first whole message at the start of `stream` and how many bytes it takes; `nil`
    /// while more bytes are needed.
    public static func next(in stream: UnsafeRawBufferPointer) -> (message: Message, length: Int)? {
        guard stream.count >= headerSize else { return nil }
        let length = Int(stream.u16(2))
        guard stream.count >= headerSize + length else { return nil }
        return (
            Message(channel: stream[0], command: stream[1], data: headerSize..<(headerSize + length)),
            headerSize + length
        )
    }
}
