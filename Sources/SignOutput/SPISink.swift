import CSPIDev
import Dispatch
import Glibc
import SignGraphics
import Synchronization

/// Streams frames to an LED strip on a Linux SPI device (`/dev/spidevB.C`): APA102 and
/// SK9822 frames, or WS2812 bit patterns. `send` colours and encodes on the frame clock's
/// queue; the transfer, which blocks for as long as the bits take to clock out, runs on the
/// output's own queue. A frame that arrives while one is still being clocked out waits in
/// the one pending slot, and a newer one replaces it (the older counts as dropped). A frame
/// larger than spidev's buffer (`/sys/module/spidev/parameters/bufsiz`, 4096 bytes unless
/// raised) goes in several SPI_IOC_MESSAGE transfers. APA102 and SK9822 dim through their
/// 5-bit global brightness first (`APA102Frame.split`), so a dim sign keeps its colours' range.
public final class SPISink: FrameSink {
    /// What the strip is made of.
    public enum Chip: Sendable, Equatable {
        case apa102(APA102Frame.Chip)
        case ws2812(WS2812SPIFrame)
    }

    public let name: String
    public let kind = "spi"
    public let identity: String
    /// How often a missing device is looked for.
    public static let retryInterval = DispatchTimeInterval.seconds(1)

    private struct Inner {
        /// In the strip's channel order: LEDs are coloured straight into the frame.
        var pipeline: LEDPipeline
        /// The newest encoded frame, not yet handed to the transfer.
        var pending: [UInt8] = []
        var hasPending = false
        /// The storage a transfer is done from (empty while a transfer holds it).
        var sending: [UInt8] = []
        var busy = false
        var fd: Int32 = -1
        var chunk = 4096
        var state = OutputState.waiting
        var counters = OutputCounters()
        var everOpened = false
        var stopped = false
    }

    private let inner: Mutex<Inner>
    private let chip: Chip
    private let order: ColourOrder
    private let path: String
    private let speedHz: Int
    /// APA102/SK9822: the output's own brightness, applied with the display's through the
    /// 5-bit global brightness rather than in the colour bytes.
    private let brightness: Double
    private let cap: FrameRateCap
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private nonisolated(unsafe) var retry: DispatchSourceTimer?
    /// Runs `transfer` on the output's queue; signalling allocates nothing.
    private nonisolated(unsafe) var transferSignal: DispatchSourceUserDataAdd!

    public init(
        name: String, identity: String = "", pipeline: LEDPipeline, chip: Chip, order: ColourOrder, device: String,
        speedHz: Int, brightness: Double = 1, cap: FrameRateCap, log: @escaping @Sendable (String) -> Void
    ) {
        self.brightness = min(max(brightness, 0), 1)
        self.name = name
        self.identity = identity
        self.chip = chip
        self.order = order
        self.path = device
        self.speedHz = speedHz
        self.cap = cap
        self.log = log
        self.queue = DispatchQueue(label: "signd.spi.\(name)")
        self.inner = Mutex(Inner(pipeline: pipeline.order == order ? pipeline : pipeline.ordered(order)))
        let signal = DispatchSource.makeUserDataAddSource(queue: queue)
        signal.setEventHandler { [weak self] in self?.transfer() }
        signal.activate()
        transferSignal = signal
        open()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.retryInterval, repeating: Self.retryInterval, leeway: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.open() }
        timer.resume()
        retry = timer
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// spidev's largest transfer, from the module's parameter; 4096 when it cannot be read.
    public static func bufferSize() -> Int {
        let fd = Glibc.open("/sys/module/spidev/parameters/bufsiz", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 4096 }
        defer { Glibc.close(fd) }
        var text = [UInt8](repeating: 0, count: 32)
        let n = text.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        let digits = text.prefix(max(n, 0)).prefix { (48...57).contains($0) }
        return Int(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil } ?? 4096
    }

