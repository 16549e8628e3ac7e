import Foundation
import TestSupport
import Testing

@testable import SignGraphics

/// signd's path coverage against a real rasteriser: cairo through pycairo
/// (tools/path-reference.py), the same shapes given to each in its own terms (SVG path
/// data to signd, cairo's calls to cairo, an arc as cairo's centre and angles).
@Suite("Path coverage against cairo")
struct PathReferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let svg: String
        /// cairo's calls, as tools/path-reference.py takes them.
        let ops: [[any Sendable]]
        var fill: FillRule?
        var stroke: StrokeStyle?
        var testDescription: String { name }
    }

    static let width = 48, height = 40

    static let star: (String, [[any Sendable]]) = (
        "M 24 3 L 36 37 L 5 15 L 43 15 L 12 37 Z",
        [
            ["move_to", 24, 3], ["line_to", 36, 37], ["line_to", 5, 15], ["line_to", 43, 15], ["line_to", 12, 37],
            ["close_path"],
        ]
    )
    static let zigzag: (String, [[any Sendable]]) = (
        "M6 30l8-20 8 20 8-20 8 14",
        [["move_to", 6, 30], ["line_to", 14, 10], ["line_to", 22, 30], ["line_to", 30, 10], ["line_to", 38, 24]]
    )
    static let wave: (String, [[any Sendable]]) = (
        "M4 20C10 2 18 2 24 20S38 38 44 20",
        [["move_to", 4, 20], ["curve_to", 10, 2, 18, 2, 24, 20], ["curve_to", 30, 38, 38, 38, 44, 20]]
    )

    static func stroked(_ name: String, _ shape: (String, [[any Sendable]]), _ style: StrokeStyle) -> Case {
        Case(name: name, svg: shape.0, ops: shape.1, stroke: style)
    }

    static let cases: [Case] = [
        Case(name: "star filled non-zero", svg: star.0, ops: star.1, fill: .nonZero),
        Case(name: "star filled even-odd", svg: star.0, ops: star.1, fill: .evenOdd),
        Case(
            name: "ring of two circles even-odd, arcs",
            svg: "M8 20A16 16 0 1 1 40 20A16 16 0 1 1 8 20ZM16 20a8 8 0 0 0 16 0a8 8 0 0 0-16 0z",
            ops: [
                ["arc", 24, 20, 16, Double.pi, 3 * Double.pi], ["close_path"],
                ["arc_negative", 24, 20, 8, Double.pi, -Double.pi], ["close_path"],
            ],
            fill: .evenOdd),
        Case(
            name: "quadratic and smooth quadratic fill", svg: "M4 36Q14 0 24 20T44 8V36z",
            ops: [
                ["move_to", 4, 36], ["curve_to", 4 + 20.0 / 3, 12, 24 - 20.0 / 3, 20 - 40.0 / 3, 24, 20],
                ["curve_to", 24 + 20.0 / 3, 20 + 40.0 / 3, 44 - 20.0 / 3, 8 + 64.0 / 3, 44, 8],
                ["line_to", 44, 36], ["close_path"],
            ], fill: .nonZero),
        stroked("zigzag, butt caps, miter joins", zigzag, StrokeStyle(lineWidth: 3)),
        stroked(
            "zigzag, round caps, round joins", zigzag, StrokeStyle(lineWidth: 3.5, lineCap: .round, lineJoin: .round)),
        stroked(
            "zigzag, square caps, bevel joins", zigzag, StrokeStyle(lineWidth: 3, lineCap: .square, lineJoin: .bevel)),
        stroked("zigzag, miters over the limit bevelled", zigzag, StrokeStyle(lineWidth: 3, miterLimit: 2)),
        stroked("star outline, closed, miter joins", star, StrokeStyle(lineWidth: 1.5, miterLimit: 4)),
        stroked(
            "wave, dashed with a phase", wave, StrokeStyle(lineWidth: 2, lineDashPattern: [5, 3], lineDashPhase: 2)),
        stroked("wave, round dots", wave, StrokeStyle(lineWidth: 3, lineCap: .round, lineDashPattern: [0, 6])),
        stroked("wave, odd dash count", wave, StrokeStyle(lineWidth: 2, lineDashPattern: [6, 2, 3])),
        stroked("wave to strokeEnd 0.6", wave, StrokeStyle(lineWidth: 2.5, strokeEnd: 0.6)),
        stroked(
            "zigzag from strokeStart 0.3 to strokeEnd 0.8", zigzag,
            StrokeStyle(lineWidth: 2, strokeStart: 0.3, strokeEnd: 0.8)),
        Case(
            name: "arc stroke, radii scaled up", svg: "M8 30A2 2 0 0 1 40 30",
            ops: [["arc", 24, 30, 16, Double.pi, 2 * Double.pi]], stroke: StrokeStyle(lineWidth: 2)),
        Case(
            name: "shape reaching past every edge", svg: "M-10 -6L60 10L20 52Z",
            ops: [["move_to", -10, -6], ["line_to", 60, 10], ["line_to", 20, 52], ["close_path"]], fill: .nonZero),
    ]

    /// cairo's A8 coverage of every case, one list of rows each.
    static func reference(_ cases: [Case]) throws -> [[[Int]]] {
        let input = try JSONSerialization.data(
            withJSONObject: cases.map { c -> [String: Any] in
                var o: [String: Any] = ["width": width, "height": height, "ops": c.ops]
                if let f = c.fill { o["fill"] = f.rawValue }
                if let s = c.stroke {
                    o["stroke"] = [
                        "width": s.lineWidth, "cap": s.lineCap.rawValue, "join": s.lineJoin.rawValue,
                        "miter_limit": s.miterLimit, "dash": s.lineDashPattern, "dash_phase": s.lineDashPhase,
                        "start": s.strokeStart, "end": s.strokeEnd,
                    ]
                }
                return o
            })
        let output = try ReferenceScript("path-reference.py").run(input: input)
        return try #require(try JSONSerialization.jsonObject(with: output) as? [[[Int]]])
    }

    static func signd(_ c: Case) throws -> CoverageMask {
        let path = try PathData.parse(c.svg)
        var mask = CoverageMask(width: width, height: height, coverage: [UInt8](repeating: 0, count: width * height))
        let rasterizer = PathRasterizer()
        if let rule = c.fill { rasterizer.fill(path, rule: rule, into: &mask) }
        if let style = c.stroke { rasterizer.stroke(path, style: style, into: &mask) }
        return mask
    }

    @Test("mean coverage within one level of cairo's, no pixel far off", arguments: cases)
    func matchesCairo(_ c: Case) throws {
        let reference = try Self.reference([c])[0]
        let mask = try Self.signd(c)
        var total = 0, worst = 0, covered = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let a = Int(mask.coverage[y * Self.width + x]), b = reference[y][x]
                total += abs(a - b)
                worst = max(worst, abs(a - b))
                if b > 0 { covered += 1 }
            }
        }
        let mean = Double(total) / Double(Self.width * Self.height)
        #expect(covered > 20, "cairo drew almost nothing: the case tests nothing")
        #expect(mean <= 1, "mean absolute difference \(mean) levels")
        // Where two edges cross inside one pixel (a star's points, a join's disc over a line's
        // side) area coverage summed is not the union's: a pixel may be off by a third.
        #expect(worst <= 96, "worst pixel \(worst) levels off")
    }
}
