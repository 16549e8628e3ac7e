import Foundation
import SignGraphics
import SignScene
import Synchronization
import Testing

@testable import SignDaemon

/// The frame clock's work a tick: what it reports of a frame that overran.
@Suite("RenderLoop")
struct RenderLoopTests {
    static let fonts = try! FontLibrary()

    @Test("a frame drawn in more than half its period is reported with each layer's time and state, once per interval")
    func slowFramesNameTheirLayers() throws {
        let store = try SceneStore(
            config: Scene(
                width: 64, height: 16,
                layers: [
                    TextLayer(id: "headline", text: "A text far too long to fit on this small board"),
                    TextLayer(id: "corner", text: "Hi"),
                ]),
            fonts: Self.fonts)
        let reports = Mutex<[(SlowFrameReport, Int)]>([])
        let interval: UInt64 = 300_000_000
        let loop = RenderLoop(store: store, outputs: OutputSet([]), events: EventBus(), slowFrameInterval: interval) {
            report, unreported in
            reports.withLock { $0.append((report, unreported)) }
        }
        // A period of 2 ns: every frame overruns half of it.
        for n in UInt64(1)...3 {
            loop.render(FrameClock.Tick(number: n, deadline: 0, time: Double(n) / 60, period: 2))
        }
        let deadline = Date().addingTimeInterval(5)
        while reports.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        let seen = reports.withLock { $0 }
        #expect(seen.count == 1, "frames 2 and 3 came within the interval: counted, not logged")
        let report = try #require(seen.first).0
        #expect(report.frame == 1)
        #expect(report.layers.map(\.id) == ["headline", "corner"])
        #expect(report.layers[0].showing == "marquee, 46 characters, scrolling")
        #expect(report.layers[1].showing == "marquee, 2 characters, scrolling", "a marquee scrolls by default")
        #expect(report.layers.allSatisfy { $0.nanoseconds > 0 }, "each layer's drawing was timed")
        #expect(report.message.hasPrefix("slow frame 1: drawn in "))
        #expect(report.message.contains("layers: "))

        // The next report, once the interval is over, counts the frames left out.
        Thread.sleep(forTimeInterval: Double(interval) / 1e9 + 0.05)
        loop.render(FrameClock.Tick(number: 4, deadline: 0, time: 4 / 60, period: 2))
        let later = Date().addingTimeInterval(5)
        while reports.withLock({ $0.count < 2 }) && Date() < later { Thread.sleep(forTimeInterval: 0.01) }
        let second = reports.withLock { $0 }
        #expect(second.count == 2)
        #expect(second.last?.0.frame == 4 && second.last?.1 == 2)

        // A frame well inside its period is not reported.
        loop.render(FrameClock.Tick(number: 5, deadline: 0, time: 5 / 60, period: 10_000_000_000))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(reports.withLock { $0.count } == 2)
    }
}
