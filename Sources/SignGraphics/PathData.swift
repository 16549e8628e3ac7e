import Foundation

/// SVG path data (the `d` attribute, SVG 1.1 section 8.3): every command (M L H V C S Q T A
/// Z) in its absolute and relative forms, implicit repeats, numbers as SVG writes them
/// (`1.5.5` is 1.5 then .5, `1e2`, `-1-2`, no separator needed), arc flags without
/// separators. Arcs become cubic curves through the endpoint-to-centre conversion of the
/// spec's appendix F.6, four per arc whatever its sweep, so two arcs interpolate point by
/// point. Bounded: `maxLength` characters, `maxPoints` points.
public enum PathData {
    /// Longest path data read, in characters.
    public static let maxLength = 65_536
    /// Most points a path may hold, control points and the curves arcs become included.
    public static let maxPoints = 10_000

    /// Why path data could not be read: the character offset (from 0) and what was wrong.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let message: String
        public var description: String { "at character \(offset): \(message)" }
    }

    /// The path `text` describes.
    public static func parse(_ text: String) throws(Failure) -> Path {
        var reader = Reader(Array(text.utf8))
        guard reader.bytes.count <= maxLength else {
            throw Failure(
                offset: maxLength,
                message: "path data is \(reader.bytes.count) bytes, more than the limit of \(maxLength)")
        }
        return try reader.path()
    }

    /// `path` written as path data, absolute commands only (M L Q C Z), which reads back
    /// as the same path.
    public static func string(for path: Path) -> String {
        func n(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
        }
        func p(_ q: Point) -> String { "\(n(q.x)) \(n(q.y))" }
        return path.elements.map { e in
            switch e {
            case .move(let a): return "M \(p(a))"
            case .line(let a): return "L \(p(a))"
            case .quadCurve(let c, let a): return "Q \(p(c)) \(p(a))"
            case .curve(let c1, let c2, let a): return "C \(p(c1)) \(p(c2)) \(p(a))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var elements: [Path.Element] = []
        var points = 0
        var current = Point.zero
        var start = Point.zero
        /// The control point a following S or T reflects, when the last command left one.
        var lastCubicControl: Point?
        var lastQuadControl: Point?
        var open = false

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func path() throws(Failure) -> Path {
            skipSpace()
            if i == bytes.count { return Path() }
            guard bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else {
                throw fail("path data starts with a move (M or m), found \"\(character(i))\"")
            }
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                let commandAt = i
                let c = bytes[i]
                guard let command = Command(rawValue: c | 0x20) else {
                    throw fail("\"\(character(i))\" is not a path command (M L H V C S Q T A Z)")
                }
                i += 1
                let relative = c >= UInt8(ascii: "a")
                if command == .close {
                    add(.close, points: 0)
                    current = start
                    open = false
                    lastCubicControl = nil
                    lastQuadControl = nil
                    continue
                }
                // The command repeats while numbers follow it; a move's repeats are lines.
                var first = true
                repeat {
                    if !first { skipCommaSpace() }
                    try step(command, relative: relative, first: first, commandAt: commandAt)
                    first = false
                    skipSpace()
                } while i < bytes.count && startsNumber(i)
            }
            return Path(elements)
        }

        enum Command: UInt8 {
            case move = 0x6D, line = 0x6C, horizontal = 0x68, vertical = 0x76, curve = 0x63
            case smoothCurve = 0x73, quad = 0x71, smoothQuad = 0x74, arc = 0x61, close = 0x7A
        }

        mutating func step(_ command: Command, relative: Bool, first: Bool, commandAt: Int) throws(Failure) {
            let base = relative ? current : .zero
            func p(_ x: Double, _ y: Double) -> Point { Point(x: base.x + x, y: base.y + y) }
            if command != .move && !open {
                // After Z, drawing goes on from the subpath's start, as a new subpath.
                add(.move(current), points: 1)
                start = current
                open = true
            }
            var cubic: Point?, quad: Point?
            switch command {
            case .move:
                let to = try p(number(after: commandAt), number(after: commandAt))
                if first {
                    add(.move(to), points: 1)
                    start = to
                    open = true
                } else {
                    add(.line(to), points: 1)
                }
                current = to
            case .line:
                current = try p(number(after: commandAt), number(after: commandAt))
                add(.line(current), points: 1)
            case .horizontal:
                let x = try number(after: commandAt)
                current = Point(x: relative ? current.x + x : x, y: current.y)
                add(.line(current), points: 1)
            case .vertical:
                let y = try number(after: commandAt)
                current = Point(x: current.x, y: relative ? current.y + y : y)
                add(.line(current), points: 1)
            case .curve:
                let c1 = try p(number(after: commandAt), number(after: commandAt))
                let c2 = try p(number(after: commandAt), number(after: commandAt))
                let to = try p(number(after: commandAt), number(after: commandAt))
                add(.curve(c1, c2, to), points: 3)
                (current, cubic) = (to, c2)
            case .smoothCurve:
                let c1 = reflected(lastCubicControl)
                let c2 = try p(number(after: commandAt), number(after: commandAt))
                let to = try p(number(after: commandAt), number(after: commandAt))
                add(.curve(c1, c2, to), points: 3)
                (current, cubic) = (to, c2)
            case .quad:
                let c = try p(number(after: commandAt), number(after: commandAt))
                let to = try p(number(after: commandAt), number(after: commandAt))
                add(.quadCurve(c, to), points: 2)
                (current, quad) = (to, c)
            case .smoothQuad:
                let c = reflected(lastQuadControl)
                let to = try p(number(after: commandAt), number(after: commandAt))
                add(.quadCurve(c, to), points: 2)
                (current, quad) = (to, c)
            case .arc:
                let rx = try number(after: commandAt), ry = try number(after: commandAt)
                let rotation = try number(after: commandAt)
                let large = try flag(), sweep = try flag()
                let to = try p(number(after: commandAt), number(after: commandAt))
                for e in Arc.curves(
                    from: current, to: to, rx: rx, ry: ry, rotation: rotation, large: large, sweep: sweep)
                {
                    add(e, points: e.points.count)
                }
                current = to
            case .close:
                break
            }
            lastCubicControl = cubic
            lastQuadControl = quad
            if points > PathData.maxPoints {
                throw Failure(
                    offset: commandAt, message: "the path holds more than \(PathData.maxPoints) points (the limit)")
            }
        }

        mutating func add(_ e: Path.Element, points n: Int) {
            // Counted before storing, so a path far past the limit never grows its storage.
            points += n
            if points <= PathData.maxPoints { elements.append(e) }
        }

        func reflected(_ control: Point?) -> Point {
            guard let c = control else { return current }
            return Point(x: 2 * current.x - c.x, y: 2 * current.y - c.y)
        }

        func character(_ at: Int) -> String {
            let b = bytes[at]
            return b < 0x80 ? String(UnicodeScalar(b)) : "non-ASCII byte 0x\(String(b, radix: 16))"
        }

        func fail(_ message: String) -> Failure { Failure(offset: i, message: message) }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }

        mutating func skipSpace() { while i < bytes.count && Self.isSpace(bytes[i]) { i += 1 } }

        mutating func skipCommaSpace() {
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: ",") { i += 1 }
            skipSpace()
        }

        func startsNumber(_ at: Int) -> Bool {
            let b = bytes[at]
            return (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".")
        }

        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }

        /// The next number, separators before it skipped (only one comma).
        mutating func number(after commandAt: Int) throws(Failure) -> Double {
            skipCommaSpace()
            let begin = i
            if i < bytes.count && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
            var digits = 0
            while isDigit(i) {
                i += 1
                digits += 1
            }
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                i += 1
                while isDigit(i) {
                    i += 1
                    digits += 1
                }
            }
            guard digits > 0 else {
                i = begin
                let found = begin < bytes.count ? "\"\(character(begin))\"" : "the end"
                throw fail("expected a number for \"\(character(commandAt))\", found \(found)")
            }
            if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                var j = i + 1
                if j < bytes.count && (bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+")) { j += 1 }
                if isDigit(j) {
                    i = j
                    while isDigit(i) { i += 1 }
                }
            }
            let text = String(decoding: bytes[begin..<i], as: UTF8.self)
            guard let value = Double(text), value.isFinite, abs(value) <= 1_000_000 else {
                throw Failure(offset: begin, message: "\(text) is not a finite number from -1000000 to 1000000")
            }
            return value
        }

        /// An arc flag: one character, 0 or 1, needing no separator after it.
        mutating func flag() throws(Failure) -> Bool {
            skipCommaSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else {
                let found = i < bytes.count ? "\"\(character(i))\"" : "the end"
                throw fail("expected an arc flag (0 or 1), found \(found)")
            }
            i += 1
            return bytes[i - 1] == UInt8(ascii: "1")
        }
    }
}

