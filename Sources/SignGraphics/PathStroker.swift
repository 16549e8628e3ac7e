import Foundation

/// Turns a flattened path into the polygons its stroke covers, added to a rasteriser and
/// filled non-zero: a rectangle per line, a wedge or disc per join, a square or disc per
/// cap, every piece wound the same way so overlaps never cancel. Dashes restart at each
/// subpath (as Core Graphics and cairo dash); `strokeStart` and `strokeEnd` cut the path
/// by length, counted over all its subpaths in order.
struct PathStroker {
    /// Most dashes one stroke draws: a pattern of hair-thin dashes along a long path would
    /// otherwise take unbounded time.
    static let maxDashes = 100_000

    let style: StrokeStyle
    let rasterizer: PathRasterizer
    let half: Double
    private var dashes = 0

    init(style: StrokeStyle, rasterizer: PathRasterizer) {
        self.style = style
        self.rasterizer = rasterizer
        half = style.lineWidth / 2
    }

    mutating func stroke() {
        guard half > 0, half.isFinite else { return }
        let subpaths = rasterizer.polylines.subpaths
        var total = 0.0
        for s in subpaths { total += length(s) }
        let from = min(max(style.strokeStart, 0), 1) * total, to = min(max(style.strokeEnd, 0), 1) * total
        guard from <= to, from < to || total == 0 else { return }
        var base = 0.0
        for s in subpaths {
            let len = length(s)
            let a = max(from - base, 0), b = min(to - base, len)
            defer { base += len }
            guard a <= b else { continue }
            if style.lineDashPattern.isEmpty {
                if s.closed && a <= 0 && b >= len && len > 0 {
                    strokeClosed(s)
                } else {
                    strokeRange(s, a, b)
                }
            } else {
                dash(s, len, a, b)
            }
        }
    }

    private func point(_ i: Int) -> Point { rasterizer.polylines.points[i] }

    /// The subpath's length, its closing line included when it is closed.
    private func length(_ s: (start: Int, count: Int, closed: Bool)) -> Double {
        var l = 0.0
        let n = s.closed ? s.count : s.count - 1
        guard n > 0 else { return 0 }
        for i in 0..<n { l += distance(point(s.start + i), point(s.start + (i + 1) % s.count)) }
        return l
    }

    /// The dash pattern's painted parts within `a...b` of the subpath.
    private mutating func dash(_ s: (start: Int, count: Int, closed: Bool), _ len: Double, _ a: Double, _ b: Double) {
        let pattern = style.lineDashPattern
        let n = pattern.count
        let sum = pattern.reduce(0, +)
        guard sum > 0 else { return }
        // An odd count repeats the list, its painted and unpainted parts swapping.
        let period = n % 2 == 1 ? 2 * sum : sum
        var phase = style.lineDashPhase.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        var index = 0, on = true, remaining = pattern[0]
        while phase > 0 {
            if phase >= remaining {
                phase -= remaining
                index = (index + 1) % n
                on.toggle()
                remaining = pattern[index]
            } else {
                remaining -= phase
                phase = 0
            }
        }
        var u = 0.0, steps = 0
        // Bounded by steps, not only by dashes drawn: dashes outside the cut are not drawn.
        while u <= len && dashes < Self.maxDashes && steps < 2 * Self.maxDashes {
            steps += 1
            let end = u + remaining
            if on {
                let lo = max(u, a), hi = min(end, b)
                // A dash of length 0 is a dot (drawn by round and square caps).
                if lo < hi || (remaining == 0 && u >= a && u <= b) {
                    strokeRange(s, lo, max(lo, hi))
                    dashes += 1
                }
            }
            if end >= len && remaining > 0 { break }
            u = end
            index = (index + 1) % n
            on.toggle()
            remaining = pattern[index]
        }
    }

    /// The part of the subpath from length `a` to `b`, stroked as an open line with caps.
    private mutating func strokeRange(_ s: (start: Int, count: Int, closed: Bool), _ a: Double, _ b: Double) {
        var line = rasterizer.scratch
        rasterizer.scratch = []
        defer {
            line.removeAll(keepingCapacity: true)
            rasterizer.scratch = line
        }
        line.removeAll(keepingCapacity: true)
        let n = s.closed ? s.count : s.count - 1
        var direction = Point(x: 1, y: 0)
        if n <= 0 {
            line.append(point(s.start))
        } else {
            var at = 0.0
            for i in 0..<n {
                let p = point(s.start + i), q = point(s.start + (i + 1) % s.count)
                let l = distance(p, q)
                let next = at + l
                if l > 0 && next >= a && at <= b {
                    if line.isEmpty {
                        line.append(lerp(p, q, (a - at) / l))
                        direction = unit(p, q)
                    }
                    append(next <= b ? q : lerp(p, q, (b - at) / l), to: &line)
                }
                at = next
                if at > b { break }
            }
            if line.isEmpty { line.append(point(s.start)) }
        }
        strokeOpen(line, direction: direction)
    }

    private func append(_ p: Point, to line: inout [Point]) {
        if let last = line.last, distance(last, p) < 1e-9 { return }
        line.append(p)
    }

