import Dispatch
import Glibc
import SignGraphics
import Synchronization

/// An output that shows the frames live in the terminal on standard output. It draws on
/// its own queue at most `maxRate` times a second, always the newest frame, so a slow
/// terminal never holds up the frame clock.
public final class TerminalPreview: FrameSink {
    public let name: String
    public let kind = "terminal"
    public var state: OutputState { .ok }

    private struct Pending {
        var frame: Frame?
        var number: UInt64 = 0
        /// The display's brightness scale for the frame (`DisplaySetting.scale`).
        var scale: UInt32 = 65536
        var drawing = false
        var stopped = false
    }

    private let pending = Mutex(Pending())
    private let queue = DispatchQueue(label: "signd.terminal-preview")
    private let minimumInterval: UInt64
    private let caption: @Sendable (UInt64) -> String
    private let fd: Int32
    private nonisolated(unsafe) var image: TerminalImage  // only touched on `queue`
    private nonisolated(unsafe) var lastDraw: UInt64 = 0  // only touched on `queue`
    private nonisolated(unsafe) var drawn: Frame?  // only touched on `queue`
    private nonisolated(unsafe) var lastFullRedraw: UInt64 = 0  // only touched on `queue`
    /// Byte to byte, the display's brightness applied in linear light (only touched on `queue`).
    private nonisolated(unsafe) var dimming: (scale: UInt32, table: [UInt8]) = (65536, [])

    /// Whether standard output is a terminal (the preview's default depends on it).
    public static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// A preview on file descriptor `fd` with a caption line under the picture.
    public init(
        name: String, fd: Int32 = STDOUT_FILENO, maxRate: Double = 30,
        caption: @escaping @Sendable (UInt64) -> String = { "frame \($0)" }
    ) {
        self.name = name
        self.fd = fd
        self.minimumInterval = UInt64(1e9 / max(maxRate, 1))
        self.caption = caption
        var size = winsize()
        let columns = ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 1000
        self.image = TerminalImage(columns: columns)
        write(TerminalImage.begin)
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        let schedule = pending.withLock { p -> Bool in
            guard !p.stopped else { return false }
            Frame.copy(frame, into: &p.frame)
            p.number = number
            p.scale = display.scale
            if p.drawing { return false }
            p.drawing = true
            return true
        }
        if schedule { queue.async { self.draw() } }
    }

    private func draw() {
        let now = DispatchTime.now().uptimeNanoseconds
        if now < lastDraw + minimumInterval {
            // Too soon: draw the newest frame when the interval has passed.
            queue.asyncAfter(deadline: .init(uptimeNanoseconds: lastDraw + minimumInterval)) { self.draw() }
            return
        }
        // Repaint everything now and then, so stray output or a resized window heals.
        if now >= lastFullRedraw + 2_000_000_000 {
            lastFullRedraw = now
            image.invalidate()
        }
        lastDraw = now
        // Copy out under the lock rather than share the array, so `send` never triggers a copy-on-write.
        let shown = pending.withLock { p -> (number: UInt64, scale: UInt32)? in
            p.drawing = false
            guard !p.stopped, let frame = p.frame else { return nil }
            Frame.copy(frame, into: &drawn)
            return (p.number, p.scale)
        }
        guard let (number, scale) = shown else { return }
        dim(scale)
        guard let frame = drawn else { return }
        var bytes = image.update(to: frame)
        let captionRow = (frame.height / max(1, (frame.width + image.columns - 1) / image.columns) + 1) / 2 + 1
        bytes.append(contentsOf: "\u{1B}[\(captionRow);1H\u{1B}[2K\(caption(number))".utf8)
        write(bytes)
    }

    /// Dims the frame to draw as the LEDs show it: each byte to linear light, scaled, and back.
    private func dim(_ scale: UInt32) {
        guard scale < 65536, drawn != nil else { return }
        if dimming.scale != scale || dimming.table.isEmpty {
            let factor = Double(scale) / 65536
            dimming = (
                scale,
                (0..<256).map { v in
                    // The 2.2 curve LED outputs use by default.
                    UInt8((pow(pow(Double(v) / 255, 2.2) * factor, 1 / 2.2) * 255).rounded())
                }
            )
        }
        let table = dimming.table
        drawn!.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in pixels.indices { pixels[i] = table[Int(pixels[i])] }
        }
    }

    /// Stops drawing, then resets colours and shows the cursor.
    public func stop() {
        let wasRunning = pending.withLock { p -> Bool in
            defer { p.stopped = true }
            return !p.stopped
        }
        guard wasRunning else { return }
        queue.sync {}
        write(TerminalImage.end)
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
