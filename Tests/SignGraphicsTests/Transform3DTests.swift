import Glibc
import Testing

@testable import SignGraphics

@Suite("Transform3D")
struct Transform3DTests {
    /// Every entry within 1e-12 of the one expected.
    func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        let x = [
            a.m11, a.m12, a.m13, a.m14, a.m21, a.m22, a.m23, a.m24, a.m31, a.m32, a.m33, a.m34, a.m41, a.m42, a.m43,
            a.m44,
        ]
        let y = [
            b.m11, b.m12, b.m13, b.m14, b.m21, b.m22, b.m23, b.m24, b.m31, b.m32, b.m33, b.m34, b.m41, b.m42, b.m43,
            b.m44,
        ]
        return zip(x, y).allSatisfy { abs($0 - $1) <= tolerance }
    }

    func matrix(_ rows: [[Double]]) -> Transform3D {
        Transform3D(
            m11: rows[0][0], m12: rows[0][1], m13: rows[0][2], m14: rows[0][3], m21: rows[1][0], m22: rows[1][1],
            m23: rows[1][2], m24: rows[1][3], m31: rows[2][0], m32: rows[2][1], m33: rows[2][2], m34: rows[2][3],
            m41: rows[3][0], m42: rows[3][1], m43: rows[3][2], m44: rows[3][3])
    }

    @Test("translation sits in m41..m43 and scale on the diagonal, as CATransform3DMake* give them")
    func translationAndScale() {
        #expect(Transform3D.translation(x: 2, y: -3, z: 4) == matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [2, -3, 4, 1]]))
        #expect(Transform3D.scale(x: 2, y: 3, z: 4) == matrix([[2, 0, 0, 0], [0, 3, 0, 0], [0, 0, 4, 0], [0, 0, 0, 1]]))
        #expect(Transform3D.translation(x: 1, y: 0).isTranslation)
        #expect(!Transform3D.scale(x: 2, y: 1).isTranslation)
    }

    @Test("rotations about z, y and x are the row-vector matrices: a quarter turn about z takes (1, 0) to (0, 1)")
    func rotations() {
        let a = 0.3, c = cos(a), s = sin(a)
        #expect(close(.rotation(angle: a, x: 0, y: 0, z: 1), matrix([[c, s, 0, 0], [-s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])))
        #expect(close(.rotation(angle: a, x: 0, y: 1, z: 0), matrix([[c, 0, -s, 0], [0, 1, 0, 0], [s, 0, c, 0], [0, 0, 0, 1]])))
        #expect(close(.rotation(angle: a, x: 1, y: 0, z: 0), matrix([[1, 0, 0, 0], [0, c, s, 0], [0, -s, c, 0], [0, 0, 0, 1]])))
        // The axis is normalised; a zero axis is the identity.
        #expect(close(.rotation(angle: a, x: 0, y: 0, z: 5), .rotation(angle: a, x: 0, y: 0, z: 1)))
        #expect(Transform3D.rotation(angle: a, x: 0, y: 0, z: 0) == .identity)
        let p = Transform3D.rotation(angle: .pi / 2, x: 0, y: 0, z: 1).apply(x: 1, y: 0)
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
        // About an arbitrary axis: Rodrigues' formula, by hand for the axis (1, 1, 1) / √3 at 120°,
        // which cycles the axes x → y → z.
        let cycle = Transform3D.rotation(angle: 2 * .pi / 3, x: 1, y: 1, z: 1)
        #expect(close(cycle, matrix([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]])))
    }

    @Test("concatenating applies the receiver first: translate then scale moves the origin by the scaled offset")
    func concatenation() {
        let t = Transform3D.translation(x: 1, y: 2), s = Transform3D.scale(x: 2, y: 3)
        #expect(t.concatenating(s) == matrix([[2, 0, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [2, 6, 0, 1]]))
        #expect(s.concatenating(t) == matrix([[2, 0, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [1, 2, 0, 1]]))
        let r = Transform3D.rotation(angle: 0.7, x: 1, y: 2, z: 3)
        #expect(r.concatenating(.identity) == r)
    }

    @Test("the inverse undoes the transform; a scale of 0 has none")
    func inverse() throws {
        let m = Transform3D.rotation(angle: 0.4, x: 0, y: 1, z: 0).concatenating(.scale(x: 2, y: 0.5, z: 3))
            .concatenating(.translation(x: 7, y: -2, z: 1)).concatenating(.perspective(distance: 300))
        let inverse = try #require(m.inverted)
        #expect(close(m.concatenating(inverse), .identity, 1e-12))
        #expect(abs(m.determinant - 3 * (1 as Double)) < 1e-12)
        #expect(Transform3D.scale(x: 0, y: 1).inverted == nil)
        #expect(Transform3D.scale(x: 0, y: 1).planar.inverted == nil)
    }

    @Test("m34 = -1/d: a point 50 px nearer at d = 100 is drawn twice as far out; a turned layer's edge by hand")
    func perspective() throws {
        let p = Transform3D.perspective(distance: 100)
        #expect(p.m34 == -0.01)
        let near = try #require(p.project3(x: 10, y: 0, z: 50))
        #expect(abs(near.x - 20) < 1e-12)
        // (10, 0) turned 60° about y: x = 10 cos 60° = 5, z = -10 sin 60°; w = 1 - z / 100.
        let turned = Transform3D.rotation(angle: .pi / 3, x: 0, y: 1, z: 0).concatenating(p)
        let q = try #require(turned.project(Point(x: 10, y: 0)))
        #expect(abs(q.x - 5 / (1 + 10 * sin(Double.pi / 3) / 100)) < 1e-12)
        // Behind the viewer: w <= 0.
        #expect(Transform3D.translation(x: 0, y: 0, z: 100).concatenating(p).project(Point(x: 1, y: 1)) == nil)
    }

    @Test("the planar map is the transform on z = 0, and its inverse maps back with w > 0")
    func planar() throws {
        let m = Transform3D.rotation(angle: 0.9, x: 0.2, y: 1, z: 0.1).concatenating(.translation(x: 5, y: 3, z: -8))
            .concatenating(.perspective(distance: 60))
        let h = m.planar, inverse = try #require(h.inverted)
        for (x, y) in [(0.0, 0.0), (3, -4), (-7.5, 2.25), (10, 10)] {
            let full = try #require(m.project(Point(x: x, y: y)))
            let q = h.apply(x, y)
            #expect(abs(q.x / q.w - full.x) < 1e-12 && abs(q.y / q.w - full.y) < 1e-12)
            let back = inverse.apply(q.x / q.w, q.y / q.w)
            #expect(back.w > 0)
            #expect(abs(back.x / back.w - x) < 1e-9 && abs(back.y / back.w - y) < 1e-9)
        }
    }
}

extension Transform3D {
    /// A point in space mapped and divided by w, for the tests.
    fileprivate func project3(x: Double, y: Double, z: Double) -> Point? {
        let q = apply(x: x, y: y, z: z)
        return q.w > 0 ? Point(x: q.x / q.w, y: q.y / q.w) : nil
    }
}
