/// The values of a `CAKeyframeAnimation` and how it moves between them.
public struct Keyframes<Value: Interpolatable>: Sendable, Equatable {
    /// `calculationMode`.
    public enum CalculationMode: String, Sendable, Hashable, CaseIterable {
        /// Straight from one value to the next, each segment eased by its timing function.
        case linear
        /// Each value held until the next key time, no in-between.
        case discrete
        /// Constant speed through all values; key times and timing functions are ignored.
        case paced
        /// A smooth Catmull-Rom curve through the values.
        case cubic
    }

    public let values: [Value]
    /// Fractions of the duration, one per value (one more for discrete), from 0 to 1;
    /// `nil` spreads the values evenly.
    public let keyTimes: [Double]?
    /// One per segment (`values.count - 1`); `nil` is linear in every segment.
    public let timingFunctions: [TimingFunction]?
    public let calculationMode: CalculationMode
    /// The key times in effect, resolved once so evaluating allocates nothing.
    @usableFromInline let times: [Double]

    public init(
        values: [Value], keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
        calculationMode: CalculationMode = .linear
    ) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        let n = values.count
        func even(_ count: Int) -> [Double] { (0..<count).map { count == 1 ? 0 : Double($0) / Double(count - 1) } }
        switch calculationMode {
        case .discrete:
            times = keyTimes.flatMap { $0.count == n + 1 || $0.count == n ? $0 : nil } ?? even(n + 1)
        case .paced:
            var cumulative = [0.0]
            for i in values.indices.dropFirst() {
                cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i]))
            }
            let total = cumulative.last ?? 0
            times = total > 0 ? cumulative.map { $0 / total } : even(n)
        case .linear, .cubic:
            times = keyTimes.flatMap { $0.count == n ? $0 : nil } ?? even(n)
        }
    }

    /// The same keyframes with each value converted to another type (a layer's values typed
    /// by kind); `nil` when one does not convert. The key times in effect are kept as they
    /// are, so paced keyframes move exactly as before.
    @inlinable public func mapValues<T>(_ convert: (Value) -> T?) -> Keyframes<T>? {
        var converted: [T] = []
        converted.reserveCapacity(values.count)
        for value in values {
            guard let c = convert(value) else { return nil }
            converted.append(c)
        }
        // The same mode, named in the converted type (a nested type is one per `Value`).
        let mode: Keyframes<T>.CalculationMode
        switch calculationMode {
        case .linear: mode = .linear
        case .discrete: mode = .discrete
        case .paced: mode = .paced
        case .cubic: mode = .cubic
        }
        return Keyframes<T>(
            values: converted, keyTimes: keyTimes, timingFunctions: timingFunctions, calculationMode: mode,
            times: times)
    }

    @usableFromInline init(
        values: [Value], keyTimes: [Double]?, timingFunctions: [TimingFunction]?, calculationMode: CalculationMode,
        times: [Double]
    ) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.times = times
    }

    /// The value at progress `p` in [0, 1] (after the animation's own timing function).
    @inlinable public func value(at p: Double) -> Value? {
        guard let first = values.first else { return nil }
        let n = values.count
        if n == 1 { return first }
        switch calculationMode {
        case .discrete:
            var i = 0
            while i + 1 < n && times[i + 1] <= p { i += 1 }
            return values[i]
        case .paced:
            let (i, f) = segment(p, times)
            return values[i].interpolated(to: values[i + 1], fraction: f)
        case .linear, .cubic:
            var (i, f) = segment(p, times)
            if let functions = timingFunctions, i < functions.count { f = functions[i](f) }
            if calculationMode == .linear { return values[i].interpolated(to: values[i + 1], fraction: f) }
            return catmullRom(i, f)
        }
    }

    /// Where progress `p` falls for every mode but `cubic` (which blends four values): the
    /// index of the value shown and, when it blends that value with the next, the fraction
    /// of the way to it (`nil`: the value itself), as `value(at:)` takes them; `nil` for
    /// `cubic` or no values. For a caller that blends values into storage of its own.
    @inlinable public func blend(at p: Double) -> (index: Int, fraction: Double?)? {
        let n = values.count
        if n == 0 || calculationMode == .cubic { return nil }
        if n == 1 { return (0, nil) }
        switch calculationMode {
        case .discrete:
            var i = 0
            while i + 1 < n && times[i + 1] <= p { i += 1 }
            return (i, nil)
        case .paced, .cubic:
            let (i, f) = segment(p, times)
            return (i, f)
        case .linear:
            var (i, f) = segment(p, times)
            if let functions = timingFunctions, i < functions.count { f = functions[i](f) }
            return (i, f)
        }
    }

    /// The segment holding `p` and the fraction through it.
    @inlinable func segment(_ p: Double, _ times: [Double]) -> (Int, Double) {
        let n = times.count
        var i = 0
        while i + 2 < n && times[i + 1] <= p { i += 1 }
        let span = times[i + 1] - times[i]
        let f = span > 0 ? (p - times[i]) / span : 1
        return (i, min(max(f, 0), 1))
    }

    /// Catmull-Rom between values i and i + 1, the ends repeated beyond the first and last.
    @inlinable func catmullRom(_ i: Int, _ t: Double) -> Value {
        let p0 = values[max(i - 1, 0)], p1 = values[i], p2 = values[i + 1], p3 = values[min(i + 2, values.count - 1)]
        let t2 = t * t, t3 = t2 * t
        // Hermite form with tangents (p2 - p0) / 2 and (p3 - p1) / 2.
        let m1 = p2.subtracting(p0).scaled(by: 0.5), m2 = p3.subtracting(p1).scaled(by: 0.5)
        let h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2
        return p1.scaled(by: h00).adding(m1.scaled(by: h10)).adding(p2.scaled(by: h01)).adding(m2.scaled(by: h11))
    }
}
