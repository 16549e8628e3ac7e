import NIOCore
import NIOWebSocket
import SignOutput

/// The `/api/live` WebSocket viewers, and the one timer that sends them the newest frame at
/// most `preview.fps` times a second (docs/contracts.md, "The web API"): each message is `"SGF1"`, the
/// width and height (u16 LE), the frame number (u64 LE), then the RGB888 rows.
///
/// A frame is encoded once for all viewers. A viewer whose last frame has not yet gone out
/// to its socket is skipped, so a slow one gets the newest frame when it is ready again and
/// never a backlog, and one that never reads holds one frame's bytes at most. Everything
/// here runs on the web server's event loop.
final class LiveViewers {
    /// A WebSocket message's bytes before the pixels.
    static let headerSize = 16

    private let live: LiveFrame
    private let eventLoop: any EventLoop
    private let interval: TimeAmount
    private var viewers: [ObjectIdentifier: Viewer] = [:]
    private var timer: RepeatedTask?
    /// The newest frame's mark (`LiveFrame.newestMark`) when it was last sent.
    private var sentMark: UInt64 = 0
    /// Told the number of viewers whenever it changes (for `status`, read off the loop).
    private let counted: @Sendable (Int) -> Void

    private final class Viewer {
        let channel: Channel
        /// Whether a frame written to it has not yet gone out.
        var busy = false
        init(channel: Channel) { self.channel = channel }
    }

    init(live: LiveFrame, eventLoop: any EventLoop, fps: Double, counted: @escaping @Sendable (Int) -> Void = { _ in })
    {
        self.live = live
        self.counted = counted
        self.eventLoop = eventLoop
        self.interval = .nanoseconds(Int64(1e9 / min(max(fps, 1), 120)))
    }

    /// Starts sending to `channel` (a WebSocket), until it closes.
    func add(_ channel: Channel) {
        eventLoop.preconditionInEventLoop()
        viewers[ObjectIdentifier(channel)] = Viewer(channel: channel)
        counted(viewers.count)
        sentMark = 0  // the new viewer needs a picture now, even of a board that holds still
        if timer == nil {
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            timer = eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { _ in
                bound.value.tick()
            }
        }
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        channel.closeFuture.whenComplete { _ in
            bound.eventLoop.execute { bound.value.remove(channel) }
        }
    }

    private func remove(_ channel: Channel) {
        viewers[ObjectIdentifier(channel)] = nil
        counted(viewers.count)
        if viewers.isEmpty {
            timer?.cancel()
            timer = nil
        }
    }

    /// Sends the newest frame to every viewer ready for one, if it is newer than the last sent.
    private func tick() {
        let mark = live.newestMark
        guard mark != 0, mark != sentMark, viewers.values.contains(where: { !$0.busy }) else { return }
        guard let message = encodeNewest() else { return }
        sentMark = mark
        for viewer in viewers.values where !viewer.busy && viewer.channel.isActive {
            viewer.busy = true
            let frame = WebSocketFrame(fin: true, opcode: .binary, data: message)
            viewer.channel.writeAndFlush(frame).whenComplete { _ in viewer.busy = false }
        }
    }

    /// The newest frame as one message, copied straight from the live frame's storage.
    private func encodeNewest() -> ByteBuffer? {
        live.withLatest { frame, number -> ByteBuffer? in
            guard let frame else { return nil }
            var buffer = ByteBufferAllocator().buffer(capacity: Self.headerSize + frame.pixels.count)
            Self.writeHeader(width: frame.width, height: frame.height, number: number, into: &buffer)
            frame.pixels.withUnsafeBytes { _ = buffer.writeBytes($0) }
            return buffer
        }
    }

    /// Writes a message's header: `"SGF1"`, width, height, frame number, little-endian.
    static func writeHeader(width: Int, height: Int, number: UInt64, into buffer: inout ByteBuffer) {
        buffer.writeString("SGF1")
        buffer.writeInteger(UInt16(clamping: width), endianness: .little)
        buffer.writeInteger(UInt16(clamping: height), endianness: .little)
        buffer.writeInteger(number, endianness: .little)
    }

    /// Closes every viewer (the server is stopping).
    func closeAll() {
        for viewer in viewers.values { viewer.channel.close(promise: nil) }
    }
}

/// A live viewer's WebSocket handlers after NIO's decoder and protocol error handler (which
/// fail oversized and fragmented control frames): these frame rules, NIO's aggregator (which
/// fails a fragment out of sequence) and the viewer's end. A frame RFC 6455 forbids fails
/// the connection with close 1002 (1009 for a message over 1024 bytes).
func liveViewerHandlers() -> [ChannelHandler] {
    [
        WebSocketFrameRules(),
        NIOWebSocketFrameAggregator(
            minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 16, maxAccumulatedFrameSize: 1024),
        LiveViewerHandler(),
    ]
}

/// Fails a viewer's WebSocket on a frame RFC 6455 forbids that NIO's decoder lets through:
/// not masked (5.1), a reserved bit set without an extension that defines it (signd agrees
/// none) or a reserved opcode (5.2). Before the aggregator, which unmasks what it joins.
final class WebSocketFrameRules: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var failed = false

    /// Whether a client's frame breaks those rules.
    static func breaksProtocol(_ frame: WebSocketFrame) -> Bool {
        let known: [WebSocketOpcode] = [.continuation, .text, .binary, .connectionClose, .ping, .pong]
        return frame.maskKey == nil || frame.rsv1 || frame.rsv2 || frame.rsv3 || !known.contains(frame.opcode)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        guard !Self.breaksProtocol(unwrapInboundIn(data)) else {
            failed = true
            return LiveViewerHandler.close(context, code: .protocolError)
        }
        context.fireChannelRead(data)
    }
}

/// A live viewer's end of the WebSocket: answers pings, closes on a close frame, and ignores
/// anything else a viewer sends (it has nothing to say).
final class LiveViewerHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !closing else { return }
        switch frame.opcode {
        case .ping:
            var payload = frame.unmaskedData
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: payload.readSlice(length: payload.readableBytes)!)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            closing = true
            Self.close(context, code: .normalClosure)
        default:
            break
        }
    }

    /// Sends a close frame with `code`, then closes the connection.
    static func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        context.writeAndFlush(NIOAny(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The idle timer is for HTTP requests; a viewer only listens.
        if event is IdleStateHandler.IdleStateEvent { return }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // NIO's protocol error handler answers its decoder's errors with a close frame and
        // closes once that is written; its aggregator's are answered here; anything else
        // closes at once.
        if error is NIOWebSocketError { return }
        if let error = error as? NIOWebSocketFrameAggregator.Error, !closing {
            closing = true
            return Self.close(
                context, code: error == .accumulatedFrameSizeIsTooLarge ? .messageTooLarge : .protocolError)
        }
        context.close(promise: nil)
    }
}
