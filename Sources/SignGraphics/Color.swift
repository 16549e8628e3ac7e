/// A straight (non-premultiplied) RGBA colour with sRGB-encoded 8-bit channels, as a layer
/// property holds it.
public struct Color: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Colours that may be named in configs and requests.
    public static let named: [String: Color] = [
        "black": .black, "white": .white, "clear": .clear,
        "red": Color(red: 255, green: 0, blue: 0), "green": Color(red: 0, green: 255, blue: 0),
        "blue": Color(red: 0, green: 0, blue: 255), "yellow": Color(red: 255, green: 255, blue: 0),
        "cyan": Color(red: 0, green: 255, blue: 255), "magenta": Color(red: 255, green: 0, blue: 255),
        "orange": Color(red: 255, green: 165, blue: 0), "gray": Color(red: 128, green: 128, blue: 128),
        "grey": Color(red: 128, green: 128, blue: 128), "amber": Color(red: 255, green: 191, blue: 0),
    ]

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or a name from `Color.named`.
    public init?(parsing text: String) {
        let lower = text.lowercased()
        if let named = Color.named[lower] {
            self = named
            return
        }
        guard lower.hasPrefix("#") else { return nil }
        var hex = String(lower.dropFirst())
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
        if hex.count == 6 {
            self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
        } else {
            self.init(
                red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xff), blue: UInt8(value >> 8 & 0xff),
                alpha: UInt8(value & 0xff))
        }
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hexString: String {
        func hex(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }

    /// Straight-alpha interpolation in the encoded space, as CAGradientLayer interpolates `colors`.
    public func interpolated(to other: Color, fraction: Double) -> Color {
        if fraction >= 0 && fraction <= 1 {
            // The common case, all four channels at once: a + (b - a) * f for f in 0...1 never
            // leaves a...b (rounding is monotonic and both ends are exact), so the clamp
            // below would change nothing, and f is a number.
            let a = SIMD4<Double>(Double(red), Double(green), Double(blue), Double(alpha))
            let b = SIMD4<Double>(Double(other.red), Double(other.green), Double(other.blue), Double(other.alpha))
            let v = a + (b - a) * fraction + 0.5
            return Color(
                red: UInt8(truncatingIfNeeded: Int(v[0])), green: UInt8(truncatingIfNeeded: Int(v[1])),
                blue: UInt8(truncatingIfNeeded: Int(v[2])), alpha: UInt8(truncatingIfNeeded: Int(v[3])))
        }
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            // Rounded half up by truncation (no libm call): the value is clamped to 0...255 first.
            let v = Double(a) + (Double(b) - Double(a)) * fraction
            // A fraction that is not a number (a degenerate gradient axis) takes the first colour.
            guard !v.isNaN else { return a }
            return UInt8(truncatingIfNeeded: Int(v.clamped(to: 0...255) + 0.5))
        }
        return Color(
            red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue),
            alpha: mix(alpha, other.alpha))
    }
}

extension Comparable {
    @inlinable func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
