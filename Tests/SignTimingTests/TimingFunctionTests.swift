import Testing

@testable import SignTiming

@Suite("TimingFunction")
struct TimingFunctionTests {
    static let xs = [0, 0.01, 0.1, 0.2, 0.25, 0.3333, 0.5, 0.6, 0.75, 0.9, 0.99, 1]

    /// y at `xs`, computed independently by bisection in 50-digit arithmetic (mpmath).
    static let references: [(String, TimingFunction, [Double])] = [
        ("linear", .linear, [0, 0.01, 0.1, 0.2, 0.25, 0.3333, 0.5, 0.6, 0.75, 0.9, 0.99, 1]),
        (
            "easeIn", .easeIn,
            [
                0, 0.00018685319546242961, 0.017026609651562945, 0.062282000136732286, 0.093464650718824863,
                0.15613637957459795, 0.31535681257253931, 0.42911976929631714, 0.62186186917489021, 0.83942784576246657,
                0.98309029466604116, 1,
            ]
        ),
        (
            "easeOut", .easeOut,
            [
                0, 0.01690970533395883, 0.16057215423753349, 0.30836606668068689, 0.37813813082510981,
                0.48830646200140098, 0.68464318742746071, 0.78513906124710662, 0.90653534928117515, 0.98297339034843707,
                0.99981314680453757, 1,
            ]
        ),
        (
            "easeInEaseOut", .easeInEaseOut,
            [
                0, 0.00018981958520707091, 0.019722453548311199, 0.081659856265897494, 0.12916193104731982,
                0.23172837135728612, 0.5, 0.66811612990235391, 0.87083806895268021, 0.98027754645168882,
                0.99981018041479293, 1,
            ]
        ),
        (
            "default", .default,
            [
                0, 0.0044878152082479039, 0.094796305716043257, 0.29524433426782251, 0.40851059135539587,
                0.57580289180775969, 0.80240338758485699, 0.88522930987612032, 0.96045897834897408, 0.99431647748455637,
                0.99994633947890915, 1,
            ]
        ),
        (
            "overshoot (0.5, -1, 0.5, 2)", TimingFunction(controlPoints: 0.5, -1, 0.5, 2),
            [
                0, -0.019596414658081427, -0.15613434210939519, -0.20651490282055429, -0.18232237092494685,
                -0.055777731948031014, 0.5, 0.87340514182959385, 1.1823223709249469, 1.1561343421093952,
                1.0195964146580814, 1,
            ]
        ),
        (
            "Chromium's (0.25, 0, 0.75, 1)", TimingFunction(controlPoints: 0.25, 0, 0.75, 1),
            [
                0, 0.00051512517949895545, 0.03978864870833941, 0.12803647261359783, 0.18235613683528519,
                0.28220350462337151, 0.5, 0.63238688446842951, 0.81764386316471481, 0.96021135129166061,
                0.99948487482050104, 1,
            ]
        ),
        (
            "back (0.68, -0.55, 0.265, 1.55)", TimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55),
            [
                0, -0.0079594272146614659, -0.066291477333528743, -0.092701694823313526, -0.08280710882832259,
                -0.0085518338856543031, 0.60667989722377159, 0.94754244351683825, 1.0891657748134211, 1.06237319516637,
                1.0073713334704762, 1,
            ]
        ),
    ]

    @Test("Bezier curves agree with a 50-digit bisection to 1e-7", arguments: references.indices)
    func bezierAccuracy(index: Int) {
        let (name, function, expected) = Self.references[index]
        for (x, y) in zip(Self.xs, expected) {
            #expect(abs(function(x) - y) < 1e-7, "\(name) at \(x): \(function(x)) vs \(y)")
        }
    }

    @Test("a dense sweep stays within 1e-7 of the curve's own x(t), y(t)")
    func denseSweep() {
        for (_, function, _) in Self.references {
            guard let c = function.controlPoints else { continue }
            for i in 0...1000 {
                // Pick t, compute the exact point, and ask the solver for y at that x.
                let t = Double(i) / 1000
                let x = 3 * c.x1 * t * (1 - t) * (1 - t) + 3 * c.x2 * t * t * (1 - t) + t * t * t
                let y = 3 * c.y1 * t * (1 - t) * (1 - t) + 3 * c.y2 * t * t * (1 - t) + t * t * t
                #expect(abs(function(x) - y) < 1e-7)
            }
        }
    }

    @Test("CSS names are the same curves as Core Animation's")
    func cssNames() {
        #expect(TimingFunction(parsing: "ease") == .default)
        #expect(TimingFunction(parsing: "ease-in") == .easeIn)
        #expect(TimingFunction(parsing: "ease-out") == .easeOut)
        #expect(TimingFunction(parsing: "ease-in-out") == .easeInEaseOut)
        #expect(TimingFunction(parsing: "easeInEaseOut") == .easeInEaseOut)
        #expect(TimingFunction(parsing: "0.5,-1,0.5,2") == TimingFunction(controlPoints: 0.5, -1, 0.5, 2))
        #expect(TimingFunction(parsing: "cubic-bezier(0.42, 0, 1, 1)") == .easeIn)
        #expect(TimingFunction(parsing: "1.5,0,1,1") == nil)
        #expect(TimingFunction(parsing: "bouncy") == nil)
    }

    @Test("x outside [0, 1] is extrapolated along the end tangents")
    func extrapolation() {
        #expect(TimingFunction.linear(-0.5) == -0.5 && TimingFunction.linear(1.5) == 1.5)
        // easeIn starts flat (y1 = 0, x1 > 0: slope 0) and ends along (1,1)-(1,1): slope from (x1, y1).
        #expect(TimingFunction.easeIn(-1) == 0)
        let ease = TimingFunction.default
        #expect(abs(ease(-0.1) - (-0.1 * 0.1 / 0.25)) < 1e-12)
        let overshoot = TimingFunction(controlPoints: 0.5, -1, 0.5, 2)
        #expect(abs(overshoot(1.1) - (1 + 0.1 * (2 - 1) / (0.5 - 1))) < 1e-12)
    }

    @Test(
        "steps() follows CSS",
        arguments: [
            ("steps(4, jump-end)", [0.0, 0.24, 0.25, 0.5, 0.99, 1.0], [0.0, 0.0, 0.25, 0.5, 0.75, 1.0]),
            ("steps(4, jump-start)", [0.0, 0.24, 0.25, 0.99, 1.0], [0.25, 0.25, 0.5, 1.0, 1.0]),
            ("steps(3, jump-none)", [0.0, 0.33, 0.34, 0.67, 1.0], [0.0, 0.0, 0.5, 1.0, 1.0]),
            ("steps(3, jump-both)", [0.0, 0.33, 0.34, 0.67, 1.0], [0.25, 0.25, 0.5, 0.75, 1.0]),
            ("step-end", [0.0, 0.999, 1.0], [0.0, 0.0, 1.0]),
        ])
    func steps(spec: String, xs: [Double], ys: [Double]) throws {
        let f = try #require(TimingFunction(parsing: spec))
        #expect(xs.map { f($0) } == ys)
    }
}
