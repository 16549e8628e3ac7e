/// A value an animation can move: it can be interpolated (and extrapolated, for springs and
/// overshooting curves), added for additive, `byValue` and cumulative animations, and
/// measured for paced keyframes.
public protocol Interpolatable: Sendable, Equatable {
    /// The value a `fraction` of the way from `self` to `other`; fractions outside [0, 1]
    /// extrapolate along the same line.
    func interpolated(to other: Self, fraction: Double) -> Self
    /// `self + other`.
    func adding(_ other: Self) -> Self
    /// `self - other`.
    func subtracting(_ other: Self) -> Self
    /// `self * factor`.
    func scaled(by factor: Double) -> Self
    /// How far apart two values are, for paced keyframes.
    func distance(to other: Self) -> Double
}

extension Double: Interpolatable {
    public func interpolated(to other: Double, fraction: Double) -> Double { self + (other - self) * fraction }
    public func adding(_ other: Double) -> Double { self + other }
    public func subtracting(_ other: Double) -> Double { self - other }
    public func scaled(by factor: Double) -> Double { self * factor }
    public func distance(to other: Double) -> Double { abs(other - self) }
}

/// Arrays (`locations`, `colors`) interpolate element by element. Arrays of different
/// lengths cannot be blended: the nearer end wins, as Core Animation switches discretely.
extension Array: Interpolatable where Element: Interpolatable {
    @inlinable public func interpolated(to other: [Element], fraction: Double) -> [Element] {
        guard count == other.count else { return fraction < 0.5 ? self : other }
        return zip(self, other).map { $0.interpolated(to: $1, fraction: fraction) }
    }
    @inlinable public func adding(_ other: [Element]) -> [Element] {
        count == other.count ? zip(self, other).map { $0.adding($1) } : self
    }
    @inlinable public func subtracting(_ other: [Element]) -> [Element] {
        count == other.count ? zip(self, other).map { $0.subtracting($1) } : self
    }
    @inlinable public func scaled(by factor: Double) -> [Element] { map { $0.scaled(by: factor) } }
    @inlinable public func distance(to other: [Element]) -> Double {
        guard count == other.count else { return 0 }
        return zip(self, other).reduce(0) { sum, pair in
            let d = pair.0.distance(to: pair.1)
            return sum + d * d
        }.squareRoot()
    }
}

/// Four channels (a colour's RGBA) interpolate lane by lane.
extension SIMD4: Interpolatable where Scalar == Double {
    public func interpolated(to other: SIMD4<Double>, fraction: Double) -> SIMD4<Double> {
        self + (other - self) * fraction
    }
    public func adding(_ other: SIMD4<Double>) -> SIMD4<Double> { self + other }
    public func subtracting(_ other: SIMD4<Double>) -> SIMD4<Double> { self - other }
    public func scaled(by factor: Double) -> SIMD4<Double> { self * factor }
    public func distance(to other: SIMD4<Double>) -> Double {
        let d = other - self
        // Summed in lane order, as any other list of components is.
        return (d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w).squareRoot()
    }
}
