import NIOCore
import SignControl

/// Answers the requests of one control connection, in order. A client that does not read
/// its responses stops being read from (back-pressure) rather than growing a buffer.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = LineFrameDecoder.Frame
    typealias OutboundOut = ByteBuffer

    private let commands: CommandHandler

    init(commands: CommandHandler) {
        self.commands = commands
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .line(let line):
            if line.readableBytes == 0 { return }  // blank lines are ignored
            write(commands.respond(to: line.readableBytesView, channel: context.channel), context)
        case .tooLarge:
            let error = ControlError(
                .requestTooLarge, "a request line is limited to \(ControlMessage.maxRequestLength) bytes")
            write(ControlMessage.failure(id: .null, error), context)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.channel.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func write(_ response: String, _ context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: response.utf8.count + 1)
        buffer.writeString(response)
        buffer.writeInteger(UInt8(ascii: "\n"))
        context.write(wrapOutboundOut(buffer), promise: nil)
    }
}

/// Tells a connection over the client limit that the server is busy, then closes it.
final class BusyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func channelActive(context: ChannelHandlerContext) {
        let line =
            ControlMessage.failure(id: .null, ControlError(.busy, "too many clients: at most \(limit) at once")) + "\n"
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count)
        buffer.writeString(line)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
