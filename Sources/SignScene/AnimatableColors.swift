import SignGraphics

/// The value of a `colors` animation: straight RGBA colours in the sRGB-encoded space
/// (0...1 a channel, though sums and differences of additive animations may leave that
/// range until the ramp takes them), up to four held inline, so interpolating a gradient's
/// colours allocates nothing.
public struct AnimatableColors: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// How many colours fit inline.
    public static let inlineCapacity = 4
    // Lanes past `count` stay zero and `spilled` stays empty up to the capacity, so the
    // synthesised equality and hashing compare the contents.
    private var inline = SIMD16<Float>()
    private var spilled: [SIMD4<Float>] = []
    public private(set) var count: Int

    /// `count` colours, the `i`th being `value(i)`.
    public init(count: Int, _ value: (Int) -> SIMD4<Double>) {
        self.count = count
        if count > Self.inlineCapacity {
            spilled = (0..<count).map { SIMD4<Float>(value($0)) }
        } else {
            for i in 0..<count {
                let v = value(i)
                inline[4 * i] = Float(v.x)
                inline[4 * i + 1] = Float(v.y)
                inline[4 * i + 2] = Float(v.z)
                inline[4 * i + 3] = Float(v.w)
            }
        }
    }

    /// A ramp's colours.
    public init(_ colors: ColorList) {
        self.init(count: colors.count) { AnimatableValue.rgba(colors[$0]) }
    }

    public init(_ colors: [SIMD4<Double>]) {
        self.init(count: colors.count) { colors[$0] }
    }

    public init(arrayLiteral colors: SIMD4<Double>...) {
        self.init(colors)
    }

    /// Colour `i`.
    public subscript(i: Int) -> SIMD4<Double> {
        precondition(i >= 0 && i < count, "index \(i) out of range for \(count) colours")
        if count > Self.inlineCapacity { return SIMD4<Double>(spilled[i]) }
        return SIMD4(
            Double(inline[4 * i]), Double(inline[4 * i + 1]), Double(inline[4 * i + 2]), Double(inline[4 * i + 3]))
    }

    /// The colours as 8-bit ones, clamped (what a ramp holds).
    public var list: ColorList { ColorList(count: count) { AnimatableValue.color(self[$0]) } }
}
