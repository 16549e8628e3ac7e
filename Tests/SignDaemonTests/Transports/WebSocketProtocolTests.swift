import NIOCore
import NIOEmbedded
import NIOHTTP1
import SignControl
import SignGraphics
import SignOutput
import SignScene
import Testing

@testable import SignDaemon

/// The web server's connection pipeline without a socket: bytes in through an embedded
/// channel, bytes out, for what RFC 6455 says a server must do with a client's frames.
@Suite("WebSocket protocol")
struct WebSocketProtocolTests {
    static let fonts = try! FontLibrary()

    /// A connected channel with the web server's handlers (no token: Host must be loopback).
    static func channel(place: WebPlaces.Place = WebPlaces.Place(address: "127.0.0.1", openedAt: 0, channel: nil))
        throws -> EmbeddedChannel
    {
        let scene = Scene(width: 8, height: 4, layers: [TextLayer(id: "main", text: "x")])
        let plane = ControlPlane(
            store: try SceneStore(config: scene, fonts: fonts), clock: FrameClock(fps: 60) { _ in }, startedAt: 0)
        let live = LiveFrame()
        let service = WebService(plane: plane, auth: WebAuth(token: nil), live: live, files: [:], now: { 0 })
        let channel = EmbeddedChannel()
        let viewers = NIOLoopBoundBox.makeBoxSendingValue(
            LiveViewers(live: live, eventLoop: channel.eventLoop, fps: 30), as: LiveViewers.self,
            eventLoop: channel.eventLoop)
        try WebServer.configure(channel, service: service, viewers: viewers, place: place)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40000)).wait()
        return channel
    }

    static let upgrade =
        "GET /api/live HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    /// Everything written to the client so far.
    static func written(_ channel: EmbeddedChannel) throws -> [UInt8] {
        channel.embeddedEventLoop.run()
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readableBytesView
        }
        return bytes
    }

    static func send(_ channel: EmbeddedChannel, _ bytes: [UInt8]) {
        // A pipeline that fails the connection may also report the error here; what was
        // written and whether the channel is open are what the tests look at.
        _ = try? channel.writeInbound(channel.allocator.buffer(bytes: bytes))
        channel.embeddedEventLoop.run()
    }

    /// An upgraded viewer's channel, its 101 read; its place is a viewer's, trusted.
    static func viewer() throws -> EmbeddedChannel {
        let place = WebPlaces.Place(address: "127.0.0.1", openedAt: 0, channel: nil)
        let channel = try channel(place: place)
        send(channel, Array(upgrade.utf8))
        let answer = String(decoding: try written(channel), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 101"), "\(answer)")
        #expect(place.phase == .viewer && place.trusted)
        return channel
    }

    static let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    /// A close frame with code 1002 (protocol error), as a server sends it: unmasked.
    static let protocolErrorClose: [UInt8] = [0x88, 0x02, 0x03, 0xEA]

    @Test("a masked ping is answered with a pong, a message in two fragments is taken, and the viewer stays")
    func maskedPing() throws {
        let channel = try Self.viewer()
        Self.send(channel, [0x89, 0x80] + Self.mask)
        #expect(try Self.written(channel) == [0x8A, 0x00])
        Self.send(channel, [0x02, 0x81] + Self.mask + [0x00, 0x80, 0x81] + Self.mask + [0x00])
        #expect(try Self.written(channel) == [])
        #expect(channel.isActive)
        _ = try? channel.finish()
    }

    @Test(
        "an unmasked frame, a reserved opcode (data or control) or a reserved bit fails the connection: close 1002, then closed",
        arguments: [
            [0x89, 0x00],  // ping, unmasked
            [0x82, 0x01, 0x00],  // binary, unmasked
            [0x83, 0x80] + mask,  // opcode 3: reserved data
            [0x8B, 0x80] + mask,  // opcode 0xB: reserved control
            [0xC2, 0x80] + mask,  // RSV1 on a binary frame (no extension was agreed)
            [0xA2, 0x80] + mask,  // RSV2
            [0x92, 0x80] + mask,  // RSV3
            [0x80, 0x80] + mask,  // a continuation with nothing to continue (NIO's aggregator)
            // A new message before the last one ended (NIO's aggregator).
            [0x02, 0x81] + mask + [0x00, 0x82, 0x80] + mask,
            [0x09, 0x80] + mask,  // a ping in fragments (NIO's decoder)
            [0x89, 0xFE, 0x00, 0x7E] + mask + [UInt8](repeating: 0, count: 126),  // a 126-byte ping (NIO's decoder)
        ] as [[UInt8]])
    func protocolErrors(frame: [UInt8]) throws {
        let channel = try Self.viewer()
        Self.send(channel, frame)
        #expect(try Self.written(channel) == Self.protocolErrorClose, "\(frame)")
        #expect(!channel.isActive, "\(frame)")
        _ = try? channel.finish()
    }

    @Test("a message over 1024 bytes in fragments fails the connection with close 1009")
    func messageTooLarge() throws {
        let channel = try Self.viewer()
        let fragment = [UInt8](repeating: 0, count: 600)
        Self.send(
            channel, [0x02, 0xFE, 0x02, 0x58] + Self.mask + fragment + [0x80, 0xFE, 0x02, 0x58] + Self.mask + fragment)
        #expect(try Self.written(channel) == [0x88, 0x02, 0x03, 0xF1])
        #expect(!channel.isActive)
        _ = try? channel.finish()
    }

    @Test("only a GET is upgraded: a POST asking for the WebSocket is answered 405 and stays HTTP")
    func postIsNotUpgraded() throws {
        let channel = try Self.channel()
        let post = Self.upgrade.replacingOccurrences(of: "GET /api/live", with: "POST /api/live")
            .replacingOccurrences(of: "\r\n\r\n", with: "\r\nContent-Length: 0\r\n\r\n")
        Self.send(channel, Array(post.utf8))
        let answer = String(decoding: try Self.written(channel), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer)")
        #expect(!answer.lowercased().contains("sec-websocket-accept"))
        _ = try? channel.finish()
    }
}
