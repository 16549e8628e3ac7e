/// How an animation's progress follows time, as `CAMediaTimingFunction` (a cubic Bezier from
/// (0, 0) to (1, 1)) or as CSS `steps()` for discrete LED effects. Evaluating one allocates
/// nothing: the Bezier keeps its polynomial and a sample table inline.
public struct TimingFunction: Sendable, Hashable, CustomStringConvertible {
    /// Where the jumps of a `steps()` function fall, as in CSS Easing Functions.
    public enum StepPosition: String, Sendable, Hashable, CaseIterable {
        case jumpStart = "jump-start"
        case jumpEnd = "jump-end"
        case jumpNone = "jump-none"
        case jumpBoth = "jump-both"
    }

    enum Kind: Hashable {
        case bezier(CubicBezier)
        case steps(Int, StepPosition)
    }

    let kind: Kind

    /// A cubic Bezier with control points (x1, y1) and (x2, y2); x is clamped to [0, 1], y is
    /// free so curves may overshoot.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        kind = .bezier(CubicBezier(x1: min(max(x1, 0), 1), y1: y1, x2: min(max(x2, 0), 1), y2: y2))
    }

    /// `steps(count, position)`: `count` equal jumps (at least 1; 2 with jump-none).
    public static func steps(_ count: Int, _ position: StepPosition = .jumpEnd) -> TimingFunction {
        TimingFunction(kind: .steps(max(count, position == .jumpNone ? 2 : 1), position))
    }

    private init(kind: Kind) { self.kind = kind }

    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// Core Animation's `default` (CSS `ease`).
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    /// Core Animation's names and CSS's names for the same curves.
    public static let named: [String: TimingFunction] = [
        "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInEaseOut": .easeInEaseOut,
        "default": .default, "ease": .default, "ease-in": .easeIn, "ease-out": .easeOut, "ease-in-out": .easeInEaseOut,
        "step-start": .steps(1, .jumpStart), "step-end": .steps(1, .jumpEnd),
    ]

    /// Parses a name (`easeIn`, `ease-in-out` ...), four control points `x1,y1,x2,y2`,
    /// `cubic-bezier(x1, y1, x2, y2)` or `steps(n[, jump-start|jump-end|jump-none|jump-both])`.
    public init?(parsing text: String) {
        let trimmed = text.filter { !$0.isWhitespace }
        if let named = TimingFunction.named[trimmed] {
            self = named
            return
        }
        func arguments(_ prefix: String) -> [Substring]? {
            guard trimmed.hasPrefix(prefix + "("), trimmed.hasSuffix(")") else { return nil }
            return trimmed.dropFirst(prefix.count + 1).dropLast().split(
                separator: ",", omittingEmptySubsequences: false)
        }
        if let args = arguments("steps") {
            guard (1...2).contains(args.count), let n = Int(args[0]), n >= 1 else { return nil }
            var position = StepPosition.jumpEnd
            if args.count == 2 {
                switch args[1] {
                case "start": position = .jumpStart
                case "end": position = .jumpEnd
                default:
                    guard let p = StepPosition(rawValue: String(args[1])) else { return nil }
                    position = p
                }
            }
            if position == .jumpNone && n < 2 { return nil }
            self = .steps(n, position)
            return
        }
        let points = (arguments("cubic-bezier") ?? trimmed.split(separator: ",", omittingEmptySubsequences: false)).map
        { Double($0) }
        guard points.count == 4, let x1 = points[0], let y1 = points[1], let x2 = points[2], let y2 = points[3],
            (0...1).contains(x1), (0...1).contains(x2), y1.isFinite, y2.isFinite
        else { return nil }
        self.init(controlPoints: x1, y1, x2, y2)
    }

    /// The eased progress for a time fraction. Outside [0, 1] a Bezier continues along its
    /// end tangents (as Chromium does for chained easing); steps follow CSS.
    @inlinable
    public func callAsFunction(_ x: Double) -> Double { progress(x) }

    /// The eased progress for a time fraction; see `callAsFunction`.
    public func progress(_ x: Double) -> Double {
        switch kind {
        case .bezier(let curve): return curve.y(atX: x)
        case .steps(let n, let position): return Self.step(x, n, position)
        }
    }

    /// CSS Easing Functions' step algorithm (without the "before flag" of CSS transitions).
    private static func step(_ x: Double, _ n: Int, _ position: StepPosition) -> Double {
        var step = (x * Double(n)).rounded(.down)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        if x >= 0 && step < 0 { step = 0 }
        let jumps: Double
        switch position {
        case .jumpStart, .jumpEnd: jumps = Double(n)
        case .jumpNone: jumps = Double(n - 1)
        case .jumpBoth: jumps = Double(n + 1)
        }
        if x <= 1 && step > jumps { step = jumps }
        return step / jumps
    }

    public var description: String {
        switch kind {
        case .bezier(let c): return "cubic-bezier(\(c.x1), \(c.y1), \(c.x2), \(c.y2))"
        case .steps(let n, let p): return "steps(\(n), \(p.rawValue))"
        }
    }

    /// The control points of a Bezier timing function; `nil` for steps.
    public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)? {
        guard case .bezier(let c) = kind else { return nil }
        return (c.x1, c.y1, c.x2, c.y2)
    }
}

