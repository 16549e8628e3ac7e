/// A projective map of the plane in the row-vector convention of `Transform3D`: the point
/// (x, y) is the row (x, y, 1), and (X, Y, W) = (x, y, 1) * M lands at (X / W, Y / W). How a
/// transformed flat layer's pixels are placed, and (inverted) where a board pixel samples it.
public struct Homography: Sendable, Hashable {
    public var m11, m12, m13: Double
    public var m21, m22, m23: Double
    public var m31, m32, m33: Double

    public init(
        m11: Double, m12: Double, m13: Double, m21: Double, m22: Double, m23: Double, m31: Double, m32: Double,
        m33: Double
    ) {
        (self.m11, self.m12, self.m13) = (m11, m12, m13)
        (self.m21, self.m22, self.m23) = (m21, m22, m23)
        (self.m31, self.m32, self.m33) = (m31, m32, m33)
    }

    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The inverse, scaled so that a point in front of the viewer (w > 0) maps back with w > 0;
    /// `nil` when the map flattens the plane to a line or a point (a scale of 0).
    public var inverted: Homography? {
        let det = determinant
        guard det.isFinite, det.magnitude > 1e-12 else { return nil }
        let k = 1 / det
        return Homography(
            m11: (m22 * m33 - m23 * m32) * k, m12: (m13 * m32 - m12 * m33) * k, m13: (m12 * m23 - m13 * m22) * k,
            m21: (m23 * m31 - m21 * m33) * k, m22: (m11 * m33 - m13 * m31) * k, m23: (m13 * m21 - m11 * m23) * k,
            m31: (m21 * m32 - m22 * m31) * k, m32: (m12 * m31 - m11 * m32) * k, m33: (m11 * m22 - m12 * m21) * k)
    }

    /// (x, y) mapped in homogeneous coordinates.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double, w: Double) {
        (x * m11 + y * m21 + m31, x * m12 + y * m22 + m32, x * m13 + y * m23 + m33)
    }
}
