import NIOCore
import NIOEmbedded
import SignControl
import SignGraphics
import SignScene
import Testing

@testable import SignDaemon

/// The socket adapter without a socket: bytes in through an embedded channel, response lines out.
@Suite("ControlConnection")
struct ControlConnectionTests {
    static let fonts = try! FontLibrary()

    static func plane() throws -> ControlPlane {
        let scene = Scene(width: 64, height: 16, layers: [TextLayer(id: "main", text: "Now Playing")])
        return ControlPlane(
            store: try SceneStore(config: scene, fonts: fonts), clock: FrameClock(fps: 60) { _ in }, startedAt: 0)
    }

    /// A connected (active) channel with the socket's handlers.
    static func channel(_ plane: ControlPlane, idleTimeout: TimeAmount = .seconds(30)) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(ControlConnectionHandler(plane: plane, idleTimeout: idleTimeout))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/control.sock")).wait()
        #expect(channel.isActive)
        return channel
    }

    /// Every response line written so far, as JSON.
    static func responses(_ channel: EmbeddedChannel) throws -> [JSONValue] {
        channel.embeddedEventLoop.run()
        var lines: [JSONValue] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            for line in buffer.readableBytesView.split(separator: UInt8(ascii: "\n")) {
                lines.append(try JSONValue.parse(Array(line)))
            }
        }
        return lines
    }

    @Test("a request fed one byte at a time is answered once, when its newline arrives")
    func byteAtATime() throws {
        let channel = try Self.channel(try Self.plane())
        for byte in Array(#"{"id": 1, "cmd": "ping"}"#.utf8) {
            try channel.writeInbound(channel.allocator.buffer(bytes: [byte]))
            #expect(try Self.responses(channel).isEmpty)
        }
        try channel.writeInbound(channel.allocator.buffer(bytes: [UInt8(ascii: "\r"), UInt8(ascii: "\n")]))
        #expect(try Self.responses(channel) == [["id": 1, "ok": true, "result": [:]]])
    }

    @Test("a bad line gets its error, blank lines (a lone \\r too) get none, and the connection goes on")
    func badLine() throws {
        let channel = try Self.channel(try Self.plane())
        try channel.writeInbound(
            channel.allocator.buffer(string: "nonsense\n\n\r\n{\"id\": 2, \"cmd\": \"ping\"}\n"))
        let r = try Self.responses(channel)
        #expect(r.count == 2)
        #expect(r.first?["error"]?["code"] == "bad-request")
        #expect(r.last?["id"] == 2)
    }

    @Test("a line over 64 KiB is answered request-too-large, then the connection closes")
    func tooLarge() throws {
        let channel = try Self.channel(try Self.plane())
        try channel.writeInbound(
            channel.allocator.buffer(
                bytes: [UInt8](repeating: UInt8(ascii: "x"), count: ControlMessage.maxRequestLength + 1)))
        let r = try Self.responses(channel)
        #expect(r.map { $0["error"]?["code"] } == ["request-too-large"])
        #expect(!channel.isActive)
    }

    @Test("a last request without its newline, then a half-close, is answered before the connection closes")
    func halfClose() throws {
        let channel = try Self.channel(try Self.plane())
        try channel.writeInbound(
            channel.allocator.buffer(string: #"{"id": 1, "cmd": "ping"}"# + "\n" + #"{"id": 2, "cmd": "status"}"#))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        let r = try Self.responses(channel)
        #expect(r.map { $0["id"] } == [1, 2])
        #expect(r.last?["result"]?["text"] == "Now Playing")
        #expect(!channel.isActive)
    }

    @Test("pipelined requests are answered in request order, a slow change before quick reads included")
    func orderAcrossLanes() async throws {
        let plane = try Self.plane()
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
            try channel.pipeline.syncOperations.addHandler(ControlConnectionHandler(plane: plane))
        }
        let long = String(repeating: "Now Playing ", count: 600)
        var batch = Request(id: 0, Request.SetText(text: long)).line + "\n"
        for id in 1...10 {
            batch += Request(id: .int(Int64(id)), id % 2 == 0 ? Request.Ping() : Request.Status()).line + "\n"
        }
        batch += Request(id: 11, Request.SetText(text: "Last")).line + "\n"
        batch += Request(id: 12, Request.Status()).line + "\n"
        try await channel.writeInbound(channel.allocator.buffer(string: batch))
        var ids: [JSONValue] = []
        var last: JSONValue = .null
        while ids.count < 13 {
            let buffer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
            for line in buffer.readableBytesView.split(separator: UInt8(ascii: "\n")) {
                last = try JSONValue.parse(Array(line))
                ids.append(last["id"] ?? .null)
            }
        }
        #expect(ids == (0...12).map { .int(Int64($0)) })
        // The status after the last change saw it: changes and reads keep their order too.
        #expect(last["result"]?["text"] == "Last")
        _ = try await channel.finish()
    }

    @Test("a connection that sends no whole request for the idle timeout is told so and closed; a subscriber is not")
    func idleTimeout() throws {
        let plane = try Self.plane()
        let idle = try Self.channel(plane)
        // A byte now and then is no request.
        for _ in 0..<5 {
            try idle.writeInbound(idle.allocator.buffer(string: "{"))
            idle.embeddedEventLoop.advanceTime(by: .seconds(7))
        }
        let r = try Self.responses(idle)
        #expect(r.map { $0["error"]?["code"] } == ["busy"])
        #expect(!idle.isActive)

        let subscribed = try Self.channel(plane)
        try subscribed.writeInbound(subscribed.allocator.buffer(string: #"{"cmd": "subscribe"}"# + "\n"))
        subscribed.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(try Self.responses(subscribed).map { $0["ok"] } == [true])
        #expect(subscribed.isActive)
    }

    @Test("a subscriber that stops reading is told it fell behind and is closed, not buffered for")
    func stalledSubscriber() throws {
        let plane = try Self.plane()
        let channel = try Self.channel(plane)
        try channel.writeInbound(channel.allocator.buffer(string: #"{"cmd": "subscribe"}"# + "\n"))
        #expect(try Self.responses(channel).map { $0["ok"] } == [true])
        plane.events.publish(ControlEvent(.loopEnd, ["layer": "main"]))
        #expect(try Self.responses(channel).map { $0["event"] } == ["loop-end"])
        // The client stops reading: its socket buffer fills and the channel stops being writable.
        channel.isWritable = false
        for _ in 0..<1000 { plane.events.publish(ControlEvent(.loopEnd, ["layer": "main"])) }
        let r = try Self.responses(channel)
        #expect(r.filter { $0["event"] != nil }.isEmpty, "nothing is queued for a subscriber that does not read")
        #expect(r.contains { $0["error"]?["code"] == "busy" })
        #expect(!channel.isActive)
        #expect(!plane.events.wants(.loopEnd), "a closed subscriber is forgotten")
    }

    /// Holds every write without completing it, as a socket whose kernel buffer is full
    /// would, while the channel still says it is writable (its byte limit not reached).
    final class HeldWrites: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            held.append((unwrapOutboundIn(data), promise))
        }
        func flush(context: ChannelHandlerContext) {}
    }

    @Test("a subscriber is dropped once 64 events wait unwritten, though their bytes are under the channel's limit")
    func outstandingEventsLimit() throws {
        let plane = try Self.plane()
        let channel = EmbeddedChannel()
        let held = HeldWrites()
        try channel.pipeline.syncOperations.addHandler(held)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/control.sock")).wait()
        let subscriber = ChannelSubscriber(channel: channel)
        for _ in 0..<1000 { subscriber.deliver(ControlEvent(.loopEnd, ["layer": "main"])) }
        channel.embeddedEventLoop.run()
        #expect(channel.isWritable, "the byte limit was not what dropped it")
        let events = held.held.filter { String(buffer: $0.0).contains("loop-end") }
        #expect(events.count == ChannelSubscriber.maxOutstanding)
        #expect(held.held.last.map { String(buffer: $0.0).contains("busy") } == true)

        // Once the kernel takes what waited, a subscriber under the limit goes on.
        let channel2 = EmbeddedChannel()
        let held2 = HeldWrites()
        try channel2.pipeline.syncOperations.addHandler(held2)
        try channel2.connect(to: SocketAddress(unixDomainSocketPath: "/control.sock")).wait()
        let reader = ChannelSubscriber(channel: channel2)
        for _ in 0..<10 {
            for _ in 0..<50 { reader.deliver(ControlEvent(.loopEnd, ["layer": "main"])) }
            channel2.embeddedEventLoop.run()
            for (_, promise) in held2.held { promise?.succeed() }
            held2.held.removeAll()
            channel2.embeddedEventLoop.run()
        }
        #expect(channel2.isActive)
    }
}
