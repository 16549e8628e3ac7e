import SignGraphics

/// What makes a layer a `CAReplicatorLayer`: its sublayers drawn `instanceCount` times,
/// instance i moved by `instanceTransform` applied i times (about the layer's anchor point,
/// after the sublayers' own transforms), its time `i * instanceDelay` behind instance 0's,
/// and everything it draws multiplied by `instanceColor` plus i times the colour offsets,
/// each component clamped to 0...1.
public struct Replicator: Sendable, Hashable {
    /// `instanceCount`: copies drawn, the sublayers themselves included.
    public var instanceCount = 1
    /// `instanceTransform`: what takes each instance to the next.
    public var instanceTransform = LayerTransform.identity
    /// `instanceDelay`, seconds.
    public var instanceDelay = 0.0
    /// `instanceColor`, straight RGBA in 0...1 (default opaque white: no change).
    public var instanceColor = SIMD4<Double>(1, 1, 1, 1)
    /// `instanceRedOffset`, `instanceGreenOffset`, `instanceBlueOffset`, `instanceAlphaOffset`.
    public var colorOffset = SIMD4<Double>(0, 0, 0, 0)

    public init() {}

    /// Instance i's colour multiplier, straight RGBA, each component clamped to 0...1.
    public func color(ofInstance i: Int) -> SIMD4<Double> {
        (instanceColor + Double(i) * colorOffset).clamped(lowerBound: .zero, upperBound: .one)
    }

    /// Instance i's time given instance 0's.
    @inline(__always)
    public func time(ofInstance i: Int, at t: Double) -> Double { t - Double(i) * instanceDelay }
}
