import NIOCore
import SignControl
import Synchronization

/// The control socket's adapter over the control plane, for one connection: it frames
/// requests and responses and carries out one request at a time, so responses come in
/// request order and a request sees what the ones before it on the connection changed
/// (other connections are not held up: a change is prepared off the event loop). It stops
/// reading (back-pressure) while a client has many requests waiting or does not read its
/// responses. After the client half-closes, what it sent is still answered before the
/// connection closes.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = LineFrameDecoder.Frame
    typealias OutboundOut = ByteBuffer

    /// Requests of one connection waiting or being carried out before reading pauses.
    static let maxInFlight = 16
    /// How long a connection may go without a whole request (and without subscribing to
    /// events) before it is closed, so that idle or trickling clients cannot hold every slot.
    static let idleTimeout = TimeAmount.seconds(30)

    private let plane: ControlPlane
    private let idleTimeout: TimeAmount
    /// When the last whole request arrived (or the connection opened), on the loop's clock.
    private var lastRequest = NIODeadline.uptimeNanoseconds(0)
    private var idleCheck: RepeatedTask?
    /// Requests read but not yet carried out, in order, with their sequence numbers; a
    /// line that is not a request waits here as its error response.
    private var waiting = CircularBuffer<(sequence: Int, request: Result<Request, Request.Rejected>)>()
    private var running = false
    private var nextSequence = 0
    private var nextToWrite = 0
    private var inputClosed = false
    private var closing = false
    private var subscriber: ChannelSubscriber?

    init(plane: ControlPlane, idleTimeout: TimeAmount = ControlConnectionHandler.idleTimeout) {
        self.plane = plane
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lastRequest = context.eventLoop.now
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let period = TimeAmount.nanoseconds(max(idleTimeout.nanoseconds / 4, 1))
        idleCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
            let (handler, context) = bound.value
            handler.closeIfIdle(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
    }

    /// Closes a connection that has sent no whole request for the idle timeout, unless it
    /// is waiting for answers or for events.
    private func closeIfIdle(_ context: ChannelHandlerContext) {
        guard subscriber == nil, inFlight == 0, !closing, context.eventLoop.now - lastRequest >= idleTimeout else {
            return
        }
        closing = true
        let error = ControlError(
            .busy, "no request for \(idleTimeout.nanoseconds / 1_000_000_000) s; the connection is closed")
        var buffer = context.channel.allocator.buffer(capacity: 128)
        buffer.writeString(Response.failure(id: .null, error).line + "\n")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }

    private var inFlight: Int { nextSequence - nextToWrite }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .line(let line):
            if line.readableBytes == 0 { return }  // blank lines are ignored
            lastRequest = context.eventLoop.now
            let request = Result { () throws(Request.Rejected) in try Request(line: line.readableBytesView) }
            waiting.append((nextSequence, request))
            nextSequence += 1
            startNext(context)
            updateReading(context)
        case .tooLarge:
            let error = ControlError(
                .requestTooLarge, "a request line is limited to \(ControlMessage.maxRequestLength) bytes")
            waiting.append((nextSequence, .failure(Request.Rejected(id: .null, error: error))))
            nextSequence += 1
            closing = true
            startNext(context)
        }
    }

    /// Carries out the next waiting request, once the one before it has been answered.
    private func startNext(_ context: ChannelHandlerContext) {
        guard !running, let (sequence, next) = waiting.popFirst() else { return }
        let request: Request
        switch next {
        case .failure(let rejected):
            complete(sequence, Response.failure(id: rejected.id, rejected.error).line, context)
            return
        case .success(let r): request = r
        }
        if request.command is Request.Subscribe, subscriber == nil {
            subscriber = ChannelSubscriber(channel: context.channel)
        }
        running = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        plane.handle(request, from: .socket, subscriber: subscriber) { response in
            let line = response.line
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.running = false
                handler.complete(sequence, line, context)
            }
        }
    }

    /// Writes the response of request `sequence` (the oldest unanswered one) and starts the next.
    private func complete(_ sequence: Int, _ line: String, _ context: ChannelHandlerContext) {
        assert(sequence == nextToWrite)
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        nextToWrite += 1
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        startNext(context)
        updateReading(context)
        closeWhenAnswered(context)
    }

    /// Reads while few requests are in flight and the client reads its responses.
    private func updateReading(_ context: ChannelHandlerContext) {
        let read = context.channel.isWritable && inFlight < Self.maxInFlight && !closing
        context.channel.setOption(ChannelOptions.autoRead, value: read).whenFailure { _ in }
        if read { context.read() }
    }

    /// Closes once the input has ended (or a limit was broken) and every request is answered.
    private func closeWhenAnswered(_ context: ChannelHandlerContext) {
        guard (inputClosed || closing), inFlight == 0, subscriber == nil || closing else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            subscriber = nil
            closeWhenAnswered(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        updateReading(context)
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// A connection that subscribed to events. An event is written only while the client reads
/// what it is sent; one that falls behind by more than the channel's buffer (64 KiB) or by
/// more than `maxOutstanding` events the kernel has not taken is told so, if its socket can
/// still take the message, and closed at once, so a stalled subscriber never holds much
/// memory. (Waiting for that message to be read before closing meant waiting forever on a
/// client that never reads, with every later event's message piling up behind it. The
/// count matters as well as the bytes: a small event costs several times its text in
/// buffers, and at a few events a second 64 KiB of them takes tens of minutes to gather.)
final class ChannelSubscriber: EventSubscriber {
    /// Events written but not yet taken by the kernel before the subscriber is dropped.
    static let maxOutstanding = 64

    let channel: Channel
    private let limit: Int
    /// Set once the connection is being dropped: later events are not even looked at.
    private let dropped = Atomic<Bool>(false)
    /// Events handed to the channel whose write has not completed.
    private let outstanding = Atomic<Int>(0)

    init(channel: Channel, maxOutstanding: Int = ChannelSubscriber.maxOutstanding) {
        self.channel = channel
        self.limit = maxOutstanding
    }

    func deliver(_ event: ControlEvent) {
        guard !dropped.load(ordering: .relaxed) else { return }
        if channel.isWritable, outstanding.load(ordering: .relaxed) < limit {
            write(event.line)
        } else if dropped.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            let error = ControlError(.busy, "events came faster than they were read; the connection is closed")
            let channel = self.channel
            channel.eventLoop.execute {
                var buffer = channel.allocator.buffer(capacity: 128)
                buffer.writeString(Response.failure(id: .null, error).line + "\n")
                channel.writeAndFlush(buffer, promise: nil)
                channel.close(promise: nil)
            }
        }
    }

    private func write(_ line: String) {
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        outstanding.add(1, ordering: .relaxed)
        channel.writeAndFlush(buffer).whenComplete { [self] _ in
            self.outstanding.subtract(1, ordering: .relaxed)
        }
    }

    func whenGone(_ body: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in body() }
    }
}

/// Writes one answer to a connection as soon as it opens, then closes it: how both servers
/// turn away a connection over their limit.
final class AnswerAndClose: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let answer: String

    init(_ answer: String) { self.answer = answer }

    /// The control socket's: a `busy` response line.
    static func socketBusy(limit: Int) -> AnswerAndClose {
        AnswerAndClose(
            Response.failure(id: .null, ControlError(.busy, "too many clients: at most \(limit) at once")).line + "\n")
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: answer.utf8.count)
        buffer.writeString(answer)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
