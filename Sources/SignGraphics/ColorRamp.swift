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

    /// The colour at a position along the gradient's axis (0 at startPoint, 1 at endPoint):
    /// the locations walked in order, a decreasing one counting as the running maximum. A
    /// fill that reads many positions unpacks the ramp once instead (`withReader`).
    public func color(at position: Double) -> Color { withReader { $0.color(at: position) } }
}

extension ColorRamp {
    /// The ramp unpacked for a fill that reads it at many positions: each stop's resolved
    /// location and its colour in doubles, so a position costs a few comparisons and one
    /// interpolation, none of the lists' checked reads. `color(at:)` is this walk.
    struct Reader {
        struct Stop {
            /// The running maximum of the locations up to this stop, as `color(at:)` walks them.
            var location: Double
            var color: Color
            /// The channels, and the steps to the next stop's, in doubles (both exact).
            var channels: SIMD4<Double>
            var step: SIMD4<Double>
        }

        let stops: UnsafeBufferPointer<Stop>

        /// The ramp's flat ends: at a position at most `low` the colour is the first, past
        /// `high` the last (what `color(at:)` returns there). `nil` when the ramp has fewer
        /// than two colours or a location is not a finite number.
        var flatEnds: (low: Double, high: Double)? {
            guard stops.count > 1, stops.allSatisfy({ $0.location.isFinite }) else { return nil }
            return (stops[0].location, stops[stops.count - 1].location)
        }

        /// The colour at `position` (`ColorRamp.color(at:)`).
        @inline(__always)
        func color(at position: Double) -> Color {
            let n = stops.count
            guard n > 1 else { return n == 1 ? stops[0].color : .clear }
            var previous = stops[0].location
            if position <= previous { return stops[0].color }
            for i in 1..<n {
                let current = stops[i].location
                if position <= current {
                    let span = current - previous
                    let f = span > 0 ? (position - previous) / span : 1
                    // previous < position <= current, so f lies in 0...1: `interpolated`'s
                    // common case, the same sums.
                    guard f >= 0 && f <= 1 else {
                        return stops[i - 1].color.interpolated(to: stops[i].color, fraction: f)
                    }
                    let v = stops[i - 1].channels + stops[i - 1].step * f + 0.5
                    return Color(
                        red: UInt8(truncatingIfNeeded: Int(v[0])), green: UInt8(truncatingIfNeeded: Int(v[1])),
                        blue: UInt8(truncatingIfNeeded: Int(v[2])), alpha: UInt8(truncatingIfNeeded: Int(v[3])))
                }
                previous = current
            }
            return stops[n - 1].color
        }
    }

    /// Calls `body` with the ramp unpacked (on the stack: nothing is allocated for a ramp of
    /// a few colours).
    func withReader<R>(_ body: (Reader) -> R) -> R {
        let n = colors.count
        return withUnsafeTemporaryAllocation(of: Reader.Stop.self, capacity: Swift.max(n, 1)) { buffer in
            // Read once: each read of the optional list copies it.
            let given = locations.flatMap { $0.count == n ? $0 : nil }
            var running = -Double.infinity
            for i in 0..<n {
                let c = colors[i]
                let next = colors[Swift.min(i + 1, n - 1)]
                let channels = SIMD4<Double>(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
                let to = SIMD4<Double>(Double(next.red), Double(next.green), Double(next.blue), Double(next.alpha))
                let location = given?[i] ?? Double(i) / Double(Swift.max(n - 1, 1))
                running = i == 0 ? location : Swift.max(running, location)
                (buffer.baseAddress! + i).initialize(
                    to: Reader.Stop(location: running, color: c, channels: channels, step: to - channels))
            }
            defer { buffer.baseAddress!.deinitialize(count: n) }
            return body(Reader(stops: UnsafeBufferPointer(start: buffer.baseAddress!, count: n)))
        }
    }
}
