import Glibc

/// The weights of a one-dimensional Gaussian blur of pixels, shifted by a fraction of a
/// pixel: what a shadow's blur (`ShadowBlur`) applies across and then down. The pixels are
/// taken as the squares they light, so a tap's weight is the Gaussian's integral over one
/// pixel's width, `Φ((k + ½ − φ) / σ) − Φ((k − ½ − φ) / σ)` for tap `k` and phase `φ`, cut
/// at `ceil(3σ)` pixels each side and scaled to sum to 1 (so a wide solid area keeps its
/// full alpha inside). σ of 0 samples the nearest pixel. Its storage is made once for the
/// largest σ, so setting another σ allocates nothing.
public struct GaussianKernel: Sendable {
    /// The largest standard deviation in pixels: what `shadow_radius` is capped at.
    public static let maxSigma = 16.0

    /// Taps each side of the centre for `sigma` (clamped to 0...`maxSigma`; NaN is 0).
    @inlinable
    public static func reach(sigma: Double) -> Int { Int((clamped(sigma) * 3).rounded(.up)) }

    /// `sigma` within 0...`maxSigma`, NaN as 0.
    @inlinable
    public static func clamped(_ sigma: Double) -> Double {
        sigma.isNaN ? 0 : Swift.min(Swift.max(sigma, 0), maxSigma)
    }

    /// `weights[i]` is the weight of tap `first + i`: an output pixel `x` reads source pixel
    /// `x - first - i`. Only the first `count` are in use.
    public private(set) var weights: [Float]
    public private(set) var first = 0
    public private(set) var count = 1
    public private(set) var sigma = -1.0
    public private(set) var phase = -1.0

    /// A kernel of σ 0 (nearest pixel), with room for every σ up to `maxSigma`.
    public init() {
        weights = [Float](repeating: 0, count: 2 * Self.reach(sigma: Self.maxSigma) + 2)
        set(sigma: 0, phase: 0)
    }

    /// Sets the weights for standard deviation `sigma` (clamped) and a shift of `phase` (in
    /// 0..<1) pixels towards higher coordinates; nothing is computed when both are as they
    /// were.
    public mutating func set(sigma rawSigma: Double, phase rawPhase: Double) {
        let sigma = Self.clamped(rawSigma)
        let phase = rawPhase.isFinite ? Swift.min(Swift.max(rawPhase, 0), 0.999_999) : 0
        guard sigma != self.sigma || phase != self.phase else { return }
        (self.sigma, self.phase) = (sigma, phase)
        // Below a thousandth of a pixel the weights are a step: the nearest pixel.
        if sigma < 0.001 {
            first = phase < 0.5 ? 0 : 1
            count = 1
            weights[0] = 1
            return
        }
        let reach = Self.reach(sigma: sigma)
        first = -reach
        count = 2 * reach + 2
        let scale = 1 / (sigma * 2.0.squareRoot())
        // Φ at each edge between taps, telescoped: one erf per edge.
        var below = 0.5 * erfc(-(Double(first) - 0.5 - phase) * scale)
        var sum = 0.0
        weights.withUnsafeMutableBufferPointer { w in
            for i in 0..<count {
                let above = 0.5 * erfc(-(Double(first + i) + 0.5 - phase) * scale)
                w[i] = Float(above - below)
                sum += above - below
                below = above
            }
            let norm = Float(1 / sum)
            for i in 0..<count { w[i] *= norm }
        }
    }
}
