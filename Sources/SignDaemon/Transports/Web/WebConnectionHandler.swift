import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import SignControl
import SignGraphics
import SignOutput

/// What every web connection shares: the control plane, who may use it, and the newest frame.
struct WebService: Sendable {
    let plane: ControlPlane
    let auth: WebAuth
    let live: LiveFrame
    /// The page's files, by path.
    let files: [String: WebPage.File]
    /// Seconds on a steady clock, for sessions and login limits.
    let now: @Sendable () -> Double

    /// Largest request body (`POST /api/cmd` and `/api/login`).
    static let maxBody = 64 * 1024

    /// Sent with every response: only the page's own files may run, style, load or connect.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
    ]

    /// Why a request may not use the API.
    struct Refusal {
        let status: HTTPResponseStatus
        let message: String
        /// Seconds for `Retry-After` (429).
        var retryAfter: Int? = nil
    }

    /// Whether the request `place` is receiving may use the API by its token or session,
    /// decided once a request (a wrong token counts once however often it is asked).
    func access(_ head: HTTPRequestHead, on place: WebPlaces.Place) -> WebAuth.Access {
        if let decided = place.access { return decided }
        let access = auth.access(
            authorization: head.headers.first(name: "authorization"), cookie: head.headers.first(name: "cookie"),
            from: place.address, now: now())
        place.access = access
        return access
    }

    /// Whether a request's connection keeps its place ahead of clients without a token: the
    /// request carried a valid token or session (without a token file: its `Host` is this machine).
    func trusts(_ head: HTTPRequestHead, on place: WebPlaces.Place) -> Bool {
        access(head, on: place) == .allowed
            && (auth.needsToken || WebAuth.hostIsLoopback(head.headers.first(name: "host") ?? ""))
    }

    /// Why a request may not use the API; nil when it may. `needsSession` is false for logging in.
    func refusal(_ head: HTTPRequestHead, on place: WebPlaces.Place, needsSession: Bool = true) -> Refusal? {
        let host = head.headers.first(name: "host")
        if !auth.needsToken, !WebAuth.hostIsLoopback(host ?? "") {
            return Refusal(
                status: .forbidden,
                message: "this page answers only to its loopback address (Host was not this machine)")
        }
        if head.method != .GET || head.uri.hasPrefix("/api/live"),
            !WebAuth.originIsOwn(head.headers.first(name: "origin"), host: host)
        {
            return Refusal(status: .forbidden, message: "a request from another site's page is refused")
        }
        guard needsSession else { return nil }
        switch access(head, on: place) {
        case .allowed:
            return nil
        case .refused:
            return Refusal(
                status: .unauthorized, message: "a token is needed: log in, or send Authorization: Bearer <token>")
        case .tooMany(let retryAfter):
            return Refusal(
                status: .tooManyRequests,
                message: "too many wrong tokens from this address; try again in \(retryAfter) s",
                retryAfter: retryAfter)
        }
    }
}

