/// The order in which a chip takes a LED's three colour bytes on the wire (`"GRB"` for a
/// WS2812, `"BGR"` for an APA102), as indexes into an R, G, B triple.
public struct ColourOrder: Sendable, Equatable, CustomStringConvertible {
    /// The six orders, by name.
    public static let names = ["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"]
    /// Which of R (0), G (1), B (2) goes first, second and third.
    public let first: Int, second: Int, third: Int

    /// nil when `name` is not one of `names` (upper or lower case).
    public init?(_ name: String) {
        let upper = name.uppercased()
        guard Self.names.contains(upper) else { return nil }
        let index = upper.map { "RGB".firstIndex(of: $0).map { "RGB".distance(from: "RGB".startIndex, to: $0) } ?? 0 }
        (first, second, third) = (index[0], index[1], index[2])
    }

    /// R (0), G (1) or B (2) first, second and third (a permutation of the three).
    init(first: Int, second: Int, third: Int) {
        precondition(Set([first, second, third]) == [0, 1, 2], "not an order of R, G and B")
        (self.first, self.second, self.third) = (first, second, third)
    }

    public var description: String {
        let letters: [Character] = ["R", "G", "B"]
        return String([letters[first], letters[second], letters[third]])
    }
}

extension ColourOrder {
    /// R, G, B as the frame has them.
    public static let rgb = ColourOrder("RGB")!
}
