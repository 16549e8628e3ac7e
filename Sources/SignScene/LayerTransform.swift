import SignGraphics

/// A layer's `transform` (or `sublayerTransform`) held as the parts Core Animation's
/// transform key paths name (`transform.scale.x`, `transform.rotation.z`,
/// `transform.translation.x`...) plus a perspective, composed in one fixed order into a
/// `CATransform3D` (`matrix`). Held as parts, a key path reads back what was set (a turn
/// and a half reads 3π, where decomposing a matrix would give π) and animates exactly.
public struct LayerTransform: Sendable, Hashable {
    /// `transform.scale.x`, `.y`, `.z`.
    public var scaleX = 1.0, scaleY = 1.0, scaleZ = 1.0
    /// `transform.rotation.x`, `.y`, `.z`, in radians (positive about z turns clockwise on
    /// a board, y pointing down, as on iOS).
    public var rotationX = 0.0, rotationY = 0.0, rotationZ = 0.0
    /// `transform.translation` (x, y).
    public var translation = Point.zero
    /// The viewer's distance for perspective, `m34 = -1 / perspective`; 0 for none.
    public var perspective = 0.0

    public init() {}

    public static let identity = LayerTransform()

    /// Nothing but a translation (or nothing at all): the layer is drawn in place, never
    /// resampled.
    @inline(__always)
    public var isTranslation: Bool {
        scaleX == 1 && scaleY == 1 && scaleZ == 1 && rotationX == 0 && rotationY == 0 && rotationZ == 0
            && perspective == 0
    }

    /// `transform.scale`: the mean of the three scales, as Core Animation reads it; set, it
    /// sets all three.
    public var scale: Double {
        get { (scaleX + scaleY + scaleZ) / 3 }
        set { (scaleX, scaleY, scaleZ) = (newValue, newValue, newValue) }
    }

    /// The `CATransform3D`: scale, then rotation about z, y and x (in that order), then the
    /// translation, then the perspective. Rotating about z before y lets a spinning layer
    /// flip as a card does; the perspective last makes the vanishing point the anchor.
    public var matrix: Transform3D {
        var m = Transform3D.scale(x: scaleX, y: scaleY, z: scaleZ)
        if rotationZ != 0 { m = m.concatenating(.rotation(angle: rotationZ, x: 0, y: 0, z: 1)) }
        if rotationY != 0 { m = m.concatenating(.rotation(angle: rotationY, x: 0, y: 1, z: 0)) }
        if rotationX != 0 { m = m.concatenating(.rotation(angle: rotationX, x: 1, y: 0, z: 0)) }
        m.m41 += translation.x
        m.m42 += translation.y
        if perspective != 0 { m = m.concatenating(.perspective(distance: perspective)) }
        return m
    }
}
