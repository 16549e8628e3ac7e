/// A short list of colours held inline, up to eight without a heap allocation: a gradient's
/// `colors`, which an animation writes anew every frame.
public struct ColorList: Sendable, Hashable, RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    /// How many colours fit inline.
    public static let inlineCapacity = 8
    // Lanes past `count` stay zero and `spilled` stays empty up to the capacity, so the
    // synthesised equality and hashing compare the list's contents.
    private var inline = SIMD8<UInt32>()
    /// Every colour, when there are more than fit inline.
    private var spilled: [Color] = []
    public private(set) var count: Int

    /// A list of `count` colours, the `i`th being `value(i)`.
    public init(count: Int, _ value: (Int) -> Color) {
        self.count = count
        if count > Self.inlineCapacity {
            spilled = (0..<count).map(value)
        } else {
            for i in 0..<count { inline[i] = Self.word(value(i)) }
        }
    }

    public init(_ colors: [Color]) {
        self.init(count: colors.count) { colors[$0] }
    }

    public init(arrayLiteral colors: Color...) {
        self.init(colors)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(i: Int) -> Color {
        get {
            precondition(i >= 0 && i < count, "index \(i) out of range for \(count) colours")
            return count > Self.inlineCapacity ? spilled[i] : Self.color(inline[i])
        }
        set {
            precondition(i >= 0 && i < count, "index \(i) out of range for \(count) colours")
            if count > Self.inlineCapacity { spilled[i] = newValue } else { inline[i] = Self.word(newValue) }
        }
    }

    @inline(__always)
    private static func word(_ c: Color) -> UInt32 {
        UInt32(c.red) | UInt32(c.green) << 8 | UInt32(c.blue) << 16 | UInt32(c.alpha) << 24
    }

    @inline(__always)
    private static func color(_ w: UInt32) -> Color {
        Color(
            red: UInt8(truncatingIfNeeded: w), green: UInt8(truncatingIfNeeded: w >> 8),
            blue: UInt8(truncatingIfNeeded: w >> 16), alpha: UInt8(truncatingIfNeeded: w >> 24))
    }
}

extension ColorList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
