import Glibc
import Testing

@testable import SignTiming

@Suite("Spring")
struct SpringTests {
    /// The same oscillator integrated numerically (RK4, 1e-5 s steps): m x'' + c x' + k x = 0
    /// with x(0) = 1 and x'(0) = -v0, independent of the closed form under test.
    static func integrated(_ s: Spring, until t: Double) -> Double {
        var x = 1.0, v = -s.initialVelocity
        let h = 1e-5
        func a(_ x: Double, _ v: Double) -> Double { -(s.stiffness * x + s.damping * v) / s.mass }
        for _ in 0..<Int((t / h).rounded()) {
            let k1x = v, k1v = a(x, v)
            let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return 1 - x
    }

    @Test(
        "values follow the damped oscillator (under-, critically and over-damped)",
        arguments: [
            Spring(), Spring(damping: 5), Spring(damping: 20), Spring(damping: 40),
            Spring(mass: 2, stiffness: 300, damping: 8, initialVelocity: 4),
        ])
    func closedForm(spring: Spring) {
        for t in [0.05, 0.1, 0.3, 0.7, 1.2] {
            #expect(abs(spring.fraction(at: t) - Self.integrated(spring, until: t)) < 1e-6, "t = \(t)")
        }
    }

    @Test("an underdamped spring overshoots its target")
    func overshoots() {
        let spring = Spring(damping: 5)
        #expect((0..<100).map { spring.fraction(at: Double($0) / 100) }.max()! > 1.3)
    }

    @Test("settlingDuration matches Apple's published figures")
    func settling() {
        // Apple: damping 5 settles in about 2.85 s, damping 15 in just over 1 s.
        #expect(abs(Spring(damping: 5).settlingDuration - 2.85) < 0.05)
        let fifteen = Spring(damping: 15).settlingDuration
        #expect(fifteen > 1 && fifteen < 1.1)
        // After settling, the motion stays within the rest threshold.
        let s = Spring(damping: 5)
        for i in 0..<200 {
            #expect(abs(1 - s.fraction(at: s.settlingDuration + Double(i) / 100)) <= Spring.restThreshold)
        }
        #expect(Spring(damping: 40).settlingDuration > 0)
    }
}
