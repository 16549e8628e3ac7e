import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SignConfig
import SignOutput
import Synchronization

/// The web page and its API (docs/contracts.md, "The web API"), served by SwiftNIO's HTTP/1.1 and
/// WebSocket handlers on an event loop of its own: a slow or hostile client never touches the
/// frame clock or the control socket.
public final class WebServer: Sendable {
    /// Why the server could not start.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let listen: String
        public let message: String
        public var description: String { "web \(listen): \(message)" }
    }

    /// Most connections at once (viewers included); past it a new one takes the place of one
    /// without a token, or is answered 503 when none has one to give (`WebPlaces`).
    public static let maxConnections = WebPlaces.Limits().places
    /// A connection that sends nothing for this long is closed (viewers excepted).
    static let idleTimeout = TimeAmount.seconds(30)
    /// How often connections past their head's or request's time are looked for.
    static let sweepPeriod = TimeAmount.milliseconds(250)

    public let config: DaemonConfig.Web
    private let service: WebService
    private let previewFPS: Double
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel = Mutex<Channel?>(nil)
    private let places: NIOLoopBoundBox<WebPlaces>
    private let viewers: NIOLoopBoundBox<LiveViewers>
    private let counter: Counter

    /// The number of viewers, written on the event loop, read from anywhere.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// A server for `config`, carrying requests to `plane`, showing `live`'s frames at most
    /// `previewFPS` times a second. Reads the token file, if any. The login throttle reads
    /// `time`; the idle and head deadlines are on the event loop's own clock (NIO's
    /// `EmbeddedEventLoop` moves it in tests).
    init(
        config: DaemonConfig.Web, plane: ControlPlane, live: LiveFrame, previewFPS: Double,
        time: any SignClock
    ) throws(DaemonError) {
        self.config = config
        let token = try config.tokenFile.map { path throws(DaemonError) in try WebAuth.readToken(path: path) }
        self.service = WebService(
            plane: plane, auth: WebAuth(token: token), live: live, files: WebPage.files,
            now: { Double(time.now()) / 1e9 })
        self.previewFPS = previewFPS
        let loop = group.next()
        let counter = Counter()
        self.viewers = NIOLoopBoundBox.makeBoxSendingValue(
            LiveViewers(live: live, eventLoop: loop, fps: previewFPS) { counter.value.store($0, ordering: .relaxed) },
            as: LiveViewers.self, eventLoop: loop)
        self.counter = counter
        self.places = NIOLoopBoundBox.makeBoxSendingValue(WebPlaces(), as: WebPlaces.self, eventLoop: loop)
    }

    /// Listens on the configured address.
    func start() throws(Error) {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [service, places, viewers] channel in
                // The server has one event loop: the places' and every connection's.
                channel.eventLoop.makeCompletedFuture {
                    let address = WebAuth.addressKey(channel.remoteAddress?.ipAddress ?? "?")
                    switch places.value.open(
                        address: address, channel: channel, now: WebPlaces.seconds(channel.eventLoop.now))
                    {
                    case .refused(let why):
                        try channel.pipeline.syncOperations.addHandler(AnswerAndClose.webBusy(why))
                    case .admitted(let place, let closing):
                        for other in closing { other.channel?.close(promise: nil) }
                        let bound = NIOLoopBound(place, eventLoop: channel.eventLoop)
                        channel.closeFuture.whenComplete { _ in places.value.closed(bound.value) }
                        try Self.configure(channel, service: service, viewers: viewers, place: place)
                    }
                }
            }
        do {
            let bound = try bootstrap.bind(host: config.host, port: Int(config.port)).wait()
            channel.withLock { $0 = bound }
            let places = self.places
            places.eventLoop.scheduleRepeatedTask(initialDelay: Self.sweepPeriod, delay: Self.sweepPeriod) { _ in
                for late in places.value.expired(now: WebPlaces.seconds(places.eventLoop.now)) {
                    late.channel?.close(promise: nil)
                }
            }
        } catch {
            throw Error(listen: config.listen, message: "cannot listen: \(error)")
        }
    }

    /// A connection's handlers: HTTP with the upgrade to a live viewer at `/api/live`;
    /// `place` is the connection's among the server's.
    static func configure(
        _ channel: Channel, service: WebService, viewers: NIOLoopBoundBox<LiveViewers>, place: WebPlaces.Place
    ) throws {
        let http = WebConnectionHandler(service: service, place: place)
        let bound = NIOLoopBound(place, eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1024,
            shouldUpgrade: { channel, head in
                let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init)
                // Refused here, the request goes on to the HTTP handler, which answers why
                // (405 for any method but GET: RFC 6455 4.1).
                let allowed =
                    head.method == .GET && path == "/api/live" && service.refusal(head, on: bound.value) == nil
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(liveViewerHandlers())
                    viewers.value.add(channel)
                }
            })
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(WebPlaceReader(place: place))
        try sync.addHandler(IdleStateHandler(readTimeout: Self.idleTimeout))
        try sync.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    // A viewer only listens: no request deadline, no HTTP handler.
                    bound.value.upgraded()
                    context.pipeline.syncOperations.removeHandler(name: "web.http", promise: nil)
                }
            ))
        try sync.addHandler(http, name: "web.http")
    }

    /// The port it listens on (the configured one, or the kernel's choice for port 0).
    public var port: Int? { channel.withLock { $0?.localAddress?.port } }

    /// Viewers connected now (for tests and `status`).
    var viewerCount: Int { counter.value.load(ordering: .relaxed) }

    /// Stops listening and closes every connection.
    public func stop() {
        if let bound = channel.withLock({ $0 }) {
            try? bound.close().wait()
        }
        try? viewers.eventLoop.submit { self.viewers.value.closeAll() }.wait()
        try? group.syncShutdownGracefully()
    }
}

extension AnswerAndClose {
    /// The web server's: 503 with a `busy` error saying `why`.
    static func webBusy(_ why: String) -> AnswerAndClose {
        let body = "{\"ok\":false,\"error\":{\"code\":\"busy\",\"message\":\"\(why)\"}}"
        return AnswerAndClose(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 5\r\nConnection: close\r\n\r\n"
                + body)
    }
}
