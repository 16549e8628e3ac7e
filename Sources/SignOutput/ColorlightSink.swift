import Dispatch
import Glibc
import SignGraphics
import SignWire
import Synchronization

/// Streams frames to a Colorlight 5A-75 receiver card over raw Ethernet: an `AF_PACKET`
/// socket on `interface` (it needs CAP_NET_RAW: under systemd, the colorlight drop-in).
/// Each frame's packets go to a non-blocking socket on the frame clock's queue; a frame
/// whose packets the kernel cannot all take is counted dropped, never waited for. An
/// interface that is missing or goes away makes the output `waiting`, looked for every 2 s.
public final class ColorlightSink: FrameSink {
    public let name: String
    public let kind = "colorlight"
    public let identity: String
    public let interface: String

    private struct Inner {
        var framer: ColorlightFramer
        var pipeline: LEDPipeline
        var socket: Int32 = -1
        /// The interface's sockaddr_ll, built once it is open.
        var address = [UInt8](repeating: 0, count: 20)
        var state = OutputState.waiting
        var counters = OutputCounters()
        var stopped = false
    }

    private let inner: Mutex<Inner>
    private let cap: FrameRateCap
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private nonisolated(unsafe) var retry: DispatchSourceTimer?

    public init(
        name: String, identity: String = "", framer: ColorlightFramer, pipeline: LEDPipeline, interface: String,
        cap: FrameRateCap, log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.identity = identity
        self.interface = interface
        self.cap = cap
        self.log = log
        self.queue = DispatchQueue(label: "signd.colorlight.\(name)")
        let ordered = pipeline.order == framer.order ? pipeline : pipeline.ordered(framer.order)
        self.inner = Mutex(Inner(framer: framer, pipeline: ordered))
        _ = open()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(2), repeating: .seconds(2), leeway: .milliseconds(500))
        timer.setEventHandler { [weak self] in
            guard let self, inner.withLock({ $0.socket < 0 && !$0.stopped }) else { return }
            _ = open()
        }
        retry = timer
        timer.resume()
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// Opens the raw socket on the interface; false (and the reason in `last_error`) while
    /// that is not possible.
    private func open() -> Bool {
        let index = if_nametoindex(interface)
        guard index != 0 else {
            fail("no network interface \"\(interface)\" (ip link lists them); waiting for it", state: .waiting)
            return false
        }
        let fd = socket(AF_PACKET, Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            let code = errno
            let hint = code == EPERM || code == EACCES
                ? " (raw Ethernet needs CAP_NET_RAW: under systemd, enable the colorlight drop-in)" : ""
            fail(NetworkError("cannot open a raw socket", errno: code).description + hint, state: .error)
            return false
        }
        // struct sockaddr_ll: family, protocol, ifindex, hatype, pkttype, halen, addr[8].
        var address = [UInt8](repeating: 0, count: 20)
        address.withUnsafeMutableBytes { a in
            a.storeBytes(of: UInt16(AF_PACKET), toByteOffset: 0, as: UInt16.self)
            a.storeBytes(of: Int32(index), toByteOffset: 4, as: Int32.self)
            a[11] = 6
            for i in 0..<6 { a[12 + i] = Colorlight.receiverMAC[i] }
        }
        let rows = inner.withLock { s -> Int in
            if s.stopped {
                close(fd)
                return -1
            }
            s.socket = fd
            s.address = address
            s.state = .ok
            s.counters.device = "colorlight \(interface): \(s.framer.rows) rows, \(s.framer.packetsPerFrame) row packets a frame"
            return s.framer.rows
        }
        if rows >= 0 { log("output \(name): streaming to the Colorlight card on \(interface)") }
        return rows >= 0
    }

    private func fail(_ message: String, state: OutputState) {
        inner.withLock { s in
            if s.counters.lastError != message { log("output \(name): \(message)") }
            s.counters.errors += 1
            s.counters.lastError = message
            s.state = state
        }
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard cap.admits(number) else { return }
        inner.withLock { s in
            guard !s.stopped, s.socket >= 0 else { return }
            let fd = s.socket
            var failure: Int32 = 0
            var blocked = false
            s.address.withUnsafeBytes { address in
                s.framer.writeFrame(frame, scale: display.scale, through: &s.pipeline) { packet, _ in
                    guard failure == 0, !blocked else { return }
                    let sent = address.withMemoryRebound(to: sockaddr.self) { a in
                        sendto(fd, packet.baseAddress, packet.count, Int32(MSG_DONTWAIT), a.baseAddress, 20)
                    }
                    if sent < 0 {
                        let code = errno
                        if code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS { blocked = true } else { failure = code }
                    }
                }
            }
            if failure != 0 {
                // The interface went down or away: look for it again.
                close(s.socket)
                s.socket = -1
                s.counters.errors += 1
                let error = NetworkError("sending on \(interface)", errno: failure).description
                if s.counters.lastError != error { log("output \(name): \(error); waiting for it") }
                s.counters.lastError = error
                s.state = .waiting
            } else if blocked {
                s.counters.dropped += 1
            } else {
                s.counters.framesSent += 1
                if s.state != .ok {
                    s.state = .ok
                    s.counters.reconnects += 1
                }
            }
        }
    }

    /// Closes the socket (the blank frame, when signd blanks on stop, was sent before).
    public func stop() {
        inner.withLock { s in
            s.stopped = true
            if s.socket >= 0 { close(s.socket) }
            s.socket = -1
        }
        retry?.cancel()
        queue.sync {}
    }
}
