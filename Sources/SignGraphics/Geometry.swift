/// A point in layer or board coordinates (pixels, y down), fractional for sub-pixel motion.
public struct Point: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
}

/// A width and height in pixels.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle: an origin (top-left) and a size.
public struct Rect: Sendable, Hashable {
    public var origin: Point
    public var size: Size
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// The same rectangle moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The overlap of two rectangles (zero-sized when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Whole pixels touched by the rectangle, clipped to `0..<width` x `0..<height`.
    public func pixelBounds(clippedTo width: Int, _ height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let x0 = max(0, Int(pixel: minX, .down)), y0 = max(0, Int(pixel: minY, .down))
        let x1 = min(width, Int(pixel: maxX, .up)), y1 = min(height, Int(pixel: maxY, .up))
        return (x0, y0, max(x0, x1), max(y0, y1))
    }
}

extension Int {
    /// Bound of a pixel coordinate: far beyond any board, far inside `Int`, so that sums of a
    /// few coordinates never overflow.
    public static let pixelLimit = 1 << 40

    /// `value` rounded by `rule` and clamped to ±`pixelLimit` (NaN is 0): how geometry,
    /// whatever animations or clients made of it, becomes a pixel index without trapping.
    @inlinable @inline(__always)
    public init(pixel value: Double, _ rule: FloatingPointRoundingRule = .towardZero) {
        guard !value.isNaN else {
            self = 0
            return
        }
        // Clamped first (the limit is a whole number, so that commutes with rounding), then
        // truncated and stepped for the rules geometry uses. Always inlined: out of line, the
        // rule went through the standard library's enum metadata on every call.
        let limit = Double(Int.pixelLimit)
        let clamped = value < -limit ? -limit : value > limit ? limit : value
        let truncated = Int(clamped)
        switch rule {
        case .towardZero: self = truncated
        case .down: self = Double(truncated) > clamped ? truncated &- 1 : truncated
        case .up: self = Double(truncated) < clamped ? truncated &+ 1 : truncated
        default: self = Int(clamped.rounded(rule))
        }
    }
}
