import Testing

@testable import SignTiming

@Suite("Animations")
struct AnimationTests {
    func basic(_ values: BasicValues<Double>, duration: Double = 1) -> PropertyAnimation<Double, String> {
        PropertyAnimation(keyPath: "opacity", motion: .basic(values), timing: MediaTiming(duration: duration))
    }

    @Test(
        "fromValue, toValue and byValue in every combination",
        arguments: [
            (BasicValues<Double>(from: 2, to: 6), 4.0),
            (BasicValues(from: 2, by: 6), 5.0),
            (BasicValues(to: 6, by: 2), 5.0),
            (BasicValues(from: 2), 6.0),
            (BasicValues(to: 6), 8.0),
            (BasicValues(by: 4), 12.0),
            (BasicValues(), 10.0),
        ])
    func basicCombinations(values: BasicValues<Double>, expectedHalfway: Double) {
        // The model value is 10.
        #expect(basic(values).value(atParentTime: 0.5, base: 10) == expectedHalfway)
    }

    @Test("additive adds to the value beneath")
    func additive() {
        var a = basic(BasicValues(from: 0, to: 4))
        a.isAdditive = true
        #expect(a.value(atParentTime: 0.5, base: 10) == 12)
    }

    @Test("cumulative carries each repeat on from the last")
    func cumulative() {
        var a = basic(BasicValues(from: 1, to: 3))
        a.timing.repeatCount = 3
        a.isCumulative = true
        #expect(a.value(atParentTime: 0.5, base: 0) == 2)
        #expect(a.value(atParentTime: 1.5, base: 0) == 4)
        #expect(a.value(atParentTime: 2.5, base: 0) == 6)
    }

    @Test("the timing function eases the whole animation")
    func timingFunction() {
        var a = basic(BasicValues(from: 0, to: 1))
        a.timingFunction = .easeIn
        #expect(abs(a.value(atParentTime: 0.5, base: 0)! - 0.31535681257253931) < 1e-7)
    }

    @Test("keyframe segments follow keyTimes, each eased by its own function after the animation's")
    func keyframeSegments() {
        let k = Keyframes<Double>(values: [0, 10, 20], keyTimes: [0, 0.2, 1], timingFunctions: [.linear, .easeIn])
        #expect(k.value(at: 0.1) == 5)
        #expect(k.value(at: 0.2) == 10)
        #expect(abs(k.value(at: 0.6)! - (10 + 10 * 0.31535681257253931)) < 1e-6)
        var a = PropertyAnimation(keyPath: "x", motion: .keyframes(k), timing: MediaTiming(duration: 2))
        a.timingFunction = .steps(2)
        // steps(2) turns 0.3 s (p = 0.15) into p = 0, and 1.2 s (p = 0.6) into p = 0.5.
        #expect(a.value(atParentTime: 0.3, base: 0) == 0)
        #expect(abs(a.value(atParentTime: 1.2, base: 0)! - (10 + 10 * TimingFunction.easeIn(0.375))) < 1e-9)
    }

    @Test("without keyTimes the keyframes are evenly spaced")
    func evenKeyframes() {
        let k = Keyframes<Double>(values: [0, 10, 40, 0])
        #expect(k.value(at: 1.0 / 3) == 10)
        #expect(abs(k.value(at: 0.5)! - 25) < 1e-12)
    }

    @Test("discrete keyframes hold each value until the next key time")
    func discrete() {
        let k = Keyframes<Double>(values: [1, 2, 3], calculationMode: .discrete)
        #expect([0, 0.32, 0.34, 0.66, 0.67, 0.99, 1].map { k.value(at: $0)! } == [1, 1, 2, 2, 3, 3, 3])
    }

    @Test("paced keyframes move at constant speed, ignoring keyTimes")
    func paced() {
        let k = Keyframes<Double>(values: [0, 10, 40], keyTimes: [0, 0.9, 1], calculationMode: .paced)
        // 40 units in all: 10 at p = 0.25, 25 at p = 0.625.
        #expect(k.value(at: 0.25) == 10)
        #expect(k.value(at: 0.625) == 25)
    }

    @Test("cubic keyframes pass through every value smoothly")
    func cubic() {
        let k = Keyframes<Double>(values: [0, 10, 10, 0], calculationMode: .cubic)
        #expect(k.value(at: 1.0 / 3) == 10 && k.value(at: 2.0 / 3) == 10)
        // Between two equal values the curve bulges (tangents 5 and -5): 10 + 2 * 5 / 8.
        #expect(abs(k.value(at: 0.5)! - 11.25) < 1e-9)
    }

    @Test("a child's beginTime counts from its group's start, and the group clips it")
    func groupTime() {
        let child = PropertyAnimation<Double, String>(
            keyPath: "x", motion: .basic(BasicValues(from: 0, to: 10)),
            timing: MediaTiming(beginTime: 1, duration: 2, fillMode: .both))
        let group = Animation.group(
            AnimationGroup(timing: MediaTiming(beginTime: 5, duration: 2), animations: [.property(child)]))
        var values: [String: Double] = ["x": -1]
        func at(_ t: Double) -> Double {
            values["x"] = -1
            group.apply(atParentTime: t, to: &values)
            return values["x"]!
        }
        #expect(at(4.9) == -1)  // before the group
        #expect(at(5.5) == 0)  // child filled backwards
        #expect(at(6.5) == 2.5)  // 0.5 s into the child
        #expect(at(7.5) == -1)  // the group (2 s) has ended; the child is cut off
    }

    @Test("a spring animation moves between its ends along the oscillator")
    func springAnimation() {
        let spring = Spring(damping: 5)
        let a = PropertyAnimation<Double, String>(
            keyPath: "position.x", motion: .spring(BasicValues(from: 0, to: 640), spring),
            timing: MediaTiming(duration: 2))
        #expect(abs(a.value(atParentTime: 0.3, base: 0)! - 640 * spring.fraction(at: 0.3)) < 1e-9)
    }

    @Test("locations arrays interpolate element by element (the seed shimmer)")
    func locations() {
        let a = PropertyAnimation<[Double], String>(
            keyPath: "locations", motion: .basic(BasicValues(from: [0, 0, 0.25], to: [0.75, 1, 1])),
            timing: MediaTiming(duration: 1.7, repeatCount: .infinity))
        #expect(a.value(atParentTime: 0, base: [0.25, 0.5, 0.75]) == [0, 0, 0.25])
        let half = a.value(atParentTime: 0.85, base: [])!
        #expect(zip(half, [0.375, 0.5, 0.625]).allSatisfy { abs($0 - $1) < 1e-12 })
        // Each loop jumps back.
        #expect(a.value(atParentTime: 1.7, base: []) == [0, 0, 0.25])
    }
}

/// A dictionary of values by name: the simplest thing an animation writes to.
extension Dictionary: AnimationTarget {}