/// One HTTP connection of the web server (docs/contracts.md, "The web API"): the page's files, the
/// API (every request through the control plane, as the socket's are), and the refusals:
/// 401 without a token where one is needed, 403 for another site's page or a Host that is
/// not this machine, 413 over 64 KiB, 415 for a POST that is not JSON (no form posts).
final class WebConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: WebService
    /// This connection's place among the server's.
    private let place: WebPlaces.Place
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    /// The request's body passed the limit: it was answered 413 and the connection closes.
    private var refused = false

    init(service: WebService, place: WebPlaces.Place) {
        self.service = service
        self.place = place
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = nil
            place.headArrived(trusted: service.trusts(h, on: place), now: WebPlaces.seconds(context.eventLoop.now))
            if let length = h.headers.first(name: "content-length").flatMap(Int.init), length > WebService.maxBody {
                refuseTooLarge(context)
            }
        case .body(var part):
            guard !refused else { return }
            if (body?.readableBytes ?? 0) + part.readableBytes > WebService.maxBody {
                refuseTooLarge(context)
                return
            }
            if body == nil { body = part } else { body!.writeBuffer(&part) }
        case .end:
            guard !refused, let head else { return }
            self.head = nil
            place.requestEnded()
            route(head, body ?? ByteBuffer(), context)
        }
    }

    private func refuseTooLarge(_ context: ChannelHandlerContext) {
        refused = true
        let error = ControlError(.requestTooLarge, "a request body is limited to \(WebService.maxBody) bytes")
        respond(
            context, .payloadTooLarge, json: Response.failure(id: .null, error).line, keepAlive: false)
    }

    private func route(_ head: HTTPRequestHead, _ body: ByteBuffer, _ context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let keepAlive = head.isKeepAlive
        if !path.hasPrefix("/api/") && path != "/metrics" {
            guard head.method == .GET || head.method == .HEAD else {
                return respond(context, .methodNotAllowed, text: "only GET here", keepAlive: keepAlive)
            }
            guard let file = service.files[path] else {
                return respond(context, .notFound, text: "no such page", keepAlive: keepAlive)
            }
            return respond(
                context, .ok, contentType: file.contentType, bytes: file.bytes, keepAlive: keepAlive,
                omitBody: head.method == .HEAD, cache: "no-cache")
        }
        let expected: HTTPMethod
        switch path {
        case "/api/cmd", "/api/login", "/api/logout": expected = .POST
        case "/api/status", "/api/frame.png", "/api/live", "/metrics": expected = .GET
        default: return respond(context, .notFound, text: "no such API route", keepAlive: keepAlive)
        }
        if let refusal = service.refusal(head, on: place, needsSession: path != "/api/login") {
            return respondError(
                context, refusal.status, refusal.message, keepAlive: keepAlive,
                extra: refusal.retryAfter.map { [("Retry-After", "\($0)")] } ?? [])
        }
        guard head.method == expected else {
            return respondError(context, .methodNotAllowed, "\(path) takes \(expected.rawValue)", keepAlive: keepAlive)
        }
        if expected == .POST {
            let type = head.headers.first(name: "content-type")?.split(separator: ";").first
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard type == "application/json" else {
                return respondError(
                    context, .unsupportedMediaType, "the body must be JSON, sent as Content-Type: application/json",
                    keepAlive: keepAlive)
            }
        }
        switch path {
        case "/api/cmd": command(body, context, keepAlive: keepAlive)
        case "/api/login": login(head, body, context, keepAlive: keepAlive)
        case "/api/logout":
            service.auth.logout(cookie: head.headers.first(name: "cookie"))
            respond(
                context, .ok, json: "{}", keepAlive: keepAlive,
                extra: [("Set-Cookie", "\(WebAuth.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")])
        case "/api/status":
            let answer = answering(context, keepAlive: keepAlive)
            service.plane.handle(Request(Request.Status()), from: .http) { response in
                switch response.outcome {
                case .success(let result): answer(JSONValue.object(result).jsonString)
                case .failure: answer(response.line)
                }
            }
        case "/api/frame.png": frame(context, keepAlive: keepAlive)
        case "/metrics":
            // The same auth as /api/status: a scraper sends the token as a bearer token.
            let plane = service.plane
            let body = Metrics.exposition(
                status: plane.status(), lateness: plane.clock.stats.lateness, memory: ProcessMemory.current())
            respond(context, .ok, contentType: Metrics.contentType, bytes: Array(body.utf8), keepAlive: keepAlive)
        default:  // /api/live without an upgrade
            respondError(context, .badRequest, "/api/live is a WebSocket: ask for an upgrade", keepAlive: keepAlive)
        }
    }

    /// `POST /api/cmd`: the body is a request as the socket takes it, the answer its response.
    private func command(_ body: ByteBuffer, _ context: ChannelHandlerContext, keepAlive: Bool) {
        let request: Request
        do {
            request = try Request(line: body.readableBytesView)
        } catch {
            // A body that is not a request at all is the client's mistake in HTTP's terms too.
            let status: HTTPResponseStatus = error.error.code == .badRequest ? .badRequest : .ok
            return respond(
                context, status, json: Response.failure(id: error.id, error.error).line, keepAlive: keepAlive)
        }
        let answer = answering(context, keepAlive: keepAlive)
        service.plane.handle(request, from: .http) { response in answer(response.line) }
    }

    /// `POST /api/login` with `{"token": ...}`: a session cookie for the page.
    private func login(_ head: HTTPRequestHead, _ body: ByteBuffer, _ context: ChannelHandlerContext, keepAlive: Bool) {
        guard let json = try? JSONValue.parse(Array(body.readableBytesView)), let token = json["token"]?.stringValue
        else {
            return respondError(context, .badRequest, "the body must be {\"token\": \"...\"}", keepAlive: keepAlive)
        }
        switch service.auth.login(token: token, from: place.address, now: service.now()) {
        case .accepted(let session):
            respond(
                context, .ok, json: "{}", keepAlive: keepAlive,
                extra: [("Set-Cookie", "\(WebAuth.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict")])
        case .refused:
            respondError(context, .unauthorized, "wrong token", keepAlive: keepAlive)
        case .tooMany(let retryAfter):
            respondError(
                context, .tooManyRequests, "too many wrong tokens from this address; try again in \(retryAfter) s",
                keepAlive: keepAlive, extra: [("Retry-After", "\(retryAfter)")])
        }
    }

    /// `GET /api/frame.png`: the newest frame.
    private func frame(_ context: ChannelHandlerContext, keepAlive: Bool) {
        guard let (frame, number) = service.live.latest() else {
            return respondError(context, .serviceUnavailable, "no frame yet", keepAlive: keepAlive)
        }
        do {
            let png = try PNGImage.encode(frame)
            respond(
                context, .ok, contentType: "image/png", bytes: png, keepAlive: keepAlive,
                extra: [("X-Signd-Frame", "\(number)")])
        } catch {
            respondError(context, .internalServerError, "\(error)", keepAlive: keepAlive)
        }
    }

    /// Answers 200 with a JSON body from whichever thread the control plane finishes on.
    private func answering(_ context: ChannelHandlerContext, keepAlive: Bool) -> @Sendable (String) -> Void {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        return { json in
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.respond(context, .ok, json: json, keepAlive: keepAlive)
            }
        }
    }

    private func respondError(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String, keepAlive: Bool,
        extra: [(String, String)] = []
    ) {
        let json = JSONValue.object([
            "ok": false, "error": ["code": .string("http-\(status.code)"), "message": .string(message)],
        ])
        var extra = extra
        if status == .unauthorized { extra.append(("WWW-Authenticate", "Bearer")) }
        respond(context, status, json: json.jsonString, keepAlive: keepAlive, extra: extra)
    }

    private func respond(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, json: String, keepAlive: Bool,
        extra: [(String, String)] = []
    ) {
        respond(
            context, status, contentType: "application/json", bytes: Array(json.utf8), keepAlive: keepAlive,
            extra: extra)
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, text: String, keepAlive: Bool)
    {
        respond(
            context, status, contentType: "text/plain; charset=utf-8", bytes: Array(text.utf8), keepAlive: keepAlive)
    }

    private func respond(
        _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, contentType: String, bytes: [UInt8],
        keepAlive: Bool, omitBody: Bool = false, cache: String = "no-store", extra: [(String, String)] = []
    ) {
        guard context.channel.isActive else { return }
        // Before the end is written: NIO may hand over a pipelined request as it goes out.
        place.answered()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: "\(bytes.count)")
        headers.add(name: "Cache-Control", value: cache)
        for (name, value) in WebService.securityHeaders + extra { headers.add(name: name, value: value) }
        let keep = keepAlive && !refused
        headers.add(name: "Connection", value: keep ? "keep-alive" : "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !omitBody {
            var buffer = context.channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keep { channel.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A WebSocket upgrade that was refused comes here as an error before the request
        // itself, which is then answered with the reason (401, 403) like any other.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }
}

/// The first handler of a web connection: tells its place when bytes arrive, so a new
/// request's head and body are timed from its first byte (`WebPlaces` closes the late).
final class WebPlaceReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let place: WebPlaces.Place

    init(place: WebPlaces.Place) {
        self.place = place
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        place.received(now: WebPlaces.seconds(context.eventLoop.now))
        context.fireChannelRead(data)
    }
}
