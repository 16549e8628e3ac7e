/// Where a canvas's pixels changed: one span of columns a row (the union of everything
/// painted in that row), kept in storage made once, so marking and reading allocate nothing.
/// A frame is written out, and the board reset, only where this frame or the one before
/// painted: on an LED sign most of the board is its still background.
public struct Damage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Per row: the first changed column and the end (`x0 >= x1`: the row is unchanged).
    private var x0: [Int32]
    private var x1: [Int32]
    /// The rows that may hold a span: `top..<bottom` (empty when nothing changed).
    public private(set) var top: Int
    public private(set) var bottom: Int

    /// No change, for a canvas of `width` by `height`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        x0 = [Int32](repeating: Int32(width), count: height)
        x1 = [Int32](repeating: 0, count: height)
        top = height
        bottom = 0
    }

    public var isEmpty: Bool { top >= bottom }

    /// Marks the pixels of `bounds` (cut to the canvas).
    public mutating func add(_ bounds: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let a = max(bounds.x0, 0), b = min(bounds.x1, width)
        let r0 = max(bounds.y0, 0), r1 = min(bounds.y1, height)
        guard a < b, r0 < r1 else { return }
        let lo = Int32(truncatingIfNeeded: a), hi = Int32(truncatingIfNeeded: b)
        x0.withUnsafeMutableBufferPointer { x0 in
            x1.withUnsafeMutableBufferPointer { x1 in
                for y in r0..<r1 {
                    if lo < x0[y] { x0[y] = lo }
                    if hi > x1[y] { x1[y] = hi }
                }
            }
        }
        top = min(top, r0)
        bottom = max(bottom, r1)
    }

    /// The row spans in place, for many marks in a row (a batch of particles): `body` marks
    /// through them, and the rows it reached are kept when it returns.
    mutating func withSpans<R>(_ body: (inout Spans) -> R) -> R {
        var reached = (top, bottom)
        let result = x0.withUnsafeMutableBufferPointer { x0 in
            x1.withUnsafeMutableBufferPointer { x1 in
                var spans = Spans(start: x0.baseAddress!, end: x1.baseAddress!, top: reached.0, bottom: reached.1)
                let result = body(&spans)
                reached = (spans.top, spans.bottom)
                return result
            }
        }
        (top, bottom) = reached
        return result
    }

    /// Each row's first changed column and end, and the rows that may hold a span.
    struct Spans {
        let start: UnsafeMutablePointer<Int32>
        let end: UnsafeMutablePointer<Int32>
        var top: Int
        var bottom: Int

        /// Marks `x0..<x1` of rows `y0..<y1`, which must be within the canvas and not empty.
        @inline(__always)
        mutating func add(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            let lo = Int32(truncatingIfNeeded: x0), hi = Int32(truncatingIfNeeded: x1)
            for y in y0..<y1 {
                if lo < start[y] { start[y] = lo }
                if hi > end[y] { end[y] = hi }
            }
            if y0 < top { top = y0 }
            if y1 > bottom { bottom = y1 }
        }
    }

    /// Marks every pixel.
    public mutating func addAll() { add((0, 0, width, height)) }

    /// Nothing changed.
    public mutating func removeAll() {
        guard !isEmpty else { return }
        let w = Int32(truncatingIfNeeded: width)
        for y in top..<bottom {
            x0[y] = w
            x1[y] = 0
        }
        (top, bottom) = (height, 0)
    }

    /// Row `y`'s changed columns, if any.
    @inline(__always)
    public func span(_ y: Int) -> (x0: Int, x1: Int)? {
        let a = Int(x0[y]), b = Int(x1[y])
        return a < b ? (a, b) : nil
    }

    /// Row `y`'s columns changed here or in `other` (one span covering both).
    @inline(__always)
    func span(_ y: Int, or other: Damage) -> (x0: Int, x1: Int)? {
        let a = Int(min(x0[y], other.x0[y])), b = Int(max(x1[y], other.x1[y]))
        return a < b ? (a, b) : nil
    }
}
