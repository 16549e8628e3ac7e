import Dispatch
import Foundation
// The socket types (SOCK_STREAM ...) belong to the C module that parsed sys/socket.h first,
// libsystemd's in this target: a whole-module (release) build finds them only through it.
import CSystemd
import Glibc
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignOutput
import SignScene
import SignTiming
import SignWire
import Synchronization

/// Receives one `stream` layer's datagrams on a thread of its own, assembles them into
/// frames and hands the newest complete frame to the layer's feed. The frame clock never
/// waits for it: it only takes what the feed holds when it draws. A port that cannot be
/// bound yet (in use, an address not up) is retried every two seconds, like an unplugged
/// device; after `timeout` seconds without a complete frame the layer is transparent, and
/// the `stream-lost` and `stream-back` events say so.
public final class StreamReceiver: Sendable {
    /// What `status` shows of the receiver.
    public struct Report: Sendable {
        public var state: OutputState = .waiting
        public var counters = StreamAssembler.Counters()
        public var lastError: String?
        /// Seconds since the last complete frame, nil before the first.
        public var lastFrameAge: Double?
        public var showing = false
    }

    public let input: StreamInput
    /// The feed frames go to: the config's layer, or a reloaded config's equal one.
    private let feed: Mutex<StreamFeed>
    private let report = Mutex(Report())
    private let lastFrameAt = Atomic<UInt64>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let events: EventBus
    private let logger: Logger

    /// How long the thread waits in `poll`: how soon a stop or a timeout is seen.
    static let wakeInterval: Int32 = 50
    /// How long a port that cannot be bound waits before the next try.
    static let retryInterval: UInt64 = 2_000_000_000
    /// The largest datagram taken whole; a longer one is counted as oversized. Above every
    /// protocol's largest packet (DDP 1,450 data bytes + header; E1.31 638; Art-Net 530).
    static let bufferSize = 2048
    /// Datagrams taken in one go before the thread looks at the clock and the stop flag.
    static let batch = 256

    /// Starts receiving for `input`; never fails: what goes wrong is the receiver's state.
    public init(_ input: StreamInput, events: EventBus, logger: Logger) {
        self.input = input
        self.feed = Mutex(input.feed)
        self.events = events
        var logger = logger
        logger[metadataKey: "stream"] = "\(input.layerID)"
        self.logger = logger
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.start()
    }

    /// From now on frames go to `newFeed` (a reloaded config's layer with the same input),
    /// starting with the frame shown now, so the picture does not blink.
    public func retarget(_ newFeed: StreamFeed) {
        let old = feed.withLock { f in
            defer { f = newFeed }
            return f
        }
        if old !== newFeed { newFeed.publish(old.current) }
    }

