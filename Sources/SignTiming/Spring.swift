import Glibc

/// The physics of `CASpringAnimation`: a damped harmonic oscillator pulling the value from
/// its start to its end.
public struct Spring: Sendable, Hashable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    /// Initial velocity in units of the whole distance per second; positive is towards the end.
    public var initialVelocity: Double

    /// Core Animation's defaults: mass 1, stiffness 100, damping 10, velocity 0.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = max(mass, 1e-9)
        self.stiffness = max(stiffness, 1e-9)
        self.damping = max(damping, 0)
        self.initialVelocity = initialVelocity
    }

    var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// How far along the way (0 at the start, 1 at rest at the end; it may overshoot) the
    /// value is `t` seconds in: the closed-form solution of m x'' + c x' + k x = 0.
    public func fraction(at t: Double) -> Double { 1 - displacement(at: t) }

    /// The remaining displacement, 1 at the start, decaying to 0.
    func displacement(at t: Double) -> Double {
        guard t > 0 else { return 1 }
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        if zeta == 1 {
            return (1 + (w0 - v0) * t) * exp(-w0 * t)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
        let c2 = (-v0 - r1) / (r2 - r1)
        return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
    }

    /// The relative displacement below which the spring counts as at rest.
    static let restThreshold = 8e-4

    /// How long the spring takes to come to rest: when the envelope of its motion falls below
    /// 8e-4 of the distance. The threshold is fitted to Apple's published figures (mass 1,
    /// stiffness 100: damping 5 settles in about 2.85 s, damping 15 in just over 1 s).
    public var settlingDuration: Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v0 = initialVelocity, eps = Self.restThreshold
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let amplitude = (1 + pow((zeta * w0 - v0) / wd, 2)).squareRoot()
            return max(0, log(amplitude / eps) / (zeta * w0))
        }
        if zeta > 1 {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let c2 = (-v0 - r1) / (r2 - r1)
            let envelope = { (t: Double) in abs(1 - c2) * exp(r1 * t) + abs(c2) * exp(r2 * t) }
            return Self.firstTime(below: eps, envelope)
        }
        let b = abs(w0 - v0)
        return Self.firstTime(below: eps) { t in (1 + b * t) * exp(-w0 * t) }
    }

    /// The time a decreasing envelope falls to `eps`, by doubling then bisection.
    private static func firstTime(below eps: Double, _ envelope: (Double) -> Double) -> Double {
        var high = 0.01
        while envelope(high) > eps && high < 1e6 { high *= 2 }
        var low = 0.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if envelope(mid) > eps { low = mid } else { high = mid }
        }
        return high
    }
}