/// A cubic Bezier from (0, 0) to (1, 1), solved for y at a given x the way WebKit and
/// Chromium do: polynomial coefficients, an initial guess from 11 samples, Newton steps,
/// and bisection when Newton does not converge.
struct CubicBezier: Hashable {
    let x1: Double, y1: Double, x2: Double, y2: Double
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    private let startGradient: Double, endGradient: Double
    private let samples: Samples

    /// x at t = 0, 0.1, ... 1.
    struct Samples: Hashable {
        var values: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)
        subscript(i: Int) -> Double {
            withUnsafeBytes(of: values) { $0.load(fromByteOffset: i * MemoryLayout<Double>.stride, as: Double.self) }
        }
        static func == (a: Samples, b: Samples) -> Bool { (0..<11).allSatisfy { a[$0] == b[$0] } }
        func hash(into hasher: inout Hasher) { for i in 0..<11 { hasher.combine(self[i]) } }
    }

    static let sampleCount = 11
    static let newtonIterations = 4
    static let epsilon = 1e-12

    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        // Tangents at the ends, for extrapolation outside [0, 1].
        startGradient = x1 > 0 ? y1 / x1 : (y1 == 0 && x2 > 0 ? y2 / x2 : (y1 == 0 && y2 == 0 ? 1 : 0))
        endGradient =
            x2 < 1 ? (y2 - 1) / (x2 - 1) : (y2 == 1 && x1 < 1 ? (y1 - 1) / (x1 - 1) : (y2 == 1 && y1 == 1 ? 1 : 0))
        let (a, b, c) = (ax, bx, cx)
        func x(_ t: Double) -> Double { ((a * t + b) * t + c) * t }
        samples = Samples(values: (x(0), x(0.1), x(0.2), x(0.3), x(0.4), x(0.5), x(0.6), x(0.7), x(0.8), x(0.9), x(1)))
    }

    @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t whose x is `x`, for x in [0, 1].
    func solveT(_ x: Double) -> Double {
        // Initial guess: linear interpolation in the sample table.
        var t0 = 0.0, t1 = 0.0, t2 = x
        for i in 1..<Self.sampleCount where samples[i] >= x {
            t1 = Double(i) / 10
            t0 = t1 - 0.1
            let span = samples[i] - samples[i - 1]
            t2 = span > 0 ? t0 + 0.1 * (x - samples[i - 1]) / span : t0
            break
        }
        for _ in 0..<Self.newtonIterations {
            let error = sampleX(t2) - x
            if abs(error) < Self.epsilon { return t2 }
            let derivative = sampleDerivativeX(t2)
            if abs(derivative) < 1e-7 { break }
            t2 -= error / derivative
        }
        // Bisection on the sample interval (widened to [0, 1] if Newton wandered off).
        t0 = 0
        t1 = 1
        t2 = min(max(t2, 0), 1)
        while t1 - t0 > Self.epsilon {
            let value = sampleX(t2)
            if abs(value - x) < Self.epsilon { return t2 }
            if x > value { t0 = t2 } else { t1 = t2 }
            t2 = (t0 + t1) / 2
        }
        return t2
    }

    func y(atX x: Double) -> Double {
        if x < 0 { return startGradient * x }
        if x > 1 { return 1 + endGradient * (x - 1) }
        if x == 0 || x == 1 { return x }
        return sampleY(solveT(x))
    }
}
