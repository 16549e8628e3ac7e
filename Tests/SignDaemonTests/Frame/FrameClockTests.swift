import Foundation
import Synchronization
import Testing

@testable import SignDaemon

@Suite("FrameClock", .serialized)
struct FrameClockTests {
    // These drive the real Dispatch timer (what the frame clock is): they wait for the ticks
    // they look at to have come, never a fixed time, and check what the grid makes exact.
    final class Ticks: Sendable {
        let list = Mutex<[FrameClock.Tick]>([])
        var count: Int { list.withLock { $0.count } }
    }

    @Test("frame n has time n / fps and its deadline on the origin's grid, numbers only increasing")
    func deadlinesFromOrigin() throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 120) { tick in ticks.list.withLock { $0.append(tick) } }
        clock.start()
        let came = eventually { ticks.count >= 20 }
        clock.stop()
        let list = ticks.list.withLock { $0 }
        #expect(came)
        for (a, b) in zip(list, list.dropFirst()) { #expect(b.number > a.number) }
        for t in list {
            #expect(t.time == Double(t.number) / 120)
            #expect(t.deadline == clock.origin + UInt64((Double(t.number) * 1e9 / 120).rounded()))
        }
        #expect(clock.stats.frames == UInt64(list.count))
    }

    @Test(
        "on the realtime timeline frame n is due at epoch + n / fps of CLOCK_REALTIME and shows scene time n / fps; nothing counts as dropped at the start"
    )
    func realtimeGrid() throws {
        let ticks = Ticks()
        let epoch = (Date().timeIntervalSince1970 - 12.345).rounded()
        let created = Date().timeIntervalSince1970
        let clock = FrameClock(fps: 100, realtimeEpoch: epoch) { tick in ticks.list.withLock { $0.append(tick) } }
        let madeBy = Date().timeIntervalSince1970
        clock.start()
        let came = eventually { ticks.count >= 20 }
        clock.stop()
        let list = ticks.list.withLock { $0 }
        let offset = RealtimeOffset.now()
        #expect(came)
        for t in list {
            #expect(t.time == Double(t.number) / 100)
            let realtime = Double(Int64(t.deadline) + offset) / 1e9
            #expect(abs(realtime - (epoch + Double(t.number) / 100)) < 0.001, "frame \(t.number)")
        }
        let first = try #require(list.first).number
        // The grid's next frame when the clock was made, between these two:
        let (next, nextBy) = (
            UInt64(((created - epoch) * 100).rounded(.up)), UInt64(((madeBy - epoch) * 100).rounded(.up))
        )
        #expect(first >= next, "never a frame of the grid before the clock was made")
        // Only frames skipped after it count as dropped (a late first tick's included), never
        // the ones since the epoch.
        let gaps = zip(list, list.dropFirst()).reduce(UInt64(0)) { $0 + ($1.1.number - $1.0.number - 1) }
        let dropped = clock.stats.dropped
        #expect(dropped >= gaps && dropped - gaps <= first - next && dropped - gaps + nextBy >= first)
        #expect(clock.timelineStatus.kind == "realtime" && clock.timelineStatus.steps == 0)
    }

    @Test(
        "a step of the system clock lays the realtime grid anew: forward, the numbers jump ahead with nothing counted as dropped; back, they never go back and the picture holds"
    )
    func clockSteps() throws {
        let ticks = Ticks()
        let step = Atomic<Int64>(0)
        let base = RealtimeOffset.now()
        let epoch = (Date().timeIntervalSince1970 - 100).rounded()
        let clock = FrameClock(fps: 100, realtimeEpoch: epoch, realtimeOffset: { base + step.load(ordering: .relaxed) })
        {
            tick in ticks.list.withLock { $0.append(tick) }
        }
        let stepped = Mutex<[Double]>([])
        clock.onClockStep { ms in stepped.withLock { $0.append(ms) } }
        clock.start()
        #expect(eventually { ticks.count >= 10 })
        step.store(2_000_000_000, ordering: .relaxed)  // the clock jumps 2 s ahead
        // Looked at once a second; then some frames on the new grid.
        #expect(eventually { clock.timelineStatus.steps == 1 })
        let afterForward = ticks.count
        #expect(eventually { ticks.count >= afterForward + 10 })
        let forward = ticks.list.withLock { $0 }
        step.store(1_000_000_000, ordering: .relaxed)  // and 1 s back
        #expect(eventually { clock.timelineStatus.steps == 2 })
        // The grid holds about a second, then frames come again.
        let afterBack = ticks.count
        #expect(eventually { ticks.count >= afterBack + 10 })
        clock.stop()
        let all = ticks.list.withLock { $0 }
        for (a, b) in zip(all, all.dropFirst()) { #expect(b.number > a.number, "numbers only increase") }
        let jump = zip(forward, forward.dropFirst()).map { $1.number - $0.number }.max() ?? 0
        #expect(jump >= 200, "2 s at 100 fps skipped: \(jump)")
        // The 199 or more numbers a 2 s step skips are not dropped frames (a late tick's are).
        let gaps = zip(all, all.dropFirst()).map { $1.number - $0.number - 1 }
        #expect(clock.stats.dropped + 199 <= gaps.reduce(0, +), "a step is not dropped frames")
        // After the step back the clock waited about a second for the grid to reach its next number.
        let pause = zip(all, all.dropFirst()).map { Double($1.deadline) - Double($0.deadline) }.max() ?? 0
        #expect(pause > 0.9e9 && pause < 1.1e9, "held about a second: \(pause / 1e9) s")
        #expect(stepped.withLock { $0 }.map { $0.rounded() } == [2000, -1000])
        #expect(clock.timelineStatus.steps == 2)
        // The grid again: every frame at epoch + n / fps of the stepped clock.
        let last = try #require(all.last)
        let realtime = Double(Int64(last.deadline) + base + 1_000_000_000) / 1e9
        #expect(abs(realtime - (epoch + Double(last.number) / 100)) < 0.001)
    }

    @Test("a stalled frame is followed by the newest due frame, and the skipped ones count as dropped")
    func skipsAfterStall() throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 100) { tick in
            ticks.list.withLock { $0.append(tick) }
            // Real time: the stall itself, a render that holds the clock's queue for 100 ms.
            if tick.number == 5 { Thread.sleep(forTimeInterval: 0.1) }
        }
        let reported = Mutex<[FrameClock.Stall]>([])
        clock.onStall { stall in reported.withLock { $0.append(stall) } }
        clock.start()
        // Some frames after the stall, and its report (handed over on another queue).
        #expect(eventually { ticks.list.withLock { $0.last?.number ?? 0 } >= 20 && !reported.withLock(\.isEmpty) })
        clock.stop()
        let numbers = ticks.list.withLock { $0.map(\.number) }
        let after = numbers[try #require(numbers.firstIndex(of: 5)) + 1]
        // 100 ms at 100 fps: about ten deadlines passed during the stall.
        #expect(after >= 12)
        #expect(clock.stats.dropped >= after - 6)
        #expect(clock.stats.dropped == (try #require(numbers.last)) - UInt64(numbers.count))
        // Counted as a stall: every tick that skipped three frames or more.
        let stalls = zip(numbers, numbers.dropFirst()).filter { $1 - $0 - 1 >= 3 }.count
        #expect(stalls >= 1 && clock.stats.stalls == UInt64(stalls))
        // Reported with what a log needs: the frame after the long render, and that render's length.
        #expect(eventually { reported.withLock { $0.contains { $0.frame == after } } })
        let first = try #require(reported.withLock { $0.first { $0.frame == after } })
        #expect(first.skipped == after - 6 && first.lateMilliseconds >= 50 && first.previousRenderMilliseconds >= 99)
        // A render that slept held the queue itself: signd's stall, not the machine's.
        #expect(first.work.blocked && first.work.wallMilliseconds >= 99 && first.signdCaused)
        #expect(clock.stats.ownStalls >= 1)
    }

    @Test("CPU work between frames (a swap through sync) that overruns the frame is signd's stall")
    func busySyncIsOwnStall() throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 100) { tick in ticks.list.withLock { $0.append(tick) } }
        let reported = Mutex<[FrameClock.Stall]>([])
        clock.onStall { stall in reported.withLock { $0.append(stall) } }
        clock.start()
        #expect(eventually { ticks.count >= 2 })
        clock.sync {
            // 80 ms of the thread's own CPU time, without ever blocking (however long the
            // machine takes to give it that).
            let end = ThreadUsage.now().cpuNanoseconds + 80_000_000
            while ThreadUsage.now().cpuNanoseconds < end {}
        }
        let afterSync = ticks.count
        // The tick after the work, and its report (handed over on another queue).
        #expect(
            eventually {
                ticks.count > afterSync && reported.withLock { $0.contains { $0.work.cpuMilliseconds >= 79 } }
            })
        clock.stop()
        let stall = try #require(reported.withLock { $0.first { $0.work.cpuMilliseconds >= 79 } })
        #expect(stall.work.wallMilliseconds >= 79 && stall.signdCaused)
        #expect(clock.stats.ownStalls >= 1)
    }

    @Test("a stall after work that fitted in the frame, without blocking, is the machine's: a wait for a CPU")
    func classification() {
        func stall(wall: Double, cpu: Double, blocked: Bool) -> FrameClock.Stall {
            FrameClock.Stall(
                frame: 10, skipped: 4, lateMilliseconds: 40, previousRenderMilliseconds: wall,
                work: FrameClock.QueueWork(wallMilliseconds: wall, cpuMilliseconds: cpu, blocked: blocked),
                periodMilliseconds: 10)
        }
        // Preempted for 30 ms in the middle of 2 ms of work: waited for a CPU.
        #expect(!stall(wall: 32, cpu: 2, blocked: false).signdCaused)
        // A quick frame, then the tick itself came late.
        #expect(!stall(wall: 0.1, cpu: 0.1, blocked: false).signdCaused)
        // A frame period of CPU: overran.
        #expect(stall(wall: 12, cpu: 10, blocked: false).signdCaused)
        // Blocked (a lock, I/O) for a frame period.
        #expect(stall(wall: 15, cpu: 1, blocked: true).signdCaused)
        // Blocked briefly, within the frame.
        #expect(!stall(wall: 3, cpu: 1, blocked: true).signdCaused)
    }

    @Test("re-timing keeps frame numbers rising and scene time running on without a jump")
    func retime() throws {
        let ticks = Ticks()
        let clock = FrameClock(fps: 100) { tick in ticks.list.withLock { $0.append(tick) } }
        clock.start()
        #expect(eventually { ticks.count >= 10 })
        clock.retime(fps: 50)
        let retimedAt = ticks.count
        #expect(eventually { ticks.count >= retimedAt + 10 })
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