    /// Opens and sets up the device when it is closed.
    private func open() {
        guard inner.withLock({ !$0.stopped && $0.fd < 0 }) else { return }
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        var failure: DevicePortError?
        if fd < 0 {
            failure = .opening(path, errno: errno, group: "usually spi, or a udev rule")
        } else {
            let result = signd_spi_setup(fd, UInt32(speedHz))
            if result != 0 {
                Glibc.close(fd)
                failure =
                    -result == ENOTTY
                    ? DevicePortError("\(path) is not an SPI device (spidev)", errno: ENOTTY)
                    : DevicePortError(
                        "\(path) refused SPI mode 0 at \(speedHz) Hz: \(String(cString: strerror(-result)))",
                        errno: -result)
            }
        }
        if let failure {
            inner.withLock { s in
                guard s.counters.lastError != failure.description else { return }
                log("output \(name): \(failure)")
                s.counters.errors += 1
                s.counters.lastError = failure.description
                s.state = .waiting
            }
            return
        }
        let chunk = Self.bufferSize()
        let kept = inner.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.fd = fd
            s.chunk = chunk
            s.state = .ok
            if s.everOpened { s.counters.reconnects += 1 }
            s.everOpened = true
            s.counters.device = "\(path) at \(speedHz) Hz"
            s.counters.lastError = nil
            return true
        }
        guard kept else {
            Glibc.close(fd)
            return
        }
        log("output \(name): streaming to \(path) at \(speedHz) Hz, \(chunk) bytes a transfer")
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard cap.admits(number) else { return }
        let signal = inner.withLock { s -> Bool in
            guard !s.stopped, s.fd >= 0 else { return false }
            if s.hasPending { s.counters.dropped += 1 }
            switch chip {
            case .apa102(let kind):
                let scale = UInt32((Double(display.scale) * brightness).rounded())
                let (global, colourScale) = APA102Frame.split(scale: scale)
                APA102Frame.encode(
                    frame, scale: colourScale, brightness: global, chip: kind, through: &s.pipeline, into: &s.pending)
            case .ws2812(let patterns):
                patterns.encode(frame, scale: display.scale, through: &s.pipeline, into: &s.pending)
            }
            s.hasPending = true
            return !s.busy
        }
        if signal { transferSignal.add(data: 1) }
    }

    /// Clocks out pending frames, one after another (on the output's queue).
    private func transfer() {
        while true {
            let next = inner.withLock { s -> (fd: Int32, chunk: Int, bytes: [UInt8])? in
                guard s.hasPending, !s.busy, s.fd >= 0 else { return nil }
                s.busy = true
                s.hasPending = false
                swap(&s.pending, &s.sending)
                var bytes: [UInt8] = []
                swap(&bytes, &s.sending)
                return (s.fd, s.chunk, bytes)
            }
            guard let next else { return }
            let (fd, chunk) = (next.fd, next.chunk)
            var bytes = next.bytes
            var failure: Int32 = 0
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count, failure == 0 {
                    let length = min(chunk, raw.count - offset)
                    let n = signd_spi_write(fd, raw.baseAddress! + offset, UInt32(length), UInt32(speedHz))
                    if n < 0 { failure = -n } else { offset += length }
                }
            }
            inner.withLock { s in
                swap(&s.sending, &bytes)
                s.busy = false
                if failure == 0 {
                    s.counters.framesSent += 1
                    return
                }
                Glibc.close(s.fd)
                s.fd = -1
                s.state = .waiting
                s.counters.errors += 1
                s.counters.device = nil
                let error = "writing to \(path): \(String(cString: strerror(failure))); waiting for it to come back"
                s.counters.lastError = error
                log("output \(name): \(error)")
            }
        }
    }

    /// Clocks out the last frame (the blank one on stop), then closes the device.
    public func stop() {
        queue.sync { transfer() }
        retry?.cancel()
        let fd = inner.withLock { s -> Int32 in
            s.stopped = true
            defer { s.fd = -1 }
            return s.fd
        }
        queue.sync {}
        if fd >= 0 { Glibc.close(fd) }
    }
}
