import Dispatch
import Glibc
import SignGraphics
import Synchronization

/// Streams frames down a serial port: Adalight, AWA or TPM2 to a microcontroller on USB
/// serial, or Enttec's label 6 packets to a DMX USB Pro. `send` colours and encodes the
/// frame and writes it to the non-blocking port on the frame clock's queue; what the port
/// cannot take at once is finished before the next frame (the byte stream stays whole, so
/// the receiver never loses sync) and that next frame is dropped and counted. A port that
/// is missing, refused or unplugged is waited for: the output's own queue tries to open it
/// every half second and says once, in the log and in `status`, why it cannot.
public final class SerialSink: FrameSink {
    /// What goes down the wire.
    public enum Framing: Sendable, Equatable {
        case adalight, awa, tpm2
        /// Enttec label 6: `channels` DMX channels, the LEDs from `startChannel` (1-based).
        case enttecSendDMX(channels: Int, startChannel: Int)
    }

    public let name: String
    public let kind: String
    public let identity: String
    /// How often a missing port is looked for.
    public static let retryInterval = DispatchTimeInterval.milliseconds(500)

    private struct Inner {
        var pipeline: LEDPipeline
        var message: [UInt8] = []
        /// Bytes of `message` already written; `message.count` when it is all out.
        var written = 0
        var port: SerialPort?
        var state = OutputState.waiting
        var counters = OutputCounters()
        var everOpened = false
        var stopped = false
    }

    private let inner: Mutex<Inner>
    private let framing: Framing
    private let path: String
    private let baud: Int
    private let cap: FrameRateCap
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private nonisolated(unsafe) var retry: DispatchSourceTimer?

    /// `device` is a path or a /dev/serial/by-id/ name; `log` gets one line per change of
    /// state or of the reason for waiting.
    public init(
        name: String, kind: String, identity: String = "", pipeline: LEDPipeline, framing: Framing, device: String,
        baud: Int, cap: FrameRateCap, log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.kind = kind
        self.identity = identity
        self.framing = framing
        self.path = SerialPort.path(of: device)
        self.baud = baud
        self.cap = cap
        self.log = log
        self.queue = DispatchQueue(label: "signd.serial.\(name)")
        self.inner = Mutex(Inner(pipeline: pipeline))
        // The first open happens now, so the first frame goes out; after that the timer
        // reopens a port that went away (the frame clock only closes it, allocating nothing).
        open()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.retryInterval, repeating: Self.retryInterval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.open() }
        timer.resume()
        retry = timer
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// Opens the port when it is closed.
    private func open() {
        guard inner.withLock({ !$0.stopped && $0.port == nil }) else { return }
        switch SerialPort.open(path, baud: baud) {
        case .failure(let error):
            inner.withLock { s in
                guard s.counters.lastError != error.description else { return }
                log("output \(name): \(error)")
                s.counters.errors += 1
                s.counters.lastError = error.description
                s.state = .waiting
            }
        case .success(let port):
            let kept = inner.withLock { s -> Bool in
                guard !s.stopped else { return false }
                s.port = port
                s.written = s.message.count
                s.state = .ok
                if s.everOpened { s.counters.reconnects += 1 }
                s.everOpened = true
                s.counters.device = "\(port.path) at \(port.baud) baud"
                s.counters.lastError = nil
                return true
            }
            if kept {
                log("output \(name): streaming to \(port.path) at \(port.baud) baud")
            } else {
                port.close()
            }
        }
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard cap.admits(number) else { return }
        inner.withLock { s in
            guard !s.stopped, s.port != nil else { return }
            // The rest of a frame the port took only part of goes first.
            if s.written < s.message.count {
                guard Self.write(&s, name: name, log: log) else { return }
                if s.written < s.message.count {
                    s.counters.dropped += 1
                    return
                }
            }
            Self.compose(frame, scale: display.scale, framing: framing, through: &s.pipeline, into: &s.message)
            s.written = 0
            guard Self.write(&s, name: name, log: log) else { return }
            if s.written == 0 {
                // Nothing went: the frame is dropped whole and the stream stays aligned.
                s.written = s.message.count
                s.counters.dropped += 1
            } else {
                s.counters.framesSent += 1
            }
        }
    }

    /// The frame's message, its LEDs coloured straight into it.
    public static func compose(
        _ frame: Frame, scale: UInt32, framing: Framing, through pipeline: inout LEDPipeline, into message: inout [UInt8]
    ) {
        let bytes = pipeline.colourByteCount
        // The first `buffer.count` LED bytes: whole LEDs in place, a last LED cut short by
        // the end through a scratch triple.
        func fill(_ buffer: UnsafeMutableRawBufferPointer) {
            let whole = buffer.count / 3
            pipeline.colour(frame, scale: scale, leds: 0..<whole, into: buffer.baseAddress!)
            guard buffer.count % 3 != 0 else { return }
            var last: (UInt8, UInt8, UInt8) = (0, 0, 0)
            withUnsafeMutableBytes(of: &last) { pipeline.colour(frame, scale: scale, leds: whole..<whole + 1, into: $0.baseAddress!) }
            withUnsafeBytes(of: last) { (buffer.baseAddress! + whole * 3).copyMemory(from: $0.baseAddress!, byteCount: buffer.count % 3) }
        }
        switch framing {
        case .adalight: Adalight.encode(bytes: bytes, into: &message, fill: fill)
        case .awa: Adalight.encodeAWA(bytes: bytes, into: &message, fill: fill)
        case .tpm2: TPM2.encode(bytes: bytes, into: &message, fill: fill)
        case .enttecSendDMX(let channels, let start):
            EnttecDMXUSBPro.encodeSendDMX(bytes: bytes, channels: channels, startChannel: start, into: &message, fill: fill)
        }
    }

    /// Writes what the port takes of the message now; false when the port is gone (it is
    /// closed, and the timer reopens it when it is back).
    private static func write(_ s: inout Inner, name: String, log: @Sendable (String) -> Void) -> Bool {
        guard let port = s.port else { return false }
        let written = s.written
        let n = s.message.withUnsafeBytes { port.write(UnsafeRawBufferPointer(rebasing: $0[written...])) }
        let code = Int32(-min(n, 0))
        switch code {
        case 0:
            s.written += n
            return true
        case EAGAIN, EWOULDBLOCK, EINTR:
            return true
        default:
            port.close()
            s.port = nil
            s.written = s.message.count
            s.state = .waiting
            s.counters.errors += 1
            s.counters.device = nil
            let error = "writing to \(port.path): \(String(cString: strerror(code))); waiting for it to come back"
            s.counters.lastError = error
            log("output \(name): \(error)")
            return false
        }
    }

    /// Lets the last frame (the blank one on stop) leave whole, waiting at most a second for
    /// a slow port, then closes it.
    public func stop() {
        for _ in 0..<20 {
            let pending = inner.withLock { s -> Int32? in
                guard let port = s.port, s.written < s.message.count, Self.write(&s, name: name, log: log),
                    s.written < s.message.count
                else { return nil }
                return port.fd
            }
            guard let fd = pending else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 50)
        }
        retry?.cancel()
        queue.sync {}
        let port = inner.withLock { s -> SerialPort? in
            s.stopped = true
            defer { s.port = nil }
            return s.port
        }
        if let port {
            port.close(drained: port.drain(seconds: 1))
        }
    }
}
