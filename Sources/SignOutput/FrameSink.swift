import SignGraphics

/// The state of an output, as `status` reports it.
public enum OutputState: String, Sendable, Codable {
    /// Frames are being delivered.
    case ok
    /// The device is absent; frames resume when it returns.
    case waiting
    /// The output failed and is not delivering frames.
    case error
}

/// Where finished frames go: a shared-memory framebuffer, a terminal, a USB device.
/// `send` is called on the frame clock's queue for every frame and must never block it.
public protocol FrameSink: AnyObject, Sendable {
    /// The output's name from the config.
    var name: String { get }
    /// The kind of output (`shm`, `terminal`, ...).
    var kind: String { get }
    var state: OutputState { get }
    /// Takes frame `number`, rendered for `deadline` (CLOCK_MONOTONIC, ns), to be shown at
    /// `display`'s brightness (LED outputs and the preview; the shm framebuffer carries the
    /// picture as rendered and marks the display off). Copies what it needs before
    /// returning; never blocks.
    func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting)
    /// Finishes: marks the output stopped, restores whatever it changed.
    func stop()
    /// Frames sent, dropped, errors, reconnects (outputs that count them).
    var counters: OutputCounters? { get }
    /// What the output was made from; a reload keeps an output whose identity is unchanged
    /// (empty: the output does not take part).
    var identity: String { get }
}

extension FrameSink {
    /// Sends a frame at full brightness, the display on.
    public func send(_ frame: Frame, number: UInt64, deadline: UInt64) {
        send(frame, number: number, deadline: deadline, display: .full)
    }

    public var counters: OutputCounters? { nil }
    public var identity: String { "" }
}
