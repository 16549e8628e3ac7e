import NIOCore
import SignControl

/// Splits the control stream into request lines. A line longer than the limit is reported
/// once as `.tooLarge` and everything after it is discarded (the connection is closing).
public final class LineFrameDecoder: ByteToMessageDecoder {
    /// A request line, or the news that one was over the limit.
    public enum Frame {
        case line(ByteBuffer)
        case tooLarge
    }
    public typealias InboundOut = Frame

    private let maxLength: Int
    private var scanned = 0
    private var discarding = false

    public init(maxLength: Int = ControlMessage.maxRequestLength) {
        self.maxLength = maxLength
    }

    public func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if discarding {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let view = buffer.readableBytesView
        // Only look at bytes not searched before, so a slowly arriving long line costs O(n).
        if let newline = view.dropFirst(scanned).firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            scanned = 0
            guard length <= maxLength else { return tooLarge(context, &buffer) }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        scanned = view.count
        if view.count > maxLength { return tooLarge(context, &buffer) }
        return .needMoreData
    }

    public func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last request without its newline is still a request.
        if !discarding, buffer.readableBytes > 0, let line = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        return .needMoreData
    }

    private func tooLarge(_ context: ChannelHandlerContext, _ buffer: inout ByteBuffer) -> DecodingState {
        discarding = true
        buffer.moveReaderIndex(to: buffer.writerIndex)
        context.fireChannelRead(wrapInboundOut(.tooLarge))
        return .needMoreData
    }
}
