/// The Enttec DMX USB Pro's API over its FTDI serial port: a message is the start byte
/// 0x7E, a label, the data length (little-endian u16), the data and the end byte 0xE7.
/// Label 6, "Output Only Send DMX Packet Request", carries the DMX start code (0) and 24 to
/// 512 channels, which the widget sends out of its DMX port until the next such message.
public enum EnttecDMXUSBPro {
    public static let startByte: UInt8 = 0x7e
    public static let endByte: UInt8 = 0xe7
    /// Label 6: output only, send DMX packet.
    public static let sendDMXLabel: UInt8 = 6
    /// The fewest and most channels a label 6 message carries.
    public static let channelRange = 24...512

    /// Writes a label 6 message of `channels` DMX channels into `out` (reusing its storage):
    /// the LEDs' R, G, B bytes from channel `startChannel` (1-based) on, every other channel
    /// 0. LED bytes that would pass the last channel are left out.
    public static func encodeSendDMX(_ rgb: [UInt8], channels: Int, startChannel: Int, into out: inout [UInt8]) {
        encodeSendDMX(bytes: rgb.count, channels: channels, startChannel: startChannel, into: &out) { buffer in
            rgb.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: buffer.count) }
        }
    }

    /// The same message for a frame of `bytes` LED bytes: `fill` writes the first of them
    /// (as many as the channels take, `buffer.count`) in place.
    public static func encodeSendDMX(
        bytes: Int, channels: Int, startChannel: Int, into out: inout [UInt8],
        fill: (_ buffer: UnsafeMutableRawBufferPointer) -> Void
    ) {
        let length = channels + 1
        let size = 4 + length + 1
        if out.count != size { out = [UInt8](repeating: 0, count: size) }
        out.withUnsafeMutableBytes { o in
            o[0] = startByte
            o[1] = sendDMXLabel
            o[2] = UInt8(truncatingIfNeeded: length)
            o[3] = UInt8(truncatingIfNeeded: length >> 8)
            o[4] = 0  // the DMX start code: dimmer data
            let first = 5 + startChannel - 1
            let copied = max(0, min(bytes, channels - (startChannel - 1)))
            for i in 5..<first { o[i] = 0 }
            if copied > 0 { fill(UnsafeMutableRawBufferPointer(rebasing: o[first..<first + copied])) }
            for i in (first + copied)..<(size - 1) { o[i] = 0 }
            o[size - 1] = endByte
        }
    }
}
