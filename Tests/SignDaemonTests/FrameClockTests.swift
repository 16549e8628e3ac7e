import Foundation
import Synchronization
import Testing

@testable import SignDaemon

@Suite("FrameClock", .serialized)
struct FrameClockTests {
    final class Ticks: Sendable {
        let list = Mutex<[FrameClock.Tick]>([])
        let stallAt = Atomic<UInt64>(0)
    }

    @Test("frame n has time n / fps and its deadline on the origin's grid, numbers only increasing")
    func deadlinesFromOrigin() async throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 120) { tick in ticks.list.withLock { $0.append(tick) } }
        clock.start()
        try await Task.sleep(for: .milliseconds(300))
        clock.stop()
        let list = ticks.list.withLock { $0 }
        #expect(list.count > 10)
        for (a, b) in zip(list, list.dropFirst()) { #expect(b.number > a.number) }
        for t in list {
            #expect(t.time == Double(t.number) / 120)
            #expect(t.deadline == clock.origin + UInt64((Double(t.number) * 1e9 / 120).rounded()))
        }
        #expect(clock.stats.frames == UInt64(list.count))
    }

    @Test("a stalled frame is followed by the newest due frame, and the skipped ones count as dropped")
    func skipsAfterStall() async throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 100) { tick in
            ticks.list.withLock { $0.append(tick) }
            if tick.number == 5 { Thread.sleep(forTimeInterval: 0.1) }
        }
        let reported = Mutex<[FrameClock.Stall]>([])
        clock.onStall { stall in reported.withLock { $0.append(stall) } }
        clock.start()
        try await Task.sleep(for: .milliseconds(400))
        clock.stop()
        try await Task.sleep(for: .milliseconds(50))
        let numbers = ticks.list.withLock { $0.map(\.number) }
        let after = numbers[numbers.firstIndex(of: 5)! + 1]
        // 100 ms at 100 fps: about ten deadlines passed during the stall.
        #expect(after >= 12)
        #expect(clock.stats.dropped >= after - 6)
        #expect(clock.stats.dropped == numbers.last! - UInt64(numbers.count))
        // Counted as a stall: every tick that skipped three frames or more.
        let stalls = zip(numbers, numbers.dropFirst()).filter { $1 - $0 - 1 >= 3 }.count
        #expect(stalls >= 1 && clock.stats.stalls == UInt64(stalls))
        // Reported with what a log needs: the frame after the long render, and that render's length.
        let first = try #require(reported.withLock { $0.first { $0.frame == after } })
        #expect(first.skipped == after - 6 && first.lateMilliseconds >= 50 && first.previousRenderMilliseconds >= 99)
    }

    @Test("re-timing keeps frame numbers rising and scene time running on without a jump")
    func retime() async throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 100) { tick in ticks.list.withLock { $0.append(tick) } }
        clock.start()
        try await Task.sleep(for: .milliseconds(200))
        clock.retime(fps: 50)
        try await Task.sleep(for: .milliseconds(200))
        clock.stop()
        let list = ticks.list.withLock { $0 }
        let switched = try #require(list.firstIndex { $0.time - Double($0.number) / 100 > 1e-9 })
        let before = list[switched - 1], after = list[switched]
        #expect(after.number > before.number)
        #expect(abs(after.time - before.time - Double(after.number - before.number) / 50) < 1e-9)
        #expect(clock.fps == 50)
        for (a, b) in zip(list[switched...], list[switched...].dropFirst()) {
            #expect(abs((b.time - a.time) - Double(b.number - a.number) / 50) < 1e-9)
            #expect(b.deadline - a.deadline == (b.number - a.number) * 20_000_000)
        }
    }
}