/// An elliptical arc as SVG gives it (endpoints, radii, rotation, flags), converted to
/// centre form per SVG 1.1 appendix F.6.5 and drawn as cubic curves.
enum Arc {
    /// Segments per arc: a fixed count, so arcs of any sweep have the same structure; each
    /// spans at most 90 degrees, where a cubic strays less than 0.03% of the radius.
    static let segments = 4

    static func curves(
        from p1: Point, to p2: Point, rx: Double, ry: Double, rotation degrees: Double, large: Bool, sweep: Bool
    ) -> [Path.Element] {
        // F.6.2: an arc with equal endpoints is left out; a zero radius makes it a line.
        if p1 == p2 { return [] }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { return [.line(p2)] }
        let phi = degrees * .pi / 180, cosPhi = cos(phi), sinPhi = sin(phi)
        // F.6.5 step 1: the midpoint in the ellipse's axes.
        let dx = (p1.x - p2.x) / 2, dy = (p1.y - p2.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        // F.6.6: radii too small to reach are scaled up until they just do.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s
            ry *= s
        }
        // Step 2: the centre in the ellipse's axes.
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = (max(num, 0) / den).squareRoot()
        if large == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        // Step 3: the centre in user space.
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p1.x + p2.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (p1.y + p2.y) / 2
        // Step 4: start angle and sweep.
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry, vx = (-x1 - cx1) / rx, vy = (-y1 - cy1) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        // Each part as a cubic on the unit circle, mapped onto the ellipse.
        func onEllipse(_ x: Double, _ y: Double) -> Point {
            Point(x: cx + cosPhi * rx * x - sinPhi * ry * y, y: cy + sinPhi * rx * x + cosPhi * ry * y)
        }
        let part = delta / Double(segments), t = 4.0 / 3.0 * tan(part / 4)
        var out: [Path.Element] = []
        var a = theta1
        for n in 0..<segments {
            let b = a + part
            let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
            let end = n == segments - 1 ? p2 : onEllipse(cb, sb)
            out.append(.curve(onEllipse(ca - t * sa, sa + t * ca), onEllipse(cb + t * sb, sb - t * cb), end))
            a = b
        }
        return out
    }
}
