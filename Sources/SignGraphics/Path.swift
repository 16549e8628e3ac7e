/// A vector path as Core Graphics keeps one (`CGPath`): subpaths of straight lines and
/// Bézier curves, each begun by a move and perhaps closed. Arcs are stored as the cubic
/// curves that draw them, as `CGPath` stores them. Coordinates are in pixels, y down.
public struct Path: Sendable, Hashable {
    /// One step of a path.
    public enum Element: Sendable, Hashable {
        case move(Point)
        case line(Point)
        case quadCurve(Point, Point)
        case curve(Point, Point, Point)
        case close

        /// The points the element holds, control points first.
        public var points: [Point] {
            switch self {
            case .move(let p), .line(let p): return [p]
            case .quadCurve(let c, let p): return [c, p]
            case .curve(let c1, let c2, let p): return [c1, c2, p]
            case .close: return []
            }
        }

        /// Whether two elements are of the same kind (what path interpolation needs).
        public func isSameKind(as other: Element) -> Bool {
            switch (self, other) {
            case (.move, .move), (.line, .line), (.quadCurve, .quadCurve), (.curve, .curve), (.close, .close):
                return true
            default: return false
            }
        }
    }

    public var elements: [Element]

    public init(_ elements: [Element] = []) { self.elements = elements }

    /// How many points the path holds (control points included).
    public var pointCount: Int {
        elements.reduce(0) { n, e in
            switch e {
            case .move, .line: return n + 1
            case .quadCurve: return n + 2
            case .curve: return n + 3
            case .close: return n
            }
        }
    }

    /// The smallest rectangle holding every point, control points included (curves lie
    /// inside their control points' hull); `nil` for an empty path.
    public var controlBounds: Rect? {
        var lo = Point(x: Double.infinity, y: .infinity), hi = Point(x: -Double.infinity, y: -.infinity)
        for e in elements {
            func add(_ p: Point) {
                lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
                hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
            }
            switch e {
            case .move(let p), .line(let p): add(p)
            case .quadCurve(let c, let p):
                add(c)
                add(p)
            case .curve(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .close: break
            }
        }
        guard lo.x <= hi.x else { return nil }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// Whether `other` has the same elements in the same order, so the two interpolate
    /// point by point (`interpolated(to:fraction:)`).
    public func hasSameStructure(as other: Path) -> Bool {
        elements.count == other.elements.count
            && zip(elements, other.elements).allSatisfy { $0.isSameKind(as: $1) }
    }

    /// Each point moved by `transform`.
    public func mapPoints(_ transform: (Point) -> Point) -> Path {
        Path(
            elements.map { e in
                switch e {
                case .move(let p): return .move(transform(p))
                case .line(let p): return .line(transform(p))
                case .quadCurve(let c, let p): return .quadCurve(transform(c), transform(p))
                case .curve(let c1, let c2, let p): return .curve(transform(c1), transform(c2), transform(p))
                case .close: return .close
                }
            })
    }

    /// Point by point between this path and `other`, as Core Animation interpolates paths
    /// with the same elements; `op` combines a coordinate of each. Paths whose elements
    /// differ give `nil` (Core Animation leaves that undefined).
    public func combined(with other: Path, _ op: (Double, Double) -> Double) -> Path? {
        guard hasSameStructure(as: other) else { return nil }
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        out.combine(self, other, op)
        return out
    }

    /// Makes this path `a` and `b` combined point by point with `op` (paths with the same
    /// elements, `a.hasSameStructure(as: b)`), in the storage it holds: nothing is
    /// allocated when it alone holds storage large enough (a morph's path each frame).
    public mutating func combine(_ a: Path, _ b: Path, _ op: (Double, Double) -> Double) {
        func c(_ a: Point, _ b: Point) -> Point { Point(x: op(a.x, b.x), y: op(a.y, b.y)) }
        elements.removeAll(keepingCapacity: true)
        for (a, b) in zip(a.elements, b.elements) {
            switch (a, b) {
            case (.move(let p), .move(let q)): elements.append(.move(c(p, q)))
            case (.line(let p), .line(let q)): elements.append(.line(c(p, q)))
            case (.quadCurve(let p1, let p2), .quadCurve(let q1, let q2)):
                elements.append(.quadCurve(c(p1, q1), c(p2, q2)))
            case (.curve(let p1, let p2, let p3), .curve(let q1, let q2, let q3)):
                elements.append(.curve(c(p1, q1), c(p2, q2), c(p3, q3)))
            default: elements.append(.close)
            }
        }
    }

    /// Makes this path hold `other`'s elements in the storage it holds, rather than share
    /// `other`'s: nothing is allocated when it alone holds storage large enough.
    public mutating func copyElements(of other: Path) {
        elements.removeAll(keepingCapacity: true)
        elements.append(contentsOf: other.elements)
    }

    /// The path between this one (0) and `other` (1).
    public func interpolated(to other: Path, fraction f: Double) -> Path? {
        combined(with: other) { a, b in a + (b - a) * f }
    }
}
