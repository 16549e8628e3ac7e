import SignControl
import SignGraphics
import SignScene

/// Layer property values as requests and the saved state write them: numbers, `[x, y]`,
/// `"#rrggbbaa"`, arrays of either.
public enum PropertyValue {
    /// Largest magnitude a number in a property value may have: far beyond any board, far
    /// below what would overflow pixel arithmetic.
    public static let maxMagnitude = 1_000_000.0

    /// Reads `raw` as a value of `property`'s kind; the message says what was expected.
    public static func parse(_ raw: JSONValue, for property: LayerProperty) throws(ControlError) -> AnimatableValue {
        let kind = property.kind
        if kind == .path, let text = raw.stringValue {
            do {
                return .pathData(try PathData.parse(text))
            } catch {
                throw ControlError(.invalidArgument, "\"\(property.rawValue)\" path data \(error.description)")
            }
        }
        let numbers: [Double]? =
            raw.doubleValue.map { [$0] }
            ?? raw.arrayValue.flatMap { a in
                let n = a.compactMap(\.doubleValue)
                return n.count == a.count ? n : nil
            }
        if let numbers, !numbers.allSatisfy({ $0.isFinite && abs($0) <= maxMagnitude }) {
            throw ControlError(
                .invalidArgument,
                "\"\(property.rawValue)\" takes numbers from -\(Int(maxMagnitude)) to \(Int(maxMagnitude))")
        }
        let colors: [Color]? =
            raw.stringValue.flatMap(Color.init(parsing:)).map { [$0] }
            ?? raw.arrayValue.flatMap { a in
                let c = a.compactMap { $0.stringValue.flatMap(Color.init(parsing:)) }
                return c.count == a.count ? c : nil
            }
        guard let value = AnimatableValue.make(kind, numbers: numbers, colors: colors) else {
            throw ControlError(.invalidArgument, "\"\(property.rawValue)\" takes \(kind.example)")
        }
        return value
    }

    /// `value` written as a request would write it.
    public static func json(_ value: AnimatableValue) -> JSONValue {
        func numbers(_ n: [Double]) -> JSONValue { .array(n.map { .double($0) }) }
        func hex(_ c: Color) -> JSONValue {
            .string("#" + [c.red, c.green, c.blue, c.alpha].map { String(format2: $0) }.joined())
        }
        switch value {
        case .number(let v): return .double(v)
        case .point(let p): return numbers([p.x, p.y])
        case .size(let s): return numbers([s.width, s.height])
        case .rect(let r): return numbers([r.minX, r.minY, r.width, r.height])
        case .color: return hex(value.color!)
        case .numbers(let list): return numbers(Array(list))
        case .colors: return .array(value.colors!.map(hex))
        case .path(let p): return numbers([p.rect.minX, p.rect.minY, p.rect.width, p.rect.height, p.cornerRadius])
        case .pathData(let p): return .string(PathData.string(for: p))
        }
    }
}

extension String {
    /// Two lowercase hex digits.
    fileprivate init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self.init([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
