/// How a path is stroked, in `CAShapeLayer`'s terms: `lineWidth`, `lineCap`, `lineJoin`,
/// `miterLimit`, `lineDashPattern`, `lineDashPhase`, and `strokeStart` / `strokeEnd` (the
/// part of the path drawn, as fractions of its whole length). The defaults are
/// Core Animation's.
public struct StrokeStyle: Sendable, Hashable {
    /// `CAShapeLayerLineCap`.
    public enum LineCap: String, Sendable, Hashable, CaseIterable { case butt, round, square }
    /// `CAShapeLayerLineJoin`.
    public enum LineJoin: String, Sendable, Hashable, CaseIterable { case miter, round, bevel }

    public var lineWidth: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    /// A miter join longer than this many line widths is drawn bevelled.
    public var miterLimit: Double
    /// Painted and unpainted lengths in turn, from each subpath's start; empty: solid.
    public var lineDashPattern: [Double]
    /// How far into the dash pattern the stroke starts.
    public var lineDashPhase: Double
    public var strokeStart: Double
    public var strokeEnd: Double

    public init(
        lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10,
        lineDashPattern: [Double] = [], lineDashPhase: Double = 0, strokeStart: Double = 0, strokeEnd: Double = 1
    ) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.lineDashPattern = lineDashPattern
        self.lineDashPhase = lineDashPhase
        self.strokeStart = strokeStart
        self.strokeEnd = strokeEnd
    }

    /// How far outside the path's points the stroke may reach: half the line width, more
    /// for square caps and miter joins.
    public var reach: Double {
        let half = lineWidth / 2
        let cap = lineCap == .square ? half * 2.0.squareRoot() : half
        let join = lineJoin == .miter ? half * Swift.max(miterLimit, 1) : half
        return Swift.max(cap, join)
    }
}
