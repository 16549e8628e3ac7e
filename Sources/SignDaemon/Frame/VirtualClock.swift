import Dispatch
import Foundation
import Synchronization

/// A clock for tests, as NIO's `EmbeddedEventLoop`: time stands still until `advance` moves
/// it, and then the work that falls due runs in order of its moment (then of scheduling), on
/// the calling thread (inside its queue's `sync`), with `now()` reading that moment. Work
/// scheduled by work that runs is run too when it falls due before the advance ends. Nothing
/// waits for anything real, so a test is as exact on a slow machine as on a fast one.
public final class VirtualClock: SignClock {
    private enum Due {
        case monotonic(UInt64)
        /// Unix ns on the wall clock: follows `stepWallClock`.
        case wall(Int64)
    }

    private struct Job {
        let id: UInt64
        var due: Due
        let interval: UInt64?
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private struct State {
        var now: UInt64
        /// Wall clock minus monotonic, ns.
        var wallOffset: Int64
        var nextID: UInt64 = 1
        var jobs: [Job] = []

        func moment(_ due: Due) -> UInt64 {
            switch due {
            case .monotonic(let ns): return ns
            case .wall(let unix): return UInt64(max(0, unix - wallOffset))
            }
        }
    }

    private let state: Mutex<State>

    /// A clock reading `monotonic` ns on CLOCK_MONOTONIC and `date` on the wall clock.
    public init(monotonic: UInt64 = 1_000_000_000_000, date: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        let unix = Int64((date.timeIntervalSince1970 * 1e9).rounded())
        state = Mutex(State(now: monotonic, wallOffset: unix - Int64(monotonic)))
    }

    public func now() -> UInt64 { state.withLock { $0.now } }

    public func date() -> Date {
        state.withLock { Date(timeIntervalSince1970: Double(Int64($0.now) + $0.wallOffset) / 1e9) }
    }

    /// CLOCK_REALTIME minus CLOCK_MONOTONIC, ns (for a `FrameClock`'s realtime grid).
    public func realtimeOffset() -> Int64 { state.withLock { $0.wallOffset } }

    /// How much work waits to run.
    public var pending: Int { state.withLock { $0.jobs.count } }

    public func schedule(
        at deadline: UInt64, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        add(.monotonic(deadline), interval: nil, queue: queue, work)
    }

    public func schedule(
        atDate date: Date, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        add(.wall(Int64((date.timeIntervalSince1970 * 1e9).rounded())), interval: nil, queue: queue, work)
    }

    public func scheduleRepeating(
        every interval: Double, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        let ns = UInt64(max(1, (interval * 1e9).rounded()))
        return add(.monotonic(now() &+ ns), interval: ns, queue: queue, work)
    }

    public func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        _ = add(.monotonic(now()), interval: nil, queue: queue, work)
    }

    private func add(
        _ due: Due, interval: UInt64?, queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        let id = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.jobs.append(Job(id: id, due: due, interval: interval, queue: queue, work: work))
            return id
        }
        return Scheduled(clock: self, id: id)
    }

    fileprivate func cancel(_ id: UInt64) { state.withLock { $0.jobs.removeAll { $0.id == id } } }

    /// Moves time on by `seconds`, running the work that falls due on the way.
    public func advance(by seconds: Double) {
        advance(to: now() &+ UInt64(max(0, seconds * 1e9).rounded()))
    }

    /// Moves time on to the monotonic moment `target` (ns), running the work that falls due
    /// on the way, each at its own moment.
    public func advance(to target: UInt64) {
        while let job = nextDue(by: target) {
            job.queue.sync(execute: job.work)
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Runs the work due now (what `async` queued, timers whose moment has come).
    public func runDue() { advance(by: 0) }

    /// Steps the wall clock by `seconds` (an NTP correction, a hand-set clock); monotonic
    /// time does not move, and wall-clock timers now fire by the new reading.
    public func stepWallClock(by seconds: Double) {
        state.withLock { $0.wallOffset += Int64((seconds * 1e9).rounded()) }
    }

    /// The first job due by `target`, taken off the list (a repeating one put back for its next
    /// time), with `now` moved to its moment.
    private func nextDue(by target: UInt64) -> Job? {
        state.withLock { s -> Job? in
            var best: (index: Int, moment: UInt64)?
            for (i, job) in s.jobs.enumerated() {
                let moment = s.moment(job.due)
                if moment <= target, best == nil || moment < best!.moment { best = (i, moment) }
            }
            guard let best else { return nil }
            let job = s.jobs[best.index]
            s.now = max(s.now, best.moment)
            if let interval = job.interval {
                // Put back after the others due at the same moment, with a new place in line.
                s.jobs.remove(at: best.index)
                var again = job
                again.due = .monotonic(best.moment &+ interval)
                s.jobs.append(again)
            } else {
                s.jobs.remove(at: best.index)
            }
            return job
        }
    }

    private final class Scheduled: ScheduledWork {
        private let clock: VirtualClock
        private let id: UInt64

        init(clock: VirtualClock, id: UInt64) {
            self.clock = clock
            self.id = id
        }

        func cancel() { clock.cancel(id) }
    }
}
