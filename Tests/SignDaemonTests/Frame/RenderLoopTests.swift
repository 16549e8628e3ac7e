import Foundation
import SignGraphics
import SignOutput
import SignScene
import Synchronization
import Testing

@testable import SignDaemon

/// The frame clock's work a tick: what it reports of a frame that overran.
@Suite("RenderLoop")
struct RenderLoopTests {
    static let fonts = try! FontLibrary()

    /// A clock that advances `step` ns each time it is read (three reads a frame: before
    /// drawing, after drawing, after sending), so a frame takes 2 * `step`.
    final class SteppingClock: Sendable {
        private let state = Mutex<(now: UInt64, step: UInt64)>((1_000_000_000, 0))
        func set(step: UInt64) { state.withLock { $0.step = step } }
        func advance(by ns: UInt64) { state.withLock { $0.now += ns } }
        func read() -> UInt64 {
            state.withLock { s in
                s.now += s.step
                return s.now
            }
        }
    }

    @Test(
        "a frame drawn in over half its period is reported with each layer's time and state, once an interval; one of three periods always"
    )
    func slowFramesNameTheirLayers() throws {
        let store = try SceneStore(
            config: Scene(
                width: 64, height: 16,
                layers: [
                    TextLayer(id: "headline", text: "A text far too long to fit on this small board"),
                    TextLayer(id: "corner", text: "Hi"),
                ]),
            fonts: Self.fonts)
        let reports = Mutex<[(report: SlowFrameReport, unreported: Int)]>([])
        let clock = SteppingClock()
        let interval: UInt64 = 10_000_000_000
        let reportQueue = DispatchQueue(label: "test.slow-frames")
        let loop = RenderLoop(
            store: store, outputs: OutputSet([]), events: EventBus(), slowFrameInterval: interval,
            clock: { clock.read() }, reportQueue: reportQueue
        ) { report, unreported in reports.withLock { $0.append((report, unreported)) } }
        /// Frame n, its drawing and sending taking `ns`; `blocking` makes it look as if the
        /// thread had slept (one voluntary switch more than at the tick's start).
        func render(_ n: UInt64, taking ns: UInt64, period: UInt64 = 8_000_000, blocking: Bool = false) {
            clock.set(step: ns / 2)
            let switches = ThreadUsage.now().voluntarySwitches
            loop.render(
                FrameClock.Tick(
                    number: n, deadline: 0, time: Double(n) / 120, period: period,
                    switchesAtStart: blocking ? switches - 1 : switches))
        }
        /// Every report the frames so far made: a report is queued before `render` returns,
        /// so once the queue has run what it holds, none is on its way.
        func reported() -> [(report: SlowFrameReport, unreported: Int)] {
            reportQueue.sync {}
            return reports.withLock { $0 }
        }

        render(1, taking: 2_000_000)
        render(2, taking: 5_000_000)
        var seen = reported()
        #expect(seen.count == 1, "2 ms of an 8 ms period is not slow; 5 ms is")
        let report = try #require(seen.first).report
        #expect(report.frame == 2)
        #expect(report.renderNanoseconds == 2_500_000 && report.sendNanoseconds == 2_500_000)
        #expect(report.layers.map(\.id) == ["headline", "corner"])
        #expect(report.layers[0].showing == "marquee, 46 characters, scrolling")
        #expect(report.layers[1].showing == "marquee, 2 characters, scrolling", "a marquee scrolls by default")
        #expect(report.layers.allSatisfy { $0.nanoseconds > 0 }, "each layer's drawing was timed")
        #expect(report.message.hasPrefix("slow frame 2: drawn in 2.5 ms and sent in 2.5 ms ("))
        #expect(report.message.contains(" ms of CPU), over half its 8.0 ms period; "))
        #expect(report.cpuNanoseconds > 0, "the thread's CPU time since the tick began (0 here)")

        render(3, taking: 6_000_000)
        render(4, taking: 7_000_000)
        seen = reported()
        #expect(seen.count == 1, "slow frames within the interval are counted, not told")
        render(5, taking: 30_000_000)
        seen = reported()
        #expect(seen.count == 2 && seen.last?.report.frame == 5, "a frame of three periods or more is always told")
        #expect(seen.last?.unreported == 2, "with the frames left untold before it (3 and 4)")

        clock.advance(by: interval)
        render(6, taking: 5_000_000)
        seen = reported()
        #expect(seen.count == 3)
        #expect(seen.last?.report.frame == 6 && seen.last?.unreported == 0, "an interval after the last report")
        #expect(seen.last?.report.blocked == false && seen.last?.report.message.contains("blocked") == false)

        render(7, taking: 40_000_000, blocking: true)
        seen = reported()
        #expect(seen.last?.report.blocked == true && seen.last?.report.message.contains("of CPU, blocked)") == true)
    }

    /// An output that only counts the frames it is given.
    final class CountingSink: FrameSink {
        let name: String
        let kind = "test"
        let state = OutputState.ok
        let frames = Mutex(0)
        init(name: String) { self.name = name }
        func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
            frames.withLock { $0 += 1 }
        }
        func stop() {}
    }

    @Test("a slow frame's report names the time each output's send took, in the order frames go to them")
    func slowFramesTimeEachOutput() throws {
        let store = try SceneStore(
            config: Scene(width: 32, height: 8, layers: [TextLayer(id: "only", text: "Hi")]), fonts: Self.fonts)
        let reports = Mutex<[SlowFrameReport]>([])
        let clock = SteppingClock()
        let sinks = [CountingSink(name: "shm0"), CountingSink(name: "board")]
        let reportQueue = DispatchQueue(label: "test.slow-frames")
        let loop = RenderLoop(
            store: store, outputs: OutputSet(sinks), events: EventBus(), clock: { clock.read() },
            reportQueue: reportQueue
        ) { report, _ in reports.withLock { $0.append(report) } }
        // Four reads a frame with two outputs: before drawing, after drawing, after each send.
        clock.set(step: 3_000_000)
        loop.render(FrameClock.Tick(number: 9, deadline: 0, time: 0.1, period: 8_000_000))
        reportQueue.sync {}
        let report = try #require(reports.withLock { $0.first })
        #expect(sinks.map { $0.frames.withLock { $0 } } == [1, 1])
        #expect(report.sendNanoseconds == 6_000_000)
        #expect(report.outputs.map(\.name) == ["shm0", "board"])
        #expect(report.outputs.map(\.nanoseconds) == [3_000_000, 3_000_000])
        #expect(
            report.message.hasPrefix("slow frame 9: drawn in 3.0 ms and sent in 6.0 ms (shm0 3.0 ms, board 3.0 ms) ("))
    }
}
