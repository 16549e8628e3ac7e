import SignGraphics
import Synchronization

/// The newest frame, kept for viewers that look at the board from elsewhere (the web page's
/// live picture, `/api/frame.png`). The frame clock hands it every frame; a viewer copies
/// the newest out when it wants one, so however many viewers there are, or however slow,
/// the clock only ever copies one frame into storage it already has.
///
/// The frame is the picture as rendered, like the shm framebuffer's: the display's
/// brightness is not applied (a viewer shows it as a setting), and a display that is off
/// shows black, as every output does.
public final class LiveFrame: FrameSink {
    public let name: String
    public let kind = "live"
    public var state: OutputState { .ok }

    private struct Slot {
        var frame: Frame?
        var number: UInt64 = 0
    }

    private let slot = Mutex(Slot())
    /// The number of the newest frame, readable without the lock (0: none yet).
    private let newest = Atomic<UInt64>(0)

    public init(name: String = "live") {
        self.name = name
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        slot.withLock { s in
            Frame.copy(frame, into: &s.frame)
            s.number = number
        }
        newest.store(number &+ 1, ordering: .releasing)
    }

    public func stop() {}

    /// The number of the newest frame plus one, so that 0 means none has come yet; cheap
    /// enough to poll.
    public var newestMark: UInt64 { newest.load(ordering: .acquiring) }

    /// The newest frame and its number, copied out (nil before the first frame).
    public func latest() -> (frame: Frame, number: UInt64)? {
        slot.withLock { s in s.frame.map { ($0, s.number) } }
    }

    /// Calls `body` with the newest frame while holding it (nil before the first frame); for
    /// copying it straight into a buffer of the caller's. Keep `body` short: the frame clock
    /// waits for it.
    public func withLatest<R>(_ body: (Frame?, UInt64) -> R) -> R {
        slot.withLock { s in body(s.frame, s.number) }
    }
}
