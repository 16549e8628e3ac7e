/// A path flattened into straight lines: its subpaths' points in one array, each curve cut
/// into lines that stray at most `tolerance` pixels from it. Reused between paths: flattening
/// into storage that is large enough allocates nothing.
public struct Polylines: Sendable {
    /// Most lines a curve is cut into, whatever its size.
    public static let maxLinesPerCurve = 100

    public private(set) var points: [Point] = []
    /// Each subpath: where its points start in `points`, how many, and whether it is closed.
    public private(set) var subpaths: [(start: Int, count: Int, closed: Bool)] = []

    public init() {}

    /// Maps every point through `map`, a projective map (the polylines of a path in a
    /// transformed layer's coordinates, placed on the board). Returns false, with the points
    /// partly mapped, when one lands at or behind the viewer (w <= 0).
    public mutating func project(by map: Homography) -> Bool {
        points.withUnsafeMutableBufferPointer { points in
            for i in points.indices {
                let q = map.apply(points[i].x, points[i].y)
                guard q.w > 0 else { return false }
                points[i] = Point(x: q.x / q.w, y: q.y / q.w)
            }
            return true
        }
    }

    /// Replaces the contents with `path` moved by `offset`, curves flattened to `tolerance`.
    public mutating func flatten(_ path: Path, offset: Point = .zero, tolerance: Double = 0.1) {
        points.removeAll(keepingCapacity: true)
        subpaths.removeAll(keepingCapacity: true)
        var start = 0
        var current = offset
        func finish(closed: Bool) {
            if points.count > start { subpaths.append((start, points.count - start, closed)) }
            start = points.count
        }
        func at(_ p: Point) -> Point { Point(x: p.x + offset.x, y: p.y + offset.y) }
        for e in path.elements {
            switch e {
            case .move(let p):
                finish(closed: false)
                current = at(p)
                points.append(current)
            case .line(let p):
                if points.count == start { points.append(current) }
                current = at(p)
                points.append(current)
            case .quadCurve(let c, let p):
                if points.count == start { points.append(current) }
                let (p0, p1, p2) = (current, at(c), at(p))
                let dd = Self.length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
                let n = Self.lines(forError: 0.25 * dd, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let (a, b, cc) = (u * u, 2 * u * t, t * t)
                    points.append(Point(x: a * p0.x + b * p1.x + cc * p2.x, y: a * p0.y + b * p1.y + cc * p2.y))
                }
                current = p2
            case .curve(let c1, let c2, let p):
                if points.count == start { points.append(current) }
                let (p0, p1, p2, p3) = (current, at(c1), at(c2), at(p))
                let dd = max(
                    Self.length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y),
                    Self.length(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y))
                let n = Self.lines(forError: 0.75 * dd, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let (a, b, c, d) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                    points.append(
                        Point(
                            x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y))
                }
                current = p3
            case .close:
                let first = points.count > start ? points[start] : current
                finish(closed: true)
                current = first
            }
        }
        finish(closed: false)
    }

    @inline(__always)
    static func length(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

    /// Lines a curve is cut into so that the chords stray at most `tolerance`: the error of
    /// `n` equal steps is at most `k / n^2`, `k` from the curve's second differences.
    static func lines(forError k: Double, tolerance: Double) -> Int {
        let n = (k / tolerance).squareRoot().rounded(.up)
        return n.isFinite ? Swift.min(Swift.max(Int(n), 1), maxLinesPerCurve) : 1
    }
}
