import Dispatch
import Glibc
import SignGraphics
import SignWire
import Synchronization

/// Streams frames to an Open Pixel Control server (fcserver, gl_server, OLA) over one TCP
/// connection. `send` writes a set-pixels message to a non-blocking socket on the frame
/// clock's queue; what the kernel cannot take at once is finished before the next frame
/// (the stream stays whole) and that next frame is dropped and counted. Connecting, and
/// reconnecting with back-off (0.25 s doubling to 8 s) when the server goes away, happen on
/// the output's own queue.
public final class OPCSink: FrameSink {
    public let name: String
    public let kind = "opc"
    public let identity: String
    public static let longestBackoff = 8.0

    private struct Inner {
        var pipeline: LEDPipeline
        var message: [UInt8] = []
        /// Bytes of `message` already written; `message.count` when it is all out.
        var written = 0
        var fd: Int32 = -1
        var state = OutputState.waiting
        var counters = OutputCounters()
        var everConnected = false
        var reconnectScheduled = false
        var backoff = 0.25
        var stopped = false
    }

    private let inner: Mutex<Inner>
    private let cap: FrameRateCap
    private let host: String
    private let port: UInt16
    private let channel: UInt8
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void

    public init(
        name: String, identity: String = "", pipeline: LEDPipeline, host: String, port: UInt16 = OPC.port,
        channel: UInt8 = 0, cap: FrameRateCap, log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.identity = identity
        self.host = host
        self.port = port
        self.channel = channel
        self.cap = cap
        self.log = log
        self.queue = DispatchQueue(label: "signd.opc.\(name)")
        self.inner = Mutex(Inner(pipeline: pipeline))
        queue.async { self.connect() }
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// Connects (on the output's queue), waiting at most two seconds for the server.
    private func connect() {
        guard inner.withLock({ !$0.stopped && $0.fd < 0 }) else { return }
        let endpoint: IPEndpoint
        switch IPEndpoint.resolve(host: host, port: port) {
        case .success(let found): endpoint = found
        case .failure(let error): return retryLater(error)
        }
        let fd = socket(
            endpoint.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0)
        guard fd >= 0 else { return retryLater(NetworkError("cannot open a TCP socket", errno: errno)) }
        var code: Int32 = 0
        if endpoint.withSocketAddress({ Glibc.connect(fd, $0, $1) }) != 0 {
            code = errno
            if code == EINPROGRESS {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&poller, 1, 2000) == 1 {
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                } else {
                    code = ETIMEDOUT
                }
            }
        }
        guard code == 0 else {
            close(fd)
            return retryLater(NetworkError("connecting to \(endpoint)", errno: code))
        }
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let kept = inner.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.fd = fd
            s.written = s.message.count
            s.state = .ok
            s.backoff = 0.25
            if s.everConnected { s.counters.reconnects += 1 }
            s.everConnected = true
            s.counters.device = "opc \(endpoint)"
            return true
        }
        guard kept else {
            close(fd)
            return
        }
        log("output \(name): streaming to \(endpoint)")
    }

    /// Notes why there is no connection and tries again after the back-off.
    private func retryLater(_ error: NetworkError) {
        let delay = inner.withLock { s -> Double? in
            guard !s.stopped, !s.reconnectScheduled else { return nil }
            if s.counters.lastError != error.description { log("output \(name): \(error); retrying") }
            s.counters.errors += 1
            s.counters.lastError = error.description
            s.state = .waiting
            s.reconnectScheduled = true
            defer { s.backoff = min(s.backoff * 2, Self.longestBackoff) }
            return s.backoff
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            inner.withLock { $0.reconnectScheduled = false }
            connect()
        }
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard cap.admits(number) else { return }
        let lost = inner.withLock { s -> NetworkError? in
            guard !s.stopped, s.fd >= 0 else { return nil }
            // The rest of a message the kernel took only part of goes first.
            if s.written < s.message.count {
                if let error = Self.write(&s) { return Self.drop(&s, error) }
                if s.written < s.message.count {
                    s.counters.dropped += 1
                    return nil
                }
            }
            Self.compose(frame, scale: display.scale, channel: channel, through: &s.pipeline, into: &s.message)
            s.written = 0
            if let error = Self.write(&s) { return Self.drop(&s, error) }
            if s.written == 0 {
                // Nothing went: the frame is dropped whole and the stream stays aligned.
                s.written = s.message.count
                s.counters.dropped += 1
            } else {
                s.counters.framesSent += 1
            }
            return nil
        }
        if let lost { queue.async { self.retryLater(lost) } }
    }

    /// The set-pixels message for `frame`: its header, and the LEDs (as many as a message
    /// carries) coloured straight into it.
    public static func compose(
        _ frame: Frame, scale: UInt32, channel: UInt8, through pipeline: inout LEDPipeline, into message: inout [UInt8]
    ) {
        let count = min(pipeline.colourByteCount, OPC.maxData) / 3 * 3
        if message.count != OPC.headerSize + count { message = [UInt8](repeating: 0, count: OPC.headerSize + count) }
        message.withUnsafeMutableBytes { m in
            OPC.writeHeader(channel: channel, count: count, into: m)
            pipeline.colour(frame, scale: scale, leds: 0..<count / 3, into: m.baseAddress! + OPC.headerSize)
        }
    }

    /// Writes what the kernel takes of the message now; an error when the connection broke.
    private static func write(_ s: inout Inner) -> NetworkError? {
        let fd = s.fd
        let written = s.written
        let n = s.message.withUnsafeBytes { bytes in
            Glibc.send(fd, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
        if n >= 0 {
            s.written += n
            return nil
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return nil }
        return NetworkError("sending to \(s.counters.device ?? "the server")", errno: code)
    }

    /// Closes a broken connection; the caller schedules the reconnect.
    private static func drop(_ s: inout Inner, _ error: NetworkError) -> NetworkError {
        close(s.fd)
        s.fd = -1
        s.written = s.message.count
        s.state = .waiting
        s.counters.device = nil
        return error
    }

    /// Lets the last frame (the blank one on stop) leave whole, waiting at most a second for
    /// a slow server, then closes the connection.
    public func stop() {
        for _ in 0..<20 {
            let pending = inner.withLock { s -> Int32? in
                guard s.fd >= 0, s.written < s.message.count, Self.write(&s) == nil, s.written < s.message.count
                else { return nil }
                return s.fd
            }
            guard let fd = pending else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 50)
        }
        let fd = inner.withLock { s -> Int32 in
            s.stopped = true
            defer { s.fd = -1 }
            return s.fd
        }
        queue.sync {}
        if fd >= 0 { close(fd) }
    }
}