    /// An open line: a rectangle per segment, joins between, caps at both ends.
    private func strokeOpen(_ line: [Point], direction: Point) {
        let m = line.count
        if m == 1 {
            dot(line[0], direction)
            return
        }
        let square = style.lineCap == .square
        var previous = Point.zero
        for i in 0..<(m - 1) {
            let d = unit(line[i], line[i + 1])
            var p0 = line[i], p1 = line[i + 1]
            if square && i == 0 { p0 = Point(x: p0.x - d.x * half, y: p0.y - d.y * half) }
            if square && i == m - 2 { p1 = Point(x: p1.x + d.x * half, y: p1.y + d.y * half) }
            segment(p0, p1, d)
            if i > 0 { join(line[i], previous, d) }
            previous = d
        }
        if style.lineCap == .round {
            disc(line[0])
            disc(line[m - 1])
        }
    }

    /// A closed subpath whole: joins at every vertex, the closing one too, and no caps.
    private mutating func strokeClosed(_ s: (start: Int, count: Int, closed: Bool)) {
        var ring = rasterizer.scratch
        rasterizer.scratch = []
        defer {
            ring.removeAll(keepingCapacity: true)
            rasterizer.scratch = ring
        }
        ring.removeAll(keepingCapacity: true)
        for i in 0..<s.count { append(point(s.start + i), to: &ring) }
        if ring.count > 1, distance(ring[0], ring[ring.count - 1]) < 1e-9 { ring.removeLast() }
        let k = ring.count
        guard k > 1 else {
            dot(ring[0], Point(x: 1, y: 0))
            return
        }
        for i in 0..<k {
            let d = unit(ring[i], ring[(i + 1) % k])
            segment(ring[i], ring[(i + 1) % k], d)
            let before = unit(ring[(i + k - 1) % k], ring[i])
            join(ring[i], before, d)
        }
    }

    /// A zero-length stroke: a disc for round caps, a square along `direction` for square.
    private func dot(_ p: Point, _ d: Point) {
        switch style.lineCap {
        case .butt: break
        case .round: disc(p)
        case .square:
            let a = Point(x: p.x - d.x * half, y: p.y - d.y * half), b = Point(x: p.x + d.x * half, y: p.y + d.y * half)
            segment(a, b, d)
        }
    }

    private func segment(_ p0: Point, _ p1: Point, _ d: Point) {
        let nx = -d.y * half, ny = d.x * half
        polygon(
            Point(x: p0.x + nx, y: p0.y + ny), Point(x: p1.x + nx, y: p1.y + ny), Point(x: p1.x - nx, y: p1.y - ny),
            Point(x: p0.x - nx, y: p0.y - ny))
    }

    /// The join at `p` from direction `d0` to `d1`, on the outer side of the turn.
    private func join(_ p: Point, _ d0: Point, _ d1: Point) {
        let cross = d0.x * d1.y - d0.y * d1.x, dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12 && dot > 0 { return }
        if style.lineJoin == .round {
            disc(p)
            return
        }
        let s = cross > 0 ? -half : half
        let a = Point(x: p.x - d0.y * s, y: p.y + d0.x * s), b = Point(x: p.x - d1.y * s, y: p.y + d1.x * s)
        let cosHalf = ((1 + dot) / 2).squareRoot()
        if style.lineJoin == .miter && cosHalf > 1e-12 && 1 / cosHalf <= style.miterLimit {
            // Along the bisector of the two normals, half the width over cos(turn / 2) out.
            let bx = -(d0.y + d1.y), by = d0.x + d1.x
            let bl = (bx * bx + by * by).squareRoot()
            let k = (s / cosHalf) / bl
            polygon(p, a, Point(x: p.x + bx * k, y: p.y + by * k), b)
        } else {
            polygon(p, a, b, b)
        }
    }

    /// A disc of the line's half width, flattened like curves are.
    private func disc(_ c: Point) {
        let r = half
        let step = acos(max(-1, 1 - PathRasterizer.tolerance / r))
        let n = min(max(Int((Double.pi / step).rounded(.up)) * 2, 8), 256)
        var previous = Point(x: c.x + r, y: c.y)
        for i in 1...n {
            let t = 2 * Double.pi * Double(i) / Double(n)
            let p = i == n ? Point(x: c.x + r, y: c.y) : Point(x: c.x + r * cos(t), y: c.y + r * sin(t))
            rasterizer.line(previous, p)
            previous = p
        }
    }

    /// A quadrilateral (a triangle when two points repeat), wound like every other piece.
    private func polygon(_ a: Point, _ b: Point, _ c: Point, _ d: Point) {
        let area =
            (a.x * b.y - b.x * a.y) + (b.x * c.y - c.x * b.y) + (c.x * d.y - d.x * c.y) + (d.x * a.y - a.x * d.y)
        if area >= 0 {
            rasterizer.line(a, b)
            rasterizer.line(b, c)
            rasterizer.line(c, d)
            rasterizer.line(d, a)
        } else {
            rasterizer.line(a, d)
            rasterizer.line(d, c)
            rasterizer.line(c, b)
            rasterizer.line(b, a)
        }
    }

    private func distance(_ p: Point, _ q: Point) -> Double {
        ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
    }

    private func unit(_ p: Point, _ q: Point) -> Point {
        let l = distance(p, q)
        return l > 0 ? Point(x: (q.x - p.x) / l, y: (q.y - p.y) / l) : Point(x: 1, y: 0)
    }

    private func lerp(_ p: Point, _ q: Point, _ t: Double) -> Point {
        let t = min(max(t, 0), 1)
        return Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
    }
}
