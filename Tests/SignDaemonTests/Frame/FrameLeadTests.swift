import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SignDaemon

/// When work meant for a frame runs: `FrameClock.lead` before it, on the frame clock's time.
@Suite("FrameLead")
struct FrameLeadTests {
    static let queue = DispatchQueue(label: "test.frame-lead")

    @Test("scene time follows the clock it is given; work for a frame runs 2 ms before it")
    func beforeTheFrame() {
        let time = VirtualClock(monotonic: 5_000_000_000)
        let clock = FrameClock(fps: 50, time: time, realtimeOffset: time.realtimeOffset) { _ in }
        #expect(clock.sceneTime() == 0)
        let ran = Mutex<[Double]>([])
        clock.run(beforeFrameAt: 1, on: Self.queue) { ran.withLock { $0.append(clock.sceneTime()) } }
        time.advance(by: 0.997)
        #expect(ran.withLock { $0 }.isEmpty)
        time.advance(by: 0.001)
        #expect(ran.withLock { $0 } == [0.998])
        #expect(clock.sceneTime() == 0.998)
    }

    @Test("a wall-clock instant maps to the first frame due at or after it; its work runs 2 ms before that instant")
    func wallClockInstant() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let time = VirtualClock(monotonic: 0, date: start)
        let clock = FrameClock(fps: 50, time: time, realtimeOffset: time.realtimeOffset) { _ in }
        #expect(abs(clock.sceneTime(ofFirstFrameAtOrAfter: start.addingTimeInterval(10.005)) - 10.02) < 1e-9)
        #expect(abs(clock.sceneTime(ofFirstFrameAtOrAfter: start.addingTimeInterval(10)) - 10) < 1e-9)
        let ran = Mutex<UInt64?>(nil)
        _ = clock.run(beforeFrameAtDate: start.addingTimeInterval(3), leeway: .nanoseconds(0), on: Self.queue) {
            ran.withLock { $0 = time.now() }
        }
        time.advance(by: 5)
        let at = ran.withLock { $0 }
        // Within a microsecond: a Date is a Double of seconds since 1970.
        #expect(at.map { abs(Int64($0) - 2_998_000_000) < 1_000 } == true)
    }
}
