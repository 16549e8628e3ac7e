import SignGraphics
import SignTiming

/// The value of any animatable layer property, so one animation type serves every key
/// path. Colours are straight RGBA in the sRGB-encoded space (0...1), interpolated as
/// CAGradientLayer and CALayer interpolate them.
public enum AnimatableValue: Sendable, Hashable {
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(SIMD4<Double>)
    case numbers(NumberList)
    case colors(AnimatableColors)
    case path(RoundedRect)
    /// A shape's path given as path data: interpolated point by point between paths with
    /// the same elements, as Core Animation interpolates `path`.
    case pathData(Path)

    /// The kind of value a key path takes.
    public enum Kind: Sendable, Hashable {
        case number, point, size, rect, color, numbers, colors, path

        /// How a value of this kind is written in configs and requests.
        public var example: String {
            switch self {
            case .number: return "a number"
            case .point: return "[x, y]"
            case .size: return "[width, height]"
            case .rect: return "[x, y, width, height]"
            case .color: return "a colour such as \"#ff8800\""
            case .numbers: return "an array of numbers"
            case .colors: return "an array of colours"
            case .path: return "[x, y, width, height, corner radius] or SVG path data"
            }
        }
    }

    /// Every animatable key path and the kind of value it takes.
    public static let kinds: [String: Kind] = Dictionary(
        uniqueKeysWithValues: LayerProperty.allCases.map { ($0.rawValue, $0.kind) })

    /// A value of `kind` from plain numbers and colours (as TOML and JSON carry them);
    /// `nil` when they do not fit the kind.
    public static func make(_ kind: Kind, numbers: [Double]?, colors: [Color]?) -> AnimatableValue? {
        func count(_ n: Int) -> [Double]? { numbers.flatMap { $0.count == n ? $0 : nil } }
        switch kind {
        case .number: return count(1).map { .number($0[0]) }
        case .point: return count(2).map { .point(Point(x: $0[0], y: $0[1])) }
        case .size: return count(2).map { .size(Size(width: $0[0], height: $0[1])) }
        case .rect: return count(4).map { .rect(Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])) }
        case .path:
            return count(5).map {
                .path(RoundedRect(rect: Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]), cornerRadius: $0[4]))
            }
        case .numbers: return numbers.map { .numbers(NumberList($0)) }
        case .color: return colors.flatMap { $0.count == 1 ? AnimatableValue($0[0]) : nil }
        case .colors: return colors.map { .colors(AnimatableColors(ColorList($0))) }
        }
    }

    public init(_ color: Color) {
        self = .color(Self.rgba(color))
    }

    public static func rgba(_ c: Color) -> SIMD4<Double> {
        SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)) / 255
    }

    static func color(_ v: SIMD4<Double>) -> Color {
        let c = (v.clamped(lowerBound: .zero, upperBound: .one) * 255).rounded(.toNearestOrAwayFromZero)
        return Color(red: UInt8(c.x), green: UInt8(c.y), blue: UInt8(c.z), alpha: UInt8(c.w))
    }

    public var number: Double? { if case .number(let v) = self { return v } else { return nil } }
    public var point: Point? { if case .point(let v) = self { return v } else { return nil } }
    public var rect: Rect? { if case .rect(let v) = self { return v } else { return nil } }
    public var color: Color? { if case .color(let v) = self { return Self.color(v) } else { return nil } }
    public var numbers: NumberList? { if case .numbers(let v) = self { return v } else { return nil } }
    public var colors: ColorList? { if case .colors(let v) = self { return v.list } else { return nil } }
    public var path: RoundedRect? { if case .path(let v) = self { return v } else { return nil } }
    public var pathData: Path? { if case .pathData(let v) = self { return v } else { return nil } }
}

extension AnimatableValue: Interpolatable {
    /// Values of different kinds cannot blend: the nearer end wins.
    public func interpolated(to other: AnimatableValue, fraction f: Double) -> AnimatableValue {
        combine(other, fallback: f < 0.5 ? self : other) { a, b in a + (b - a) * f }
    }

    public func adding(_ other: AnimatableValue) -> AnimatableValue { combine(other, fallback: self) { $0 + $1 } }
    public func subtracting(_ other: AnimatableValue) -> AnimatableValue { combine(other, fallback: self) { $0 - $1 } }
    public func scaled(by k: Double) -> AnimatableValue { combine(self, fallback: self) { a, _ in a * k } }

    public func distance(to other: AnimatableValue) -> Double {
        let d = other.subtracting(self).components
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    /// The value's numbers, in a fixed order per kind.
    var components: [Double] {
        switch self {
        case .number(let v): return [v]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.minX, r.minY, r.width, r.height]
        case .color(let c): return [c.x, c.y, c.z, c.w]
        case .numbers(let v): return Array(v)
        case .colors(let v): return (0..<v.count).flatMap { [v[$0].x, v[$0].y, v[$0].z, v[$0].w] }
        case .path(let p): return [p.rect.minX, p.rect.minY, p.rect.width, p.rect.height, p.cornerRadius]
        case .pathData(let p): return p.elements.flatMap { $0.points.flatMap { [$0.x, $0.y] } }
        }
    }

    /// Applies `op` component by component to two values of the same kind and shape.
    private func combine(
        _ other: AnimatableValue, fallback: AnimatableValue, _ op: (Double, Double) -> Double
    ) -> AnimatableValue {
        switch (self, other) {
        case (.number(let a), .number(let b)): return .number(op(a, b))
        case (.point(let a), .point(let b)): return .point(Point(x: op(a.x, b.x), y: op(a.y, b.y)))
        case (.size(let a), .size(let b)):
            return .size(Size(width: op(a.width, b.width), height: op(a.height, b.height)))
        case (.rect(let a), .rect(let b)):
            return .rect(
                Rect(
                    x: op(a.minX, b.minX), y: op(a.minY, b.minY), width: op(a.width, b.width),
                    height: op(a.height, b.height)))
        case (.color(let a), .color(let b)):
            return .color(SIMD4(op(a.x, b.x), op(a.y, b.y), op(a.z, b.z), op(a.w, b.w)))
        case (.numbers(let a), .numbers(let b)):
            // Inline up to eight: animating a gradient's locations allocates nothing.
            return a.combined(with: b, op).map(AnimatableValue.numbers) ?? fallback
        case (.colors(let a), .colors(let b)) where a.count == b.count:
            // Inline up to four: animating a gradient's colours allocates nothing.
            return .colors(
                AnimatableColors(count: a.count) {
                    let (x, y) = (a[$0], b[$0])
                    return SIMD4(op(x.x, y.x), op(x.y, y.y), op(x.z, y.z), op(x.w, y.w))
                })
        case (.path(let a), .path(let b)):
            // Fixed structure (four sides, four corners): rect and radius blend independently.
            return .path(
                RoundedRect(
                    rect: Rect(
                        x: op(a.rect.minX, b.rect.minX), y: op(a.rect.minY, b.rect.minY),
                        width: op(a.rect.width, b.rect.width), height: op(a.rect.height, b.rect.height)),
                    cornerRadius: op(a.cornerRadius, b.cornerRadius)))
        case (.pathData(let a), .pathData(let b)):
            // Paths with other elements do not blend (Core Animation leaves them undefined;
            // configs refuse them): the nearer end shows.
            return a.combined(with: b, op).map(AnimatableValue.pathData) ?? fallback
        default:
            return fallback
        }
    }
}
