import Dispatch
import Glibc
import SignGraphics
import Synchronization

/// Streams frames to a network LED controller over UDP (DDP, E1.31, Art-Net). `send`
/// colours the frame (panel map, correction, dithering) and hands every datagram to a
/// non-blocking socket on the frame clock's queue, which sends them together (many to a
/// system call, runs of equal datagrams segmented by the kernel: `DatagramSocket`): a
/// datagram the kernel cannot take at once is dropped and counted, never waited for. A
/// receiver that refuses datagrams makes the output `waiting` until two seconds pass
/// without a refusal; a name is resolved on the output's own queue, and retried while it
/// does not resolve.
public final class DatagramSink<Framer: DatagramFramer>: FrameSink {
    public let name: String
    public let kind: String
    public let identity: String
    /// How long after the last refusal a receiver counts as back.
    static var refusalMemory: UInt64 { 2_000_000_000 }

    private struct Inner {
        var framer: Framer
        var pipeline: LEDPipeline
        var socket: DatagramSocket?
        var state = OutputState.waiting
        var counters = OutputCounters()
        /// CLOCK_MONOTONIC of the last refused datagram.
        var refusedAt: UInt64?
        /// The errno of the last failed send.
        var lastFailure: Int32 = 0
        var stopped = false
    }

    private let inner: Mutex<Inner>
    private let cap: FrameRateCap
    private let host: String?
    private let port: UInt16
    private let ttl: Int32
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private nonisolated(unsafe) var retry: DispatchSourceTimer?

    /// `host` nil: the framer's multicast groups. `log` gets one line per state change.
    public init(
        name: String, identity: String = "", framer: Framer, pipeline: LEDPipeline, host: String?, port: UInt16,
        ttl: Int32 = 1, cap: FrameRateCap, log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.kind = framer.kind
        self.identity = identity
        self.host = host
        self.port = port
        self.ttl = ttl
        self.cap = cap
        self.log = log
        self.queue = DispatchQueue(label: "signd.net.\(name)")
        let ordered = pipeline.order == framer.order ? pipeline : pipeline.ordered(framer.order)
        self.inner = Mutex(Inner(framer: framer, pipeline: ordered))
        // A literal address (or multicast) opens at once, so the first frame goes out; a
        // name waits for the resolver on the output's queue.
        if !open(numericOnly: true) {
            queue.async { [self] in
                guard !open(numericOnly: false) else { return }
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + .seconds(5), repeating: .seconds(5), leeway: .seconds(1))
                timer.setEventHandler { [weak self] in
                    if self?.open(numericOnly: false) ?? true { self?.retry?.cancel() }
                }
                retry = timer
                timer.resume()
            }
        }
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// Resolves the destinations and opens the socket; false while that is not possible.
    private func open(numericOnly: Bool) -> Bool {
        let groups = inner.withLock { $0.framer.groups }
        var destinations: [IPEndpoint] = []
        if let host {
            switch IPEndpoint.resolve(host: host, port: port, numericOnly: numericOnly) {
            case .success(let endpoint): destinations = [endpoint]
            case .failure(let error):
                if numericOnly { return false }
                fail(error, state: .waiting)
                return false
            }
        } else {
            destinations = groups.map { universe in
                IPEndpoint.ipv4(239, 255, UInt8(universe >> 8), UInt8(universe & 0xff), port: port)
            }
        }
        let socket: DatagramSocket
        do throws(NetworkError) {
            socket = try DatagramSocket(destinations: destinations, ttl: ttl)
        } catch {
            fail(error, state: .error)
            return false
        }
        let device =
            host == nil
            ? "\(kind) multicast \(destinations[0])\(destinations.count > 1 ? " and \(destinations.count - 1) more" : "")"
            : "\(kind) \(destinations[0])"
        inner.withLock { s in
            guard !s.stopped else { return }
            s.socket = socket
            s.state = .ok
            s.counters.device = device
        }
        log("output \(name): streaming to \(device)")
        return true
    }

    private func fail(_ error: NetworkError, state: OutputState) {
        inner.withLock { s in
            if s.counters.lastError != error.description { log("output \(name): \(error)") }
            s.counters.errors += 1
            s.counters.lastError = error.description
            s.state = state
        }
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard cap.admits(number) else { return }
        inner.withLock { s in
            guard !s.stopped, let socket = s.socket else { return }
            var outcome = DatagramSocket.Outcome()
            s.framer.writeFrame(frame, scale: display.scale, through: &s.pipeline) { datagram, destination in
                socket.queue(datagram, to: destination, outcome: &outcome)
            }
            socket.flush(&outcome)
            Self.account(&s, failure: outcome.failure, blocked: outcome.blocked, at: deadline, name: name, log: log)
        }
    }

    /// Counts a frame's outcome and moves the state: a refusal or failure makes the output
    /// wait (or fail, when the system forbids sending); a clean frame long enough after the
    /// last refusal makes it `ok` again.
    private static func account(
        _ s: inout Inner, failure: Int32, blocked: Bool, at now: UInt64, name: String,
        log: @Sendable (String) -> Void
    ) {
        if failure != 0 {
            s.counters.errors += 1
            s.refusedAt = now
            let newState: OutputState = failure == EPERM || failure == EACCES ? .error : .waiting
            // A receiver that stays away refuses every frame: the words are written (and
            // logged) when the failure changes, not once a frame.
            guard s.state != newState || s.lastFailure != failure else { return }
            let error = NetworkError("sending to \(s.counters.device ?? "the receiver")", errno: failure)
            log("output \(name): \(error)\(newState == .waiting ? "; still sending" : "")")
            s.counters.lastError = error.description
            s.lastFailure = failure
            s.state = newState
            return
        }
        if blocked {
            s.counters.dropped += 1
            return
        }
        s.counters.framesSent += 1
        if s.state != .ok, now &- (s.refusedAt ?? 0) >= refusalMemory {
            s.state = .ok
            s.counters.reconnects += 1
            log("output \(name): the receiver takes frames again")
        }
    }

    /// Sends the protocol's goodbye (E1.31: three stream-terminated packets a universe, with
    /// the last frame) and closes the socket.
    public func stop() {
        inner.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            if let socket = s.socket {
                s.framer.writeGoodbye { datagram, destination in _ = socket.send(datagram, to: destination) }
            }
            s.socket = nil
        }
        queue.sync {}
        retry?.cancel()
    }
}
