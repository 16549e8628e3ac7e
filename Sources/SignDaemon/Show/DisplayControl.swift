import SignOutput
import Synchronization

/// The display's brightness and whether it is on: what `set-brightness` and `display`
/// change and every frame reads. A fade runs from the brightness shown when it was asked for
/// to its target, linearly in linear light over scene time, so every frame's level is exact.
public final class DisplayControl: Sendable {
    /// A brightness moving from `from` at scene time `start` to `to` over `duration` seconds.
    public struct Fade: Sendable, Equatable {
        public var from: Double
        public var to: Double
        public var start: Double
        public var duration: Double

        /// The brightness at scene time `t`.
        public func value(at t: Double) -> Double {
            guard t >= start else { return from }
            guard duration > 0, t < start + duration else { return to }
            return from + (to - from) * ((t - start) / duration)
        }
    }

    private struct State {
        var fade: Fade
        var on: Bool
        /// When a request last set the brightness (Unix time), against the schedule's changes.
        var setAt: Double?
    }

    private let state: Mutex<State>

    /// A display at `brightness` (0 to 1), on or off.
    public init(brightness: Double = 1, on: Bool = true, setAt: Double? = nil) {
        state = Mutex(
            State(fade: Fade(from: brightness, to: brightness, start: 0, duration: 0), on: on, setAt: setAt))
    }

    /// What the frame at scene time `t` shows: the brightness there, and whether the display is on.
    public func setting(at t: Double) -> DisplaySetting {
        state.withLock { DisplaySetting(brightness: $0.fade.value(at: t), on: $0.on) }
    }

    /// The brightness being faded to (or shown): what a restart comes back to.
    public var target: Double { state.withLock { $0.fade.to } }

    /// Whether the display is on.
    public var isOn: Bool { state.withLock { $0.on } }

    /// When a request last set the brightness (Unix time), or nil.
    public var setAt: Double? { state.withLock { $0.setAt } }

    /// The fade in effect.
    public var fade: Fade { state.withLock { $0.fade } }

    /// Moves to `value` from scene time `now` on, over `duration` seconds (0: at once), from
    /// whatever brightness the frame at `now` shows, so a fade that interrupts another
    /// carries on from where that one stood.
    /// `requestedAt` (Unix time) marks a change a request made, which holds until the
    /// schedule's next change.
    public func setBrightness(_ value: Double, duration: Double = 0, now: Double, requestedAt: Double? = nil) {
        state.withLock { s in
            s.fade = Fade(from: s.fade.value(at: now), to: value, start: now, duration: max(0, duration))
            if let requestedAt { s.setAt = requestedAt }
        }
    }

    /// Carries on a fade that began before `now`: from `level` now to `value`, over the
    /// `remaining` seconds (what a start or reload in the middle of a scheduled fade shows).
    public func resume(level: Double, to value: Double, remaining: Double, now: Double) {
        state.withLock { s in
            s.fade = Fade(from: level, to: value, start: now, duration: max(0, remaining))
            s.setAt = nil
        }
    }

    /// Turns the display on or off; off shows black on every output while the clock runs on.
    public func setOn(_ on: Bool) { state.withLock { $0.on = on } }
}
