/// The colour ramp of a CAGradientLayer: `colors` at `locations`, interpolated as
/// straight RGBA in the encoded space; the first and last colours extend past the ends.
public struct ColorRamp: Sendable, Hashable {
    public var colors: [Color]
    /// One per colour; `nil` spreads the colours evenly from 0 to 1, as Core Animation does.
    public var locations: [Double]?

    public init(colors: [Color], locations: [Double]? = nil) {
        self.colors = colors
        self.locations = locations
    }

    /// The locations actually used: given ones (a decreasing one counts as the running
    /// maximum, the CSS rule) or even spacing.
    public var resolvedLocations: [Double] {
        guard let locations, locations.count == colors.count else {
            let n = colors.count
            return (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        }
        var running = -Double.infinity
        return locations.map {
            running = max(running, $0); return running
        }
    }

    /// The colour at a position along the gradient's axis (0 at startPoint, 1 at endPoint).
    public func color(at position: Double) -> Color {
        guard let first = colors.first else { return .clear }
        let locs = resolvedLocations
        if colors.count == 1 || position <= locs[0] { return first }
        if position >= locs[locs.count - 1] { return colors[colors.count - 1] }
        var i = 1
        while i < locs.count && locs[i] < position { i += 1 }
        let span = locs[i] - locs[i - 1]
        let f = span > 0 ? (position - locs[i - 1]) / span : 1
        return colors[i - 1].interpolated(to: colors[i], fraction: f)
    }

    /// The alpha channel sampled at the centres of `count` pixels laid along the axis:
    /// what a horizontal gradient mask contributes to each column.
    public func alphaRamp(count: Int) -> [UInt8] {
        (0..<max(count, 0)).map { color(at: (Double($0) + 0.5) / Double(count)).alpha }
    }
}
