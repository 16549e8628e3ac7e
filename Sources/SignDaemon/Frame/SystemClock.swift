import Dispatch
import Foundation
import SignTiming

/// The machine's time: CLOCK_MONOTONIC, the wall clock, and strict Dispatch timers.
public struct SystemClock: SignClock {
    public init() {}

    public func now() -> UInt64 { MonotonicClock.now() }

    public func date() -> Date { Date() }

    public func schedule(
        at deadline: UInt64, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        // DispatchTime counts the same monotonic nanoseconds on Linux.
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: leeway)
        return DispatchTimer(timer, work)
    }

    public func schedule(
        atDate date: Date, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        let fire = max(date.timeIntervalSince1970, Date().timeIntervalSince1970)
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        let spec = timespec(tv_sec: Int(fire.rounded(.down)), tv_nsec: Int((fire - fire.rounded(.down)) * 1e9))
        timer.schedule(wallDeadline: DispatchWallTime(timespec: spec), leeway: leeway)
        return DispatchTimer(timer, work)
    }

    public func scheduleRepeating(
        every interval: Double, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
        return DispatchTimer(timer, repeats: true, work)
    }

    public func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}

/// A Dispatch timer, activated with its handler; cancelling it is thread-safe. It holds
/// itself (through its handler) until it is cancelled, or, fired once, cancels itself: a
/// source nothing holds is freed, and its work would never run.
private final class DispatchTimer: ScheduledWork, @unchecked Sendable {
    private let timer: DispatchSourceTimer

    init(_ timer: DispatchSourceTimer, repeats: Bool = false, _ work: @escaping @Sendable () -> Void) {
        self.timer = timer
        timer.setEventHandler { [self] in
            work()
            if !repeats { self.timer.cancel() }  // lets go of the handler, and so of itself
        }
        timer.activate()
    }

    func cancel() { timer.cancel() }
}
