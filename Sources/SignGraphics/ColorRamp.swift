/// The colour ramp of a CAGradientLayer: `colors` at `locations`, interpolated as
/// straight RGBA in the encoded space; the first and last colours extend past the ends.
public struct ColorRamp: Sendable, Hashable {
    /// Inline up to eight: animating a gradient's colours allocates nothing.
    public var colors: ColorList
    /// One per colour; `nil` spreads the colours evenly from 0 to 1, as Core Animation does.
    public var locations: NumberList?

    public init(colors: ColorList, locations: NumberList? = nil) {
        self.colors = colors
        self.locations = locations
    }

    public init(colors: [Color], locations: NumberList? = nil) {
        self.init(colors: ColorList(colors), locations: locations)
    }

    /// The locations actually used: given ones (a decreasing one counts as the running
    /// maximum, the CSS rule) or even spacing.
    public var resolvedLocations: NumberList {
        let n = colors.count
        guard let locations, locations.count == n else {
            return NumberList(count: n) { n == 1 ? 0 : Double($0) / Double(n - 1) }
        }
        var running = -Double.infinity
        return NumberList(count: n) {
            running = max(running, locations[$0])
            return running
        }
    }

    /// The ramp's flat ends: at a position at most `low` the colour is the first, past
    /// `high` the last (what `color(at:)` returns there). `nil` when the ramp has fewer than
    /// two colours or a location is not a finite number.
    var flatEnds: (low: Double, high: Double)? {
        guard colors.count > 1 else { return nil }
        let resolved = resolvedLocations
        guard resolved.allSatisfy(\.isFinite) else { return nil }
        return (resolved[0], resolved[resolved.count - 1])
    }

    /// The colour at a position along the gradient's axis (0 at startPoint, 1 at endPoint).
    /// Walks the locations in place (running maximum included): no allocation per call.
    public func color(at position: Double) -> Color {
        guard let first = colors.first else { return .clear }
        let n = colors.count
        guard n > 1 else { return first }
        let given = locations?.count == n
        @inline(__always) func location(_ i: Int) -> Double { given ? locations![i] : Double(i) / Double(n - 1) }
        var previous = location(0)
        if position <= previous { return first }
        for i in 1..<n {
            let current = max(previous, location(i))
            if position <= current {
                let span = current - previous
                let f = span > 0 ? (position - previous) / span : 1
                return colors[i - 1].interpolated(to: colors[i], fraction: f)
            }
            previous = current
        }
        return colors[n - 1]
    }
}
