import Dispatch
import Foundation

/// Time and timers, passed in: what every part that waits for a moment (the playlist, the
/// notifications, the live fields, the schedules, the MQTT heartbeat) reads the time from and
/// arms its timers on. `SystemClock` is the machine's (Dispatch timers on CLOCK_MONOTONIC and
/// the wall clock); `VirtualClock` is a test's, moved on by hand, running what falls due in
/// order on the calling thread, so a test waits for nothing real.
public protocol SignClock: Sendable {
    /// CLOCK_MONOTONIC now, ns: the clock frame deadlines are on.
    func now() -> UInt64
    /// The wall clock now: what a schedule reads the time of day from.
    func date() -> Date
    /// Runs `work` on `queue` at the monotonic moment `deadline` (ns), or at once if it has
    /// passed. Work that has run or been cancelled is gone.
    func schedule(
        at deadline: UInt64, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork
    /// Runs `work` on `queue` when the wall clock reads `date` (or at once if it has passed),
    /// following a step of the clock (NTP, a daylight-saving change) made while waiting.
    func schedule(
        atDate date: Date, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork
    /// Runs `work` on `queue` every `interval` seconds, the first time one interval from now.
    func scheduleRepeating(
        every interval: Double, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork
    /// Runs `work` on `queue` as soon as it can: `queue.async` on the system clock, the next
    /// `advance` on a virtual one (so a test decides when).
    func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
}

/// Work a `SignClock` will run, whether this is kept or not; `cancel` makes sure it does not
/// (again).
public protocol ScheduledWork: Sendable {
    func cancel()
}

extension SignClock {
    /// Runs `work` on `queue` `seconds` from now.
    public func schedule(
        after seconds: Double, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        schedule(at: now() &+ UInt64(max(0, seconds) * 1e9), leeway: leeway, on: queue, work)
    }

    /// The monotonic moment, ns, at which the wall clock will read `date` (now, if it has passed).
    public func monotonic(at date: Date) -> UInt64 {
        now() &+ UInt64(max(0, date.timeIntervalSince(self.date())) * 1e9)
    }
}
