import Testing

@testable import SignTiming

/// A layer's local time (`CALayer` as it adopts CAMediaTiming), held to Apple's documented
/// rules computed here, apart from signd's code: `t = (t_parent - beginTime) * speed` decides
/// the active window (`duration * repeatCount`, twice that when it autoreverses, or
/// `repeatDuration`), `timeOffset` shifts the time within it (wrapping), each cycle of
/// `duration` starts again, odd half-cycles run backwards when it autoreverses, and
/// `fillMode` holds the first or last time outside the window.
@Suite("Layer time")
struct LayerTimeTests {
    /// Apple's rules for a layer with a duration; `nil`: the layer has no time then.
    static func expected(_ m: MediaTiming, _ parent: Double) -> Double? {
        let d = m.duration
        let active = m.repeatDuration > 0 ? m.repeatDuration : d * max(m.repeatCount, 1) * (m.autoreverses ? 2 : 1)
        var t = (parent - m.beginTime) * m.speed
        if t < 0 {
            guard m.fillMode == .backwards || m.fillMode == .both else { return nil }
            t = 0
        } else if t > active {
            guard m.fillMode == .forwards || m.fillMode == .both else { return nil }
            t = active
        }
        t += m.timeOffset
        if t > active { t -= active * (t / active).rounded(.down) }
        if t == active {
            // The very end shows the last cycle's end.
            let cycles = (active / d).rounded(.up)
            return m.autoreverses && Int(cycles) % 2 == 0 ? 0 : active - d * (cycles - 1)
        }
        let half = (t / d).rounded(.down)
        let within = t - half * d
        return m.autoreverses && Int(half) % 2 == 1 ? d - within : within
    }

    static let timings: [MediaTiming] = [
        MediaTiming(
            beginTime: 1, duration: 3, speed: 2, timeOffset: 0.5, repeatCount: 2, autoreverses: true, fillMode: .both),
        MediaTiming(beginTime: 0.5, duration: 2, speed: 0.5, repeatCount: 1.5, fillMode: .forwards),
        MediaTiming(beginTime: -1, duration: 1, speed: 1, timeOffset: 0.25, repeatCount: .infinity, autoreverses: true),
        MediaTiming(beginTime: 2, duration: 4, speed: 3, repeatDuration: 10, fillMode: .backwards),
        MediaTiming(duration: 2, speed: 1, fillMode: .removed),
    ]

    @Test(
        "with a duration, a layer's time repeats, autoreverses and fills as Apple's formulas give", arguments: timings)
    func cycles(timing: MediaTiming) {
        // Every 0.07 s over 12 s: no sample lands on a cycle's boundary but by chance, and the
        // rules agree there too.
        for i in 0..<171 {
            let t = -0.5 + Double(i) * 0.07
            let got = timing.layerTime(atParentTime: t)
            let want = Self.expected(timing, t)
            if let got, let want {
                #expect(abs(got - want) < 1e-9, "at \(t)")
            } else {
                #expect(
                    got == nil && want == nil, "at \(t): \(String(describing: got)) against \(String(describing: want))"
                )
            }
        }
    }

    @Test("without a duration a layer's time runs on: (t - beginTime) * speed + timeOffset, from its begin time")
    func endless() {
        let timing = MediaTiming(beginTime: 2, speed: 1.5, timeOffset: 0.25)
        #expect(timing.layerTime(atParentTime: 1.9) == nil)
        #expect(timing.layerTime(atParentTime: 2) == 0.25)
        #expect(timing.layerTime(atParentTime: 6) == (6 - 2) * 1.5 + 0.25)
        #expect(timing.layerTime(atParentTime: 100_000) == (100_000 - 2) * 1.5 + 0.25)
        var held = timing
        held.fillMode = .backwards
        #expect(held.layerTime(atParentTime: 0) == 0.25)
    }

    @Test("speed 0 with a time offset holds a layer's time at the offset whatever the parent's time")
    func pauseIdiom() {
        let paused = MediaTiming(speed: 0, timeOffset: 1.5)
        for t in [0.0, 0.4, 7, 86_400] { #expect(paused.layerTime(atParentTime: t) == 1.5) }
        // The resume half of the idiom: speed 1 again, begin time at the pause's parent time
        // minus the paused time, so local time carries on from 1.5.
        let resumed = MediaTiming(beginTime: 10 - 1.5)
        #expect(resumed.layerTime(atParentTime: 10) == 1.5)
        #expect(resumed.layerTime(atParentTime: 12) == 3.5)
    }

    @Test("a layer with no time of its own reads its parent's time unchanged")
    func identity() {
        let plain = MediaTiming()
        #expect(plain.isLayerIdentity)
        for t in [-3.0, 0, 2.5, 1e9] { #expect(plain.layerTime(atParentTime: t) == t) }
        #expect(!MediaTiming(beginTime: 1).isLayerIdentity && !MediaTiming(duration: 1).isLayerIdentity)
    }

    @Test("a parent with no time (NaN or infinite) gives its sublayers none, never a crash")
    func noParentTime() {
        for timing in Self.timings + [MediaTiming(), MediaTiming(speed: 0, timeOffset: 1)] {
            #expect(timing.layerTime(atParentTime: .nan) == nil)
            #expect(timing.layerTime(atParentTime: .infinity) == nil)
        }
    }
}

@Suite("Layer time at the limits")
struct LayerTimeLimitTests {
    @Test("a vanishing duration with endless autoreversing cycles gives a time, never a trap")
    func vanishingDuration() {
        for timing in [
            MediaTiming(duration: 1e-320, speed: 1000, repeatCount: .infinity, autoreverses: true),
            MediaTiming(duration: 1e-300, speed: 1000, timeOffset: 86_400, repeatCount: 1e9, autoreverses: true),
        ] {
            for t in [0.0, 1, 86_400, 1e9] {
                let local = timing.layerTime(atParentTime: t)
                #expect(local.map { $0 >= 0 && $0 <= timing.duration } ?? true, "at \(t)")
            }
        }
    }
}
