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
