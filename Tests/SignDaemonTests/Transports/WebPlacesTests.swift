import NIOCore
import NIOEmbedded
import SignGraphics
import SignOutput
import SignScene
import Testing

@testable import SignDaemon

/// Who holds the web server's places, with time passed in: the head's deadline, the cap on
/// one address's connections without a token, and which connection gives up its place.
@Suite("WebPlaces")
struct WebPlacesTests {
    static func admitted(_ admission: WebPlaces.Admission) -> (WebPlaces.Place, [WebPlaces.Place])? {
        if case .admitted(let place, let closing) = admission { return (place, closing) }
        return nil
    }

    @Test(
        "a request's head must arrive within 5 s of its first byte (of the opening, for the first), the whole request within 10 s"
    )
    func deadlines() throws {
        let places = WebPlaces()
        let quiet = try #require(Self.admitted(places.open(address: "10.0.0.1", channel: nil, now: 0))).0
        let trickling = try #require(Self.admitted(places.open(address: "10.0.0.2", channel: nil, now: 0))).0
        let body = try #require(Self.admitted(places.open(address: "10.0.0.3", channel: nil, now: 0))).0
        let kept = try #require(Self.admitted(places.open(address: "10.0.0.4", channel: nil, now: 0))).0
        trickling.received(now: 1)
        body.headArrived(trusted: false, now: 1)
        kept.headArrived(trusted: true, now: 0.1)
        kept.requestEnded()
        kept.answered()
        #expect(places.expired(now: 5).isEmpty)
        #expect(
            Set(places.expired(now: 5.01).map(ObjectIdentifier.init))
                == Set([quiet, trickling].map(ObjectIdentifier.init)))
        #expect(places.expired(now: 9.9).isEmpty)
        #expect(places.expired(now: 10.01).map(ObjectIdentifier.init) == [ObjectIdentifier(body)])
        // An idle connection's next request is timed from its own first byte.
        kept.received(now: 20)
        #expect(places.expired(now: 24.9).isEmpty)
        #expect(places.expired(now: 25.01).map(ObjectIdentifier.init) == [ObjectIdentifier(kept)])
        #expect(places.count == 0)
    }

    @Test(
        "one address holds at most 8 connections without a token: its idle one goes first, else the new one is refused; trusted ones do not count"
    )
    func perAddress() throws {
        let places = WebPlaces()
        var mine: [WebPlaces.Place] = []
        for i in 0..<8 {
            mine.append(try #require(Self.admitted(places.open(address: "10.0.0.1", channel: nil, now: Double(i)))).0)
        }
        guard case .refused(let why) = places.open(address: "10.0.0.1", channel: nil, now: 8) else {
            Issue.record("a ninth unfinished connection from one address was let in")
            return
        }
        #expect(why.contains("at most 8"))
        // Another address is not held back.
        #expect(Self.admitted(places.open(address: "10.0.0.2", channel: nil, now: 8)) != nil)
        // One of the eight becomes idle: the next takes its place.
        mine[5].headArrived(trusted: false, now: 8)
        mine[5].requestEnded()
        mine[5].answered()
        let (_, closing) = try #require(Self.admitted(places.open(address: "10.0.0.1", channel: nil, now: 9)))
        #expect(closing.map(ObjectIdentifier.init) == [ObjectIdentifier(mine[5])])
        // A connection that showed the token no longer counts against its address.
        mine[0].headArrived(trusted: true, now: 9)
        #expect(Self.admitted(places.open(address: "10.0.0.1", channel: nil, now: 10))?.1.isEmpty == true)
    }

    @Test(
        "with every place held, a new connection takes an untrusted one's (idle first, then oldest unfinished); never a trusted one's, nor one being answered"
    )
    func eviction() throws {
        let places = WebPlaces(limits: .init(places: 6, untrustedPerAddress: 8))
        let owner = try #require(Self.admitted(places.open(address: "10.0.9.9", channel: nil, now: 0))).0
        owner.headArrived(trusted: true, now: 0)
        let viewer = try #require(Self.admitted(places.open(address: "10.0.9.9", channel: nil, now: 0))).0
        viewer.upgraded()
        let answering = try #require(Self.admitted(places.open(address: "10.0.0.1", channel: nil, now: 0))).0
        answering.headArrived(trusted: false, now: 0)
        answering.requestEnded()
        let old = try #require(Self.admitted(places.open(address: "10.0.0.2", channel: nil, now: 1))).0
        let young = try #require(Self.admitted(places.open(address: "10.0.0.3", channel: nil, now: 2))).0
        let idle = try #require(Self.admitted(places.open(address: "10.0.0.4", channel: nil, now: 3))).0
        idle.headArrived(trusted: false, now: 3)
        idle.requestEnded()
        idle.answered()
        #expect(places.count == 6)
        var order: [ObjectIdentifier] = []
        for i in 0..<3 {
            let (_, closing) = try #require(Self.admitted(places.open(address: "10.0.1.\(i)", channel: nil, now: 4)))
            order += closing.map(ObjectIdentifier.init)
        }
        #expect(order == [idle, old, young].map(ObjectIdentifier.init))
        // Now only the newcomers (unfinished, untrusted) can give way: the oldest of them.
        #expect(places.count == 6)
        let (_, closing) = try #require(Self.admitted(places.open(address: "10.0.2.1", channel: nil, now: 5)))
        #expect(closing.count == 1 && closing[0] !== owner && closing[0] !== viewer && closing[0] !== answering)
    }

    @Test("when every place is trusted or being answered, the new connection is refused")
    func allTrusted() throws {
        let places = WebPlaces(limits: .init(places: 2, untrustedPerAddress: 8))
        for i in 0..<2 {
            let place = try #require(Self.admitted(places.open(address: "10.0.0.\(i)", channel: nil, now: 0))).0
            place.headArrived(trusted: true, now: 0)
        }
        guard case .refused(let why) = places.open(address: "10.0.0.9", channel: nil, now: 1) else {
            Issue.record("a trusted connection gave up its place")
            return
        }
        #expect(why.contains("at most 2 at once"))
    }

    @Test(
        "through the server's handlers: a head's arrival, a bearer token and the answer are told to the connection's place"
    )
    func pipeline() throws {
        let scene = Scene(width: 8, height: 4, layers: [TextLayer(id: "main", text: "x")])
        let plane = ControlPlane(
            store: try SceneStore(config: scene, fonts: try FontLibrary()), clock: FrameClock(fps: 60) { _ in },
            startedAt: 0)
        let live = LiveFrame()
        let auth = WebAuth(token: Array("0123456789abcdef0123".utf8))
        let service = WebService(plane: plane, auth: auth, live: live, files: [:], now: { 0 })
        let channel = EmbeddedChannel()
        let viewers = NIOLoopBoundBox.makeBoxSendingValue(
            LiveViewers(live: live, eventLoop: channel.eventLoop, fps: 30), as: LiveViewers.self,
            eventLoop: channel.eventLoop)
        let places = WebPlaces()
        let now = WebPlaces.seconds(channel.embeddedEventLoop.now)
        let place = try #require(Self.admitted(places.open(address: "127.0.0.1", channel: channel, now: now))).0
        try WebServer.configure(channel, service: service, viewers: viewers, place: place)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40000)).wait()

        func send(_ text: String) {
            _ = try? channel.writeInbound(channel.allocator.buffer(string: text))
            channel.embeddedEventLoop.run()
        }
        func answer() throws -> String {
            var bytes: [UInt8] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
            return String(decoding: bytes, as: UTF8.self)
        }
        // Half a head, then 6 s: the place is past its head's limit.
        send("GET /api/status HTTP/1.1\r\nHost: sign\r\n")
        #expect(place.phase == .waitingForHead(since: now))
        channel.embeddedEventLoop.advanceTime(by: .seconds(6))
        #expect(
            places.expired(now: WebPlaces.seconds(channel.embeddedEventLoop.now)).map(ObjectIdentifier.init) == [
                ObjectIdentifier(place)
            ])
        // The rest of it, without a token: answered 401, the place idle and not trusted.
        send("\r\n")
        #expect(try answer().hasPrefix("HTTP/1.1 401"))
        #expect(place.phase == .idle && !place.trusted)
        // A request with the token (scheme in lower case) makes it trusted.
        send(
            "POST /api/logout HTTP/1.1\r\nHost: sign\r\nAuthorization: bearer 0123456789abcdef0123\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
        )
        #expect(try answer().hasPrefix("HTTP/1.1 200"))
        #expect(place.phase == .idle && place.trusted)
        // Pipelined, each request is judged by its own token: with, then without.
        let logout =
            "POST /api/logout HTTP/1.1\r\nHost: sign\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
        send(logout + "Authorization: Bearer 0123456789abcdef0123\r\n\r\n{}" + logout + "\r\n{}")
        let answers = try answer()
        #expect(answers.hasPrefix("HTTP/1.1 200") && answers.contains("HTTP/1.1 401"), "\(answers)")
        #expect(place.phase == .idle && !place.trusted)
        _ = try? channel.finish()
    }
}
