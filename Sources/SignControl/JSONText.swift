// JSON text read and written by hand, for the control protocol's lines.
//
// Why: the first request the daemon answers used to be its first use of Foundation's
// JSONDecoder and JSONEncoder and of Codable's generic containers, and that code is spread
// over the binary: the first `ping` mapped about 5 MB more of signd's code (page faults, each
// bringing in the 64 KB around it), most of the demo's peak RSS above its start-up
// (docs/performance.md, "Peak RSS: the first request"). These two walk the bytes and the
// enum and nothing else.
//
// The bytes and values are Foundation's, exactly: the writer follows JSONEncoder with
// `.sortedKeys` and `.withoutEscapingSlashes` (keys in the order of their UTF-8 bytes,
// `"`, `\` and control characters escaped, a double's `description` without a trailing
// `.0`, a non-finite double as 0, nothing nested 512 deep), and the reader takes only what
// it is sure of (objects without a repeated key, arrays, strings of valid UTF-8 whose
// escapes are the standard ones, integers that fit in 64 bits, `true`, `false`, `null`)
// and leaves everything else (fractions, exponents, big integers, `-0`, odd escapes, any
// error) to JSONDecoder, which answers as it always did.

/// Reads the common case of a JSON text without Foundation; `nil` when unsure.
struct PlainJSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    private var depth = 0
    /// Deeper than this, JSONDecoder decides.
    private static let maxDepth = 64

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The value of one JSON text, or `nil` for JSONDecoder to read.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = PlainJSONReader(bytes)
        guard let value = reader.value() else { return nil }
        reader.skipSpace()
        return reader.at == bytes.count ? value : nil
    }

    private var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { at += 1 }
    }

    private mutating func value() -> JSONValue? {
        skipSpace()
        guard let byte = next else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return word("true", .bool(true))
        case UInt8(ascii: "f"): return word("false", .bool(false))
        case UInt8(ascii: "n"): return word("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return nil
        }
    }

    private mutating func word(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = text.utf8CodeUnitCount
        guard bytes.count - at >= count else { return nil }
        for i in 0..<count where bytes[at + i] != text.utf8Start[i] { return nil }
        at += count
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// An integer in Int64's range, without a fraction or an exponent, and not `-0`.
    private mutating func integer() -> JSONValue? {
        let negative = next == UInt8(ascii: "-")
        if negative { at += 1 }
        guard let first = next, Self.isDigit(first) else { return nil }
        var magnitude: Int64 = 0
        if first == UInt8(ascii: "0") {
            at += 1
            if negative { return nil }
        } else {
            while let byte = next, Self.isDigit(byte) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !o1, !o2 else { return nil }
                magnitude = sum
                at += 1
            }
        }
        if let byte = next, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || Self.isDigit(byte)
        {
            return nil
        }
        return .int(negative ? -magnitude : magnitude)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Four hex digits after `\u`.
    private mutating func hex4() -> UInt32? {
        guard bytes.count - at >= 4 else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            guard let digit = Self.hexDigit(bytes[at + i]) else { return nil }
            value = value << 4 | digit
        }
        at += 4
        return value
    }

    /// A string, from its opening quote.
    private mutating func string() -> String? {
        at += 1
        let start = at
        // The common case: no escape, one run of bytes.
        while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            at += 1
        }
        guard let stop = next else { return nil }
        if stop == UInt8(ascii: "\"") {
            at += 1
            return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<at])
        while let byte = next {
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escape = next else { return nil }
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xDC00...0xDFFF).contains(code) { return nil }
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - at >= 2, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { return nil }
                        at += 2
                        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    utf8.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// Steps into a container at its opening bracket; `false` deeper than this reader goes.
    private mutating func enter() -> Bool {
        at += 1
        depth += 1
        return depth <= Self.maxDepth
    }

    /// Steps over `end` when it comes next, leaving the container.
    private mutating func leaves(at end: UInt8) -> Bool {
        skipSpace()
        guard next == end else { return false }
        at += 1
        depth -= 1
        return true
    }

    /// After an element: `true` at the container's end, `false` after a comma, `nil` otherwise.
    private mutating func ended(by end: UInt8) -> Bool? {
        if leaves(at: end) { return true }
        guard next == UInt8(ascii: ",") else { return nil }
        at += 1
        return false
    }

    private mutating func object() -> JSONValue? {
        guard enter() else { return nil }
        var object: [String: JSONValue] = [:]
        if leaves(at: UInt8(ascii: "}")) { return .object(object) }
        while true {
            skipSpace()
            guard next == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard next == UInt8(ascii: ":") else { return nil }
            at += 1
            // A key given twice (or twice in canonically equivalent spellings): JSONDecoder's call.
            guard let value = value(), object.updateValue(value, forKey: key) == nil,
                let ended = ended(by: UInt8(ascii: "}"))
            else { return nil }
            if ended { return .object(object) }
        }
    }

    private mutating func array() -> JSONValue? {
        guard enter() else { return nil }
        var array: [JSONValue] = []
        if leaves(at: UInt8(ascii: "]")) { return .array(array) }
        while true {
            guard let value = value(), let ended = ended(by: UInt8(ascii: "]")) else { return nil }
            array.append(value)
            if ended { return .array(array) }
        }
    }
}

/// Writes JSON as JSONEncoder does with `.sortedKeys` and `.withoutEscapingSlashes`.
enum PlainJSONWriter {
    /// JSONEncoder refuses containers nested this deep (and signd then writes `null`).
    static let maxDepth = 512

    static func text(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        guard write(value, to: &out, depth: 0) else { return "null" }
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8], depth: Int) -> Bool {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let b): b ? append("true", to: &out) : append("false", to: &out)
        case .int(let i): out.append(contentsOf: i.description.utf8)
        case .double(let d):
            var text = (d.isFinite ? d : 0).description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out.append(contentsOf: text.utf8)
        case .string(let s): write(s, to: &out)
        case .array(let array):
            guard depth + 1 < maxDepth else { return false }
            out.append(UInt8(ascii: "["))
            for (i, element) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                guard write(element, to: &out, depth: depth + 1) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard depth + 1 < maxDepth else { return false }
            out.append(UInt8(ascii: "{"))
            let keys = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(key, to: &out)
                out.append(UInt8(ascii: ":"))
                guard write(object[key]!, to: &out, depth: depth + 1) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        }
        return true
    }

    private static let hex: StaticString = "0123456789abcdef"

    private static func write(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"", to: &out)
            case UInt8(ascii: "\\"): append("\\\\", to: &out)
            case 0x08: append("\\b", to: &out)
            case 0x0C: append("\\f", to: &out)
            case 0x0A: append("\\n", to: &out)
            case 0x0D: append("\\r", to: &out)
            case 0x09: append("\\t", to: &out)
            case 0x00..<0x20:
                append("\\u00", to: &out)
                out.append(hex.utf8Start[Int(byte >> 4)])
                out.append(hex.utf8Start[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
