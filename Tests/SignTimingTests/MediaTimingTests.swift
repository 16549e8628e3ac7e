import Testing

@testable import SignTiming

@Suite("MediaTiming")
struct MediaTimingTests {
    @Test("a zero duration counts as Core Animation's 0.25 s")
    func zeroDurationIsQuarterSecond() {
        let timing = MediaTiming()
        #expect(timing.simpleDuration == 0.25)
        #expect(timing.progress(atParentTime: 0.125) == 0.5)
    }

    @Test(
        "fill modes before, during and after the active window",
        arguments: [
            // (fill, parent time, expected progress)
            (FillMode.removed, -1.0, nil), (.removed, 0.5, 0.25), (.removed, 3.0, nil),
            (.forwards, -1.0, nil), (.forwards, 3.0, 1.0),
            (.backwards, -1.0, 0.0), (.backwards, 3.0, nil),
            (.both, -1.0, 0.0), (.both, 3.0, 1.0),
        ] as [(FillMode, Double, Double?)])
    func fillModes(fill: FillMode, time: Double, expected: Double?) {
        let timing = MediaTiming(duration: 2, fillMode: fill)
        #expect(timing.progress(atParentTime: time) == expected)
    }

    @Test("beginTime shifts the active window")
    func beginTimeShifts() {
        let timing = MediaTiming(beginTime: 10, duration: 4)
        #expect(timing.progress(atParentTime: 9.9) == nil)
        #expect(timing.progress(atParentTime: 11) == 0.25)
    }

    @Test("an infinite repeat wraps each cycle back to the start")
    func infiniteRepeatWraps() {
        let timing = MediaTiming(duration: 2, repeatCount: .infinity)
        #expect(timing.progress(atParentTime: 2) == 0)
        #expect(timing.progress(atParentTime: 5) == 0.5)
        #expect(timing.progress(atParentTime: 1_000_001) == 0.5)
    }

    @Test("a last cycle that ends exactly shows the end value")
    func exactEndShowsEndValue() {
        let timing = MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards)
        #expect(timing.progress(atParentTime: 2) == 1)
    }

    @Test("autoreverses runs odd half-cycles backwards and repeatCount 1 means there and back")
    func autoreverses() {
        let timing = MediaTiming(duration: 1, repeatCount: 1, autoreverses: true, fillMode: .forwards)
        #expect(timing.activeDuration == 2)
        #expect(timing.progress(atParentTime: 0.25) == 0.25)
        #expect(timing.progress(atParentTime: 1.25) == 0.75)
        #expect(timing.progress(atParentTime: 2) == 0)
    }

    @Test("speed scales local time")
    func speedScales() {
        #expect(MediaTiming(duration: 4, speed: 2).progress(atParentTime: 1) == 0.5)
        #expect(MediaTiming(duration: 4, speed: 0.5).progress(atParentTime: 4) == 0.5)
    }

    @Test("timeOffset wraps around the active duration")
    func timeOffsetWraps() {
        let timing = MediaTiming(duration: 3, timeOffset: 2)
        #expect(timing.progress(atParentTime: 0) == 2.0 / 3.0)
        #expect(timing.progress(atParentTime: 1.5) == 0.5 / 3.0)
    }

    @Test("a fractional repeatCount ends part-way through its last cycle")
    func fractionalRepeat() {
        let timing = MediaTiming(duration: 1, repeatCount: 2.5, fillMode: .forwards)
        #expect(timing.activeDuration == 2.5)
        #expect(timing.progress(atParentTime: 2.25) == 0.25)
        #expect(timing.progress(atParentTime: 9) == 0.5)
    }

    @Test("autoreverses with a fractional repeatCount ends on a forward half")
    func fractionalAutoreverse() {
        let timing = MediaTiming(duration: 1, repeatCount: 1.5, autoreverses: true, fillMode: .forwards)
        #expect(timing.activeDuration == 3)
        #expect(timing.progress(atParentTime: 1.5) == 0.5)
        #expect(timing.progress(atParentTime: 2.5) == 0.5)
        #expect(timing.progress(atParentTime: 3) == 1)
        #expect(timing.local(atParentTime: 2.5)?.cycle == 1)
    }

    @Test("repeatDuration wins over repeatCount")
    func repeatDuration() {
        let timing = MediaTiming(duration: 1, repeatCount: 10, repeatDuration: 2.5)
        #expect(timing.activeDuration == 2.5)
        #expect(timing.progress(atParentTime: 2.6) == nil)
    }

    @Test("speed 0 freezes the animation at its timeOffset")
    func speedZero() {
        let timing = MediaTiming(duration: 2, speed: 0, timeOffset: 0.5)
        #expect(timing.progress(atParentTime: 100) == 0.25)
    }
}

@Suite("MediaTiming at the limits")
struct MediaTimingLimitTests {
    @Test("an animation's vanishing duration over a long time gives a progress in [0, 1], never a trap")
    func vanishingDuration() {
        for timing in [
            MediaTiming(duration: 1e-320, repeatCount: .infinity, autoreverses: true),
            MediaTiming(duration: 1e-9, speed: 1000, repeatCount: .infinity, autoreverses: true),
            MediaTiming(duration: 1e-9, speed: 1000, repeatCount: .infinity),
        ] {
            for t in [0.5, 86_400, 1e12] {
                let p = timing.progress(atParentTime: t)
                #expect(p.map { (0...1).contains($0) } == true, "at \(t)")
            }
        }
    }
}