    /// Stops the thread and closes the socket; returns within about 0.1 s.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + 2)
    }

    /// A copy of the counters and state for `status`.
    public var current: Report {
        var r = report.withLock { $0 }
        let at = lastFrameAt.load(ordering: .relaxed)
        r.lastFrameAge = at == 0 ? nil : Double(MonotonicClock.now() &- at) / 1e9
        return r
    }

    // MARK: The receiving thread

    private func run() {
        // Named for top, perf and tools/stream-rate (the Glibc module has no pthread_setname_np).
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if comm >= 0 {
            _ = write(comm, "signd.stream", 12)
            close(comm)
        }
        // Below the frame clock: a flood of datagrams takes this thread's share of the
        // CPU, never the clock's.
        if let thread = Self.threadID() {
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, min(19, nice + 5))
        }
        let pixelMap = input.pixelMap
        var assembler = StreamAssembler(
            wire: input.wire, pixelCount: pixelMap.ledCount, firstUniverse: input.universe,
            channelsPerUniverse: input.channelsPerUniverse)
        let map = pixelMap.source
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        let timeout = UInt64(input.timeout * 1e9)
        var socket: Int32 = -1
        defer { if socket >= 0 { close(socket) } }
        var nextTry: UInt64 = 0
        var lastFailure = ""
        var showing = false
        while !stopping.load(ordering: .acquiring) {
            let now = MonotonicClock.now()
            if socket < 0 {
                if now >= nextTry {
                    switch bind(universes: assembler.universeCount) {
                    case .success(let fd):
                        socket = fd
                        lastFailure = ""
                        report.withLock {
                            $0.state = .ok
                            $0.lastError = nil
                        }
                        logger.info("stream listening", metadata: ["address": "\(input.listen):\(input.port)"])
                    case .failure(let error):
                        nextTry = now + Self.retryInterval
                        if error.description != lastFailure {
                            lastFailure = error.description
                            logger.warning("stream waiting: \(error)")
                            report.withLock {
                                $0.state = error.isPermanent ? .error : .waiting
                                $0.lastError = error.description
                            }
                        }
                    }
                }
                if socket < 0 {
                    usleep(UInt32(Self.wakeInterval) * 1000)
                    continue
                }
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, Self.wakeInterval)
            var completed = false
            for _ in 0..<Self.batch {
                let n = recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT) | Int32(MSG_TRUNC))
                if n < 0 { break }
                if n > buffer.count {
                    assembler.countOversized()
                    continue
                }
                let received = MonotonicClock.now()
                if assembler.take(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), now: received) {
                    completed = true
                    lastFrameAt.store(received, ordering: .relaxed)
                }
            }
            if completed {
                let bitmap = Self.bitmap(assembler.pixels, map: map, width: input.width, height: input.height)
                feed.withLock { $0 }.publish(bitmap)
                if !showing {
                    showing = true
                    events.publish(ControlEvent(.streamBack, ["layer": .string(input.layerID)]))
                }
            }
            let quiet = MonotonicClock.now() &- lastFrameAt.load(ordering: .relaxed) > timeout
            if showing && (quiet || assembler.terminated) {
                showing = false
                lastFrameAt.store(0, ordering: .relaxed)
                feed.withLock { $0 }.publish(nil)
                events.publish(
                    ControlEvent(
                        .streamLost,
                        [
                            "layer": .string(input.layerID),
                            "reason": .string(assembler.terminated ? "terminated" : "timeout"),
                        ]
                    ))
            }
            let counters = assembler.counters
            report.withLock {
                $0.counters = counters
                $0.showing = showing
            }
        }
    }

    /// The calling thread's kernel id (what `gettid` returns), from /proc/thread-self,
    /// which names it as PID/task/TID.
    static func threadID() -> id_t? {
        var link = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &link, link.count - 1)
        guard n > 0 else { return nil }
        let text = String(decoding: link[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { id_t($0) }
    }

    /// A bound, non-blocking UDP socket on the input's address and port; E1.31 on an
    /// address other than loopback also joins the multicast groups of its `universes`.
    private func bind(universes: Int) -> Result<Int32, NetworkError> {
        let endpoint: IPEndpoint
        switch IPEndpoint.resolve(host: input.listen, port: input.port, numericOnly: true) {
        case .success(let e): endpoint = e
        case .failure(let error): return .failure(error)
        }
        let fd = socket(
            endpoint.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0)
        guard fd >= 0 else { return .failure(NetworkError("cannot open a UDP socket", errno: errno)) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // Room for a few frames of a large show while the thread sleeps.
        var size: Int32 = 1 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let rc = endpoint.withSocketAddress { Glibc.bind(fd, $0, $1) }
        guard rc == 0 else {
            let code = errno
            close(fd)
            return .failure(NetworkError("cannot listen on \(endpoint)", errno: code))
        }
        if input.wire == .e131, endpoint.family == AF_INET, !input.listen.hasPrefix("127.") {
            joinUniverses(fd, count: universes, interface: input.listen)
        }
        return .success(fd)
    }

    /// Joins 239.255.hi.lo for `count` universes from the layer's first, on the interface of
    /// `interface` (0.0.0.0: the default one). A failed join is logged; unicast still arrives.
    private func joinUniverses(_ fd: Int32, count: Int, interface: String) {
        var local = in_addr()
        _ = inet_pton(AF_INET, interface, &local)
        for u in input.universe..<(input.universe + count) {
            let (a, b, c, d) = E131.multicastGroup(universe: UInt16(truncatingIfNeeded: u))
            var request = ip_mreq()
            request.imr_multiaddr.s_addr = (UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)).bigEndian
            request.imr_interface = local
            if setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size))
                != 0
            {
                logger.warning(
                    "stream: \(NetworkError("cannot join the multicast group of universe \(u)", errno: errno))")
            }
        }
    }

    /// The layer's picture of an assembled frame: each incoming pixel where the panels put
    /// it, opaque; layer pixels no incoming pixel maps to stay transparent.
    static func bitmap(_ rgb: [UInt8], map: [Int32], width: Int, height: Int) -> ImageBitmap {
        var pixels = [ImageBitmap.Pixel](repeating: .zero, count: width * height)
        rgb.withUnsafeBufferPointer { rgb in
            pixels.withUnsafeMutableBufferPointer { out in
                for (k, target) in map.enumerated()
                where target >= 0 && Int(target) < out.count && k * 3 + 2 < rgb.count {
                    out[Int(target)] = ImageBitmap.Pixel(
                        Float(rgb[k * 3]) / 255, Float(rgb[k * 3 + 1]) / 255, Float(rgb[k * 3 + 2]) / 255, 1)
                }
            }
        }
        return ImageBitmap(width: width, height: height, premultiplied: pixels)
    }
}
