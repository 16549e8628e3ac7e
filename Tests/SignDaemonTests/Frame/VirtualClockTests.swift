import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SignDaemon

/// The test clock itself: work runs at its moment, in order, on the calling thread, and only
/// when time is moved on.
@Suite("VirtualClock")
struct VirtualClockTests {
    static let queue = DispatchQueue(label: "test.virtual-clock")

    /// What ran, with the clock's reading when it did.
    final class Log: Sendable {
        let entries = Mutex<[(String, UInt64)]>([])
        func add(_ name: String, _ clock: VirtualClock) { entries.withLock { $0.append((name, clock.now())) } }
        var names: [String] { entries.withLock { $0.map(\.0) } }
        var moments: [UInt64] { entries.withLock { $0.map(\.1) } }
    }

    @Test("work runs in order of its moment, then of scheduling, each with now() reading its moment")
    func order() {
        let clock = VirtualClock(monotonic: 1_000)
        let log = Log()
        _ = clock.schedule(at: 3_000, leeway: .nanoseconds(0), on: Self.queue) { log.add("c", clock) }
        _ = clock.schedule(at: 2_000, leeway: .nanoseconds(0), on: Self.queue) { log.add("a", clock) }
        _ = clock.schedule(at: 2_000, leeway: .nanoseconds(0), on: Self.queue) { log.add("b", clock) }
        clock.async(on: Self.queue) { log.add("soon", clock) }
        #expect(log.names.isEmpty, "nothing runs until time is moved")
        clock.advance(to: 2_500)
        #expect(log.names == ["soon", "a", "b"])
        #expect(log.moments == [1_000, 2_000, 2_000])
        #expect(clock.now() == 2_500)
        clock.advance(by: 1e-6)
        #expect(log.names == ["soon", "a", "b", "c"])
        #expect(log.moments.last == 3_000)
        #expect(clock.pending == 0)
    }

    @Test("work scheduled by work runs in the same advance when it falls due within it; cancelled work never runs")
    func chainedAndCancelled() {
        let clock = VirtualClock(monotonic: 0)
        let log = Log()
        _ = clock.schedule(after: 1, leeway: .nanoseconds(0), on: Self.queue) {
            log.add("first", clock)
            _ = clock.schedule(after: 1, leeway: .nanoseconds(0), on: Self.queue) { log.add("second", clock) }
        }
        let cancelled = clock.schedule(after: 1.5, leeway: .nanoseconds(0), on: Self.queue) { log.add("no", clock) }
        cancelled.cancel()
        clock.advance(by: 5)
        #expect(log.names == ["first", "second"])
        #expect(log.moments == [1_000_000_000, 2_000_000_000])
    }

    @Test("a repeating timer fires once a period, the first one period on, until cancelled")
    func repeating() {
        let clock = VirtualClock(monotonic: 0)
        let log = Log()
        let timer = clock.scheduleRepeating(every: 1, leeway: .nanoseconds(0), on: Self.queue) {
            log.add("tick", clock)
        }
        clock.advance(by: 3.5)
        #expect(log.moments == [1_000_000_000, 2_000_000_000, 3_000_000_000])
        timer.cancel()
        clock.advance(by: 10)
        #expect(log.names.count == 3)
    }

    @Test("a wall-clock timer follows a step of the wall clock; a monotonic one does not")
    func wallClockStep() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = VirtualClock(monotonic: 0, date: start)
        let log = Log()
        _ = clock.schedule(atDate: start.addingTimeInterval(60), leeway: .nanoseconds(0), on: Self.queue) {
            log.add("wall", clock)
        }
        _ = clock.schedule(after: 60, leeway: .nanoseconds(0), on: Self.queue) { log.add("monotonic", clock) }
        clock.advance(by: 10)
        clock.stepWallClock(by: 30)  // NTP puts the clock 30 s on
        #expect(clock.date() == start.addingTimeInterval(40))
        clock.advance(by: 20)
        #expect(log.names == ["wall"], "the wall clock reads the minute 20 s on")
        #expect(log.moments == [30_000_000_000])
        clock.advance(by: 30)
        #expect(log.names == ["wall", "monotonic"])
    }

    @Test("a date passed runs at once; the wall clock moves with monotonic time")
    func pastDate() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = VirtualClock(monotonic: 5_000_000_000, date: start)
        let log = Log()
        _ = clock.schedule(atDate: start.addingTimeInterval(-5), leeway: .nanoseconds(0), on: Self.queue) {
            log.add("late", clock)
        }
        clock.runDue()
        #expect(log.names == ["late"])
        clock.advance(by: 2.5)
        #expect(clock.date() == start.addingTimeInterval(2.5))
        #expect(clock.monotonic(at: start.addingTimeInterval(3.5)) == 8_500_000_000)
    }
}
