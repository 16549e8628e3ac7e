/// A short list of numbers held inline, up to eight without a heap allocation: a gradient's
/// `locations`, which an animation writes anew every frame.
public struct NumberList: Sendable, Hashable, RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    /// How many numbers fit inline.
    public static let inlineCapacity = 8
    // Lanes past `count` stay zero and `spilled` stays empty up to the capacity, so the
    // synthesised equality and hashing compare the list's contents.
    private var inline = SIMD8<Double>()
    /// Every number, when there are more than fit inline.
    private var spilled: [Double] = []
    public private(set) var count: Int

    /// A list of `count` numbers, the `i`th being `value(i)`.
    public init(count: Int, _ value: (Int) -> Double) {
        self.count = count
        if count > Self.inlineCapacity {
            spilled = (0..<count).map(value)
        } else {
            for i in 0..<count { inline[i] = value(i) }
        }
    }

    public init(_ numbers: some Collection<Double>) {
        let array = Array(numbers)
        self.init(count: array.count) { array[$0] }
    }

    public init(arrayLiteral numbers: Double...) {
        self.init(numbers)
    }

    /// The lists combined number by number with `op`; `nil` when their lengths differ.
    @inlinable public func combined(with other: NumberList, _ op: (Double, Double) -> Double) -> NumberList? {
        guard count == other.count else { return nil }
        return NumberList(count: count) { op(self[$0], other[$0]) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(i: Int) -> Double {
        get {
            precondition(i >= 0 && i < count, "index \(i) out of range for \(count) numbers")
            return count > Self.inlineCapacity ? spilled[i] : inline[i]
        }
        set {
            precondition(i >= 0 && i < count, "index \(i) out of range for \(count) numbers")
            if count > Self.inlineCapacity { spilled[i] = newValue } else { inline[i] = newValue }
        }
    }
}

extension NumberList: CustomStringConvertible {
    public var description: String { Array(self).description }
}
