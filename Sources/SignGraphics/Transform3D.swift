import Glibc

/// Core Animation's `CATransform3D`: a 4x4 matrix in its row-vector convention. A point is
/// the row (x, y, z, 1) multiplied on the left, so translations sit in `m41`...`m43`, and
/// `a.concatenating(b)` (`CATransform3DConcat(a, b)`) applies `a` first, then `b`.
/// Perspective is `m34 = -1 / d`: a point nearer the viewer (z > 0) gets a smaller w and
/// looks larger.
public struct Transform3D: Sendable, Hashable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        m11: Double, m12: Double, m13: Double, m14: Double, m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double, m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// `CATransform3DIdentity`.
    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0, m31: 0, m32: 0, m33: 1, m34: 0, m41: 0,
        m42: 0, m43: 0, m44: 1)

    /// `CATransform3DMakeTranslation`.
    public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
        var t = identity
        (t.m41, t.m42, t.m43) = (x, y, z)
        return t
    }

    /// `CATransform3DMakeScale`.
    public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
        var t = identity
        (t.m11, t.m22, t.m33) = (x, y, z)
        return t
    }

    /// `CATransform3DMakeRotation`: `angle` radians about the axis (x, y, z), normalised. On
    /// a board (y down) a positive angle about z turns clockwise, as on iOS. A zero axis
    /// (Apple leaves it undefined) gives the identity.
    public static func rotation(angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { return identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), k = 1 - c
        // The column-vector rotation matrix (Rodrigues) transposed for row vectors.
        return Transform3D(
            m11: c + x * x * k, m12: x * y * k + z * s, m13: x * z * k - y * s, m14: 0,
            m21: x * y * k - z * s, m22: c + y * y * k, m23: y * z * k + x * s, m24: 0,
            m31: x * z * k + y * s, m32: y * z * k - x * s, m33: c + z * z * k, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// Perspective at `distance` from the viewer: `m34 = -1 / distance`.
    public static func perspective(distance: Double) -> Transform3D {
        var t = identity
        t.m34 = -1 / distance
        return t
    }

    /// `CATransform3DIsIdentity`.
    public var isIdentity: Bool { self == .identity }

    /// Only `m41`...`m43` differ from the identity: a move, nothing resampled.
    public var isTranslation: Bool {
        var t = self
        (t.m41, t.m42, t.m43) = (0, 0, 0)
        return t == .identity
    }

    /// `CATransform3DConcat(self, other)`: this transform, then `other`.
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        func row(_ r1: Double, _ r2: Double, _ r3: Double, _ r4: Double) -> (Double, Double, Double, Double) {
            (
                r1 * b.m11 + r2 * b.m21 + r3 * b.m31 + r4 * b.m41, r1 * b.m12 + r2 * b.m22 + r3 * b.m32 + r4 * b.m42,
                r1 * b.m13 + r2 * b.m23 + r3 * b.m33 + r4 * b.m43, r1 * b.m14 + r2 * b.m24 + r3 * b.m34 + r4 * b.m44
            )
        }
        let r1 = row(a.m11, a.m12, a.m13, a.m14), r2 = row(a.m21, a.m22, a.m23, a.m24)
        let r3 = row(a.m31, a.m32, a.m33, a.m34), r4 = row(a.m41, a.m42, a.m43, a.m44)
        return Transform3D(
            m11: r1.0, m12: r1.1, m13: r1.2, m14: r1.3, m21: r2.0, m22: r2.1, m23: r2.2, m24: r2.3,
            m31: r3.0, m32: r3.1, m33: r3.2, m34: r3.3, m41: r4.0, m42: r4.1, m43: r4.2, m44: r4.3)
    }

    /// The determinant.
    public var determinant: Double {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }

    /// `CATransform3DInvert`, except that a transform with no inverse (a scale of 0) gives
    /// `nil` where Core Animation returns it unchanged.
    public var inverted: Transform3D? {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        return Transform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * k, m12: (-m12 * c5 + m13 * c4 - m14 * c3) * k,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * k, m14: (-m32 * s5 + m33 * s4 - m34 * s3) * k,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * k, m22: (m11 * c5 - m13 * c2 + m14 * c1) * k,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * k, m24: (m31 * s5 - m33 * s2 + m34 * s1) * k,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * k, m32: (-m11 * c4 + m12 * c2 - m14 * c0) * k,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * k, m34: (-m31 * s4 + m32 * s2 - m34 * s0) * k,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * k, m42: (m11 * c3 - m12 * c1 + m13 * c0) * k,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * k, m44: (m31 * s3 - m32 * s1 + m33 * s0) * k)
    }

    /// The point (x, y, z) mapped, in homogeneous coordinates (x', y', z', w).
    public func apply(x: Double, y: Double, z: Double = 0) -> (x: Double, y: Double, z: Double, w: Double) {
        (
            x * m11 + y * m21 + z * m31 + m41, x * m12 + y * m22 + z * m32 + m42, x * m13 + y * m23 + z * m33 + m43,
            x * m14 + y * m24 + z * m34 + m44
        )
    }

    /// A point of the plane z = 0 mapped and projected onto it (divided by w); `nil` when it
    /// lands at or behind the viewer (w <= 0), where nothing is drawn.
    public func project(_ p: Point) -> Point? {
        let q = apply(x: p.x, y: p.y)
        guard q.w > 0 else { return nil }
        return Point(x: q.x / q.w, y: q.y / q.w)
    }

    /// What the transform does to the plane z = 0 as seen on the plane z = 0 (z dropped
    /// after mapping): the projective map a flat layer is drawn by, as `CALayer` flattens.
    public var planar: Homography {
        Homography(m11: m11, m12: m12, m13: m14, m21: m21, m22: m22, m23: m24, m31: m41, m32: m42, m33: m44)
    }
}
