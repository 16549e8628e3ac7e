import SignTiming
import Testing

@testable import SignScene

@Suite("MarqueePath")
struct MarqueePathTests {
    @Test(
        "the strip's position is home - (speed * t) mod (text width + gap)",
        arguments: [0.0, 0.1, 1.0 / 60, 0.5, 1.234, 3.3, 59.99, 3600.017])
    func followsSpeedTimesTime(t: Double) {
        let path = MarqueePath(home: 4, cycle: 98, speed: 30, beginTime: 0)
        let expected = 4 - (30 * t).truncatingRemainder(dividingBy: 98)
        #expect(abs(path.stripX(at: t) - expected) < 1e-9)
    }

    @Test("motion starts at the time the text was set")
    func beginTime() {
        let path = MarqueePath(home: 0, cycle: 100, speed: 25, beginTime: 10)
        #expect(path.stripX(at: 10) == 0)
        #expect(abs(path.stripX(at: 11) - -25) < 1e-9)
        #expect(path.stripX(at: 9) == 0)
    }

    @Test("the loop ends when the strip is next back home")
    func loopEnd() {
        let path = MarqueePath(home: 0, cycle: 100, speed: 25, beginTime: 10)
        #expect(path.loopEnd(after: 11) == 14)
        #expect(path.loopEnd(after: 14) == 14)
        #expect(path.loopEnd(after: 14.5) == 18)
    }

    @Test("a still path stays home")
    func still() {
        let path = MarqueePath(home: 31, cycle: 66, speed: 0, beginTime: 0)
        #expect(path.stripX(at: 123.4) == 31)
        #expect(path.loopEnd(after: 5) == 5)
    }
}

@Suite("Marquee modes")
struct MarqueeModeTests {
    @Test("continuous-reverse moves right by speed * t, wrapping at the cycle")
    func reverse() {
        let path = MarqueePath(home: 4, cycle: 100, speed: 20, beginTime: 0, mode: .continuousReverse)
        #expect(abs(path.stripX(at: 1) - 24) < 1e-9)
        #expect(abs(path.stripX(at: 5.5) - 14) < 1e-9)
    }

    @Test("a pause at home holds the text, then it moves at full speed")
    func pauseAtHome() {
        let path = MarqueePath(home: 0, cycle: 60, speed: 30, beginTime: 0, mode: .continuous, pause: 1)
        #expect(path.timing.duration == 3)
        #expect(path.stripX(at: 0.5) == 0)
        #expect(abs(path.stripX(at: 2) - -30) < 1e-9)
        #expect(path.stripX(at: 3.5) == 0)
        #expect(path.loopEnd(after: 0.1) == 3)
    }

    @Test("left-right goes out, holds, comes back and holds, easing each move")
    func bounce() {
        // Travel -40 px at 20 px/s: 2 s each way, 1 s holds: a 6 s loop.
        let path = MarqueePath(home: 8, cycle: 0, speed: 20, beginTime: 0, mode: .leftRight, pause: 1, bounce: -40)
        #expect(path.timing.duration == 6)
        #expect(path.stripX(at: 0.5) == 8)
        #expect(abs(path.stripX(at: 2) - (8 - 40 * TimingFunction.easeInEaseOut(0.5))) < 1e-9)
        #expect(abs(path.stripX(at: 3.5) - -32) < 1e-9)
        #expect(abs(path.stripX(at: 5) - (8 - 40 * (1 - TimingFunction.easeInEaseOut(0.5)))) < 1e-9)
        #expect(abs(path.stripX(at: 6) - 8) < 1e-9)
    }

    @Test("loops count completed cycles from the moment the text was set")
    func loops() {
        let path = MarqueePath(home: 0, cycle: 50, speed: 25, beginTime: 10)
        #expect(path.loops(at: 9) == 0 && path.loops(at: 11.9) == 0)
        #expect(path.loops(at: 12) == 1 && path.loops(at: 17) == 3)
        #expect(MarqueePath(home: 0, cycle: 50, speed: 0, beginTime: 0).loops(at: 100) == 0)
    }
}
