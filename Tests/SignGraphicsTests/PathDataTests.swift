import Foundation
import Testing

@testable import SignGraphics

@Suite("SVG path data")
struct PathDataTests {
    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test("absolute and relative lines, H and V, Z back to the start")
    func linesAndClose() throws {
        let path = try PathData.parse("M 2 2 L 30 2 h -4 v 6 l -2,-1 H 1 V 9 z")
        #expect(
            path.elements == [
                .move(p(2, 2)), .line(p(30, 2)), .line(p(26, 2)), .line(p(26, 8)), .line(p(24, 7)), .line(p(1, 7)),
                .line(p(1, 9)), .close,
            ])
    }

    @Test("numbers as SVG writes them: 1.5.5, exponents, signs as separators")
    func numberSyntax() throws {
        let path = try PathData.parse("M1.5.5L1e1-2E0l+.5-.25")
        #expect(path.elements == [.move(p(1.5, 0.5)), .line(p(10, -2)), .line(p(10.5, -2.25))])
    }

    @Test("a move's repeats are lines, relative after m")
    func implicitLines() throws {
        let path = try PathData.parse("m1 1 2 0 0 2M5 5 6 6")
        #expect(
            path.elements == [.move(p(1, 1)), .line(p(3, 1)), .line(p(3, 3)), .move(p(5, 5)), .line(p(6, 6))])
    }

    @Test("S and T reflect the last control point, or use the current point after another command")
    func smoothCurves() throws {
        let path = try PathData.parse("M0 0C1 2 3 4 5 5S9 9 10 10M0 0Q2 2 4 0T8 0M0 0L1 0S3 3 4 4")
        #expect(path.elements[2] == .curve(p(7, 6), p(9, 9), p(10, 10)))
        #expect(path.elements[5] == .quadCurve(p(6, -2), p(8, 0)))
        #expect(path.elements[8] == .curve(p(1, 0), p(3, 3), p(4, 4)))
    }

    @Test("drawing on after Z starts from the closed subpath's start")
    func afterClose() throws {
        let path = try PathData.parse("M3 3L9 3Zl0 4")
        #expect(path.elements == [.move(p(3, 3)), .line(p(9, 3)), .close, .move(p(3, 3)), .line(p(3, 7))])
    }

    @Test("an arc becomes four cubics ending on the endpoint, its points on the circle")
    func arcOnCircle() throws {
        let path = try PathData.parse("M10 20A10 10 0 0 1 30 20")
        #expect(path.elements.count == 5)
        guard case .curve(_, _, let end) = path.elements[4] else { throw Failure("not a curve") }
        #expect(end == p(30, 20))
        // Sweep 1 from (10,20) to (30,20) with radius 10: the upper half circle (y down), centre (20,20).
        guard case .curve(_, _, let mid) = path.elements[2] else { throw Failure("not a curve") }
        #expect(abs(mid.x - 20) < 1e-9 && abs(mid.y - 10) < 1e-9)
    }

    @Test("arc radii too small to reach are scaled up; flags need no separator; a zero radius is a line")
    func arcRadii() throws {
        let small = try PathData.parse("M0 0a1 1 0 0120 0")
        guard case .curve(_, _, let mid) = small.elements[2] else { throw Failure("not a curve") }
        #expect(abs(mid.x - 10) < 1e-9 && abs(abs(mid.y) - 10) < 1e-9)
        #expect(try PathData.parse("M0 0A0 5 0 0 1 8 8").elements == [.move(p(0, 0)), .line(p(8, 8))])
        #expect(try PathData.parse("M4 4A5 5 0 0 1 4 4").elements == [.move(p(4, 4))])
    }

    @Test(
        "errors name the character offset and what was wrong",
        arguments: [
            ("L 1 2", 0, "starts with a move"),
            ("M 1 2 L 3", 9, "expected a number for \"L\""),
            ("M 1 2 X 3 4", 6, "\"X\" is not a path command"),
            ("M 0 0 A 1 1 0 2 0 4 4", 14, "arc flag"),
            ("M 0 0 L 1e999 0", 8, "not a finite number"),
        ])
    func errors(_ input: String, _ offset: Int, _ words: String) {
        #expect {
            try PathData.parse(input)
        } throws: { error in
            guard let f = error as? PathData.Failure else { return false }
            return f.offset == offset && f.message.contains(words)
        }
    }

    @Test("path data past the length limit and paths past the point limit are refused, naming the limit")
    func limits() {
        let long = "M0 0" + String(repeating: " L1 1", count: 20_000)
        #expect(throws: PathData.Failure.self) { try PathData.parse(long) }
        let many = "M0 0" + String(repeating: "L1 1", count: PathData.maxPoints + 1)
        #expect {
            try PathData.parse(many)
        } throws: { ($0 as? PathData.Failure)?.message.contains("\(PathData.maxPoints)") == true }
    }

    @Test("paths with the same commands interpolate point by point; others do not")
    func interpolation() throws {
        let a = try PathData.parse("M0 0L10 0Q10 10 0 10Z"), b = try PathData.parse("M2 2L20 2Q20 20 2 20Z")
        let mid = try #require(a.interpolated(to: b, fraction: 0.5))
        #expect(mid.elements == [.move(p(1, 1)), .line(p(15, 1)), .quadCurve(p(15, 15), p(1, 15)), .close])
        #expect(a.interpolated(to: try PathData.parse("M0 0L10 0L0 10Z"), fraction: 0.5) == nil)
    }

    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
