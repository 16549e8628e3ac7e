/// Temporal dithering from 16-bit levels to 8-bit: each LED channel carries the part of
/// its level the last frame could not show into the next one, so over a few frames the
/// average is exact and a slow fade at low brightness moves smoothly instead of stepping.
public struct TemporalDither: Sendable {
    private var residual: [UInt8] = []

    public init() {}

    /// The 8-bit value to show now for `level` (0...65535) of channel slot `slot`.
    @inline(__always)
    public mutating func quantise(_ level: UInt16, slot: Int) -> UInt8 {
        let sum = UInt32(Self.steps(level)) + UInt32(residual[slot])
        residual[slot] = UInt8(truncatingIfNeeded: sum)
        return UInt8(sum >> 8)
    }

    /// Makes room for `slots` channels (new ones start without carry).
    public mutating func reserve(_ slots: Int) {
        if residual.count != slots { residual = [UInt8](repeating: 0, count: slots) }
    }

    /// Rounds to nearest without carrying anything over (dithering off).
    @inline(__always)
    public static func round(_ level: UInt16) -> UInt8 {
        UInt8((UInt32(level) * 255 + 32767) / 65535)
    }

    /// `level` in 1/256 steps of the 8-bit scale (65535 is 255 * 256): what `quantise` adds
    /// to the carry, `(level * 65280 + 32767) / 65535` rounded down. At most 65280, so with
    /// a carry below 256 the sum fits 16 bits.
    ///
    /// 65280 / 65535 is 1 - 1/257, and the rounded quotient is exactly
    /// `level - (level + 128) / 257`; for the 17-bit dividends here `x / 257` is
    /// `x * 65281 >> 24`. So a multiply, a shift and a subtract, no division; the tests
    /// check every level against the division.
    @inline(__always)
    static func steps(_ level: UInt16) -> UInt16 {
        let l = UInt32(level)
        return UInt16(truncatingIfNeeded: l &- ((l &+ 128) &* 65281) &>> 24)
    }

    /// The carry of every slot, for a pass that quantises a whole frame at once (what
    /// `quantise` does, slot by slot: add the steps, keep the low byte, show the high one).
    @inline(__always)
    mutating func withCarry<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        residual.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
