import SignGraphics
import SignScene
import SignTiming
import Testing

@testable import SignConfig

@Suite("Shape layers with SVG path data in the config")
struct ShapeConfigTests {
    func shape(_ source: String) throws -> ShapeContent {
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0], case .shape(let shape) = layer.content else {
            throw Problem()
        }
        return shape
    }

    struct Problem: Error {}

    @Test("every CAShapeLayer key reaches the shape; the fill is Core Animation's black unless set")
    func keys() throws {
        let s = try shape(
            """
            [[layer]]
            type = "shape"
            path = "M 2 2 L 30 2 A 4 4 0 0 1 34 6 V 20 H 2 Z"
            fill_rule = "even-odd"
            stroke_color = "#ff0000"
            line_width = 2.5
            line_cap = "round"
            line_join = "bevel"
            miter_limit = 4
            line_dash_pattern = [0, 3.5]
            line_dash_phase = 1
            stroke_start = 0.25
            stroke_end = 0.75
            """)
        #expect(s.pathData?.elements.count == 9)
        #expect(s.fill == .color(.black))
        #expect(s.stroke == .color(Color(red: 255, green: 0, blue: 0)))
        #expect(s.fillRule == .evenOdd)
        #expect(
            s.strokeStyle
                == StrokeStyle(
                    lineWidth: 2.5, lineCap: .round, lineJoin: .bevel, miterLimit: 4, lineDashPattern: [0, 3.5],
                    lineDashPhase: 1, strokeStart: 0.25, strokeEnd: 0.75))
        let none = try shape("[[layer]]\ntype = \"shape\"\npath = \"M0 0H4V4Z\"\nfill_color = \"none\"\n")
        #expect(none.fill == nil)
    }

    @Test("bad path data is a problem at its line naming the character and what was wrong")
    func badPathData() {
        let problems = configProblems("[[layer]]\ntype = \"shape\"\npath = \"M 2 2 L 30\"\n")
        #expect(
            problems == [
                "t.toml:3: layer[0].path: path data at character 10: expected a number for \"L\", found the end"
            ])
    }

    @Test("a million-point path is refused, naming the limit: the file's size, or the path data's at its line")
    func millionPoints() {
        // A point takes at least four characters (".1.1"): a million do not fit in a config.
        let million = "M0 0L" + String(repeating: ".1.1", count: 1_000_000)
        #expect(
            configProblems("[[layer]]\ntype = \"shape\"\npath = \"\(million)\"\n") == [
                "t.toml:1: -: the file is larger than 1024 KiB"
            ])
        let many = "M0 0L" + String(repeating: ".1.1", count: 100_000)
        let problems = configProblems("[[layer]]\ntype = \"shape\"\npath = \"\(many)\"\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("t.toml:3: layer[0].path:") == true, "\(problems)")
        #expect(problems.first?.contains("limit of \(PathData.maxLength)") == true, "\(problems)")
        let points = "M0 0L" + String(repeating: ".1.1", count: PathData.maxPoints)
        #expect(
            configProblems("[[layer]]\ntype = \"shape\"\npath = \"\(points)\"\n").first?.contains(
                "more than \(PathData.maxPoints) points") == true)
    }

    @Test(
        "dash patterns of zeros, negatives or NaN, and NaN numbers, are refused at their lines",
        arguments: [
            ("line_dash_pattern = [0, 0]", "every length is 0"),
            ("line_dash_pattern = [3, -1]", "no negatives"),
            ("line_dash_pattern = [3, nan]", "no NaN"),
            ("line_width = nan", "out of range"),
            ("stroke_end = 1.5", "out of range"),
            ("line_cap = \"flat\"", "is not one of"),
        ])
    func refused(_ line: String, _ words: String) {
        let problems = configProblems("[[layer]]\ntype = \"shape\"\npath = \"M0 0H9\"\n\(line)\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("t.toml:4: ") == true, "\(problems)")
        #expect(problems.first?.contains(words) == true, "\(problems)")
    }

    @Test("a path animation between paths of other commands is refused at the animation's line")
    func mismatchedPathAnimation() {
        let source = """
            [[layer]]
            type = "shape"
            path = "M0 0L10 0L10 10Z"

            [[layer.animation]]
            key_path = "path"
            to = "M0 0L10 0Q10 10 0 10Z"
            duration = 1
            """
        let problems = configProblems(source)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("t.toml:5: layer[0].animation[0]:") == true, "\(problems)")
        let good = source.replacingOccurrences(of: "Q10 10 0 10Z", with: "L0 10Z")
        #expect(configProblems(good.replacingOccurrences(of: "L0 10Z", with: "L5 5Z")) == [])
    }

    @Test("path-data keys on a rounded-rectangle shape are a problem, not ignored")
    func pathKeysNeedPathData() {
        let problems = configProblems("[[layer]]\ntype = \"shape\"\nline_cap = \"round\"\n")
        #expect(problems.count == 1)
        #expect(problems.first?.contains("applies to a path given as SVG path data") == true)
    }
}
