/// The sine and cosine of `x` radians together, in plain arithmetic: `x` less the nearest
/// multiple of pi/2 (pi/2 in two parts, so the remainder keeps its bits), then the Taylor-like
/// polynomials of degree 13 and 14 (minimax coefficients) on -pi/4...pi/4, the quadrant
/// choosing which is which and their signs. Within 2 units in the last place of `sin` and
/// `cos` for |x| < 2^20 (a test checks), and a function of `x` alone: no libm, so the same bits
/// on every machine. What particles turn and head by, a few each a frame, where a libm call
/// for each of the two was a quarter of the frame. Not a number in, not a number out; beyond
/// 2^30 the argument is first reduced modulo 2 pi (slower, and rare).
@inlinable @inline(__always)
public func sineCosine(_ x: Double) -> (sin: Double, cos: Double) {
    var x = x
    if !(abs(x) < 0x1p30) {
        guard x.isFinite else { return (.nan, .nan) }
        x = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    }
    // Rounded to the nearest whole number by the 1.5 x 2^52 trick: no rounding call.
    let magic = 0x1.8p52
    let q = (x * 0.636_619_772_367_581_382_43 + magic) - magic
    let r = (x - q * 1.570_796_326_734_125_614_17) - q * 6.077_100_506_506_192_249_70e-11
    let z = r * r
    // sin r = r + r^3 (s1 + s2 z + ... + s6 z^5), cos r = 1 - z / 2 + z^2 (c1 + ... + c6 z^5).
    let s1 = -1.666_666_666_666_663_243_48e-01, s2 = 8.333_333_333_322_489_461_24e-03
    let s3 = -1.984_126_982_985_794_931_34e-04, s4 = 2.755_731_370_707_006_767_89e-06
    let s5 = -2.505_076_025_340_686_341_95e-08, s6 = 1.589_690_995_211_550_102_21e-10
    let c1 = 4.166_666_666_666_660_190_37e-02, c2 = -1.388_888_888_887_410_957_49e-03
    let c3 = 2.480_158_728_947_672_941_78e-05, c4 = -2.755_731_435_139_066_330_35e-07
    let c5 = 2.087_572_321_298_174_827_90e-09, c6 = -1.135_964_755_778_819_482_65e-11
    let s = r + r * z * (s1 + z * (s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))))
    let c = 1 - 0.5 * z + z * z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
    switch Int(q) & 3 {
    case 0: return (s, c)
    case 1: return (c, -s)
    case 2: return (-s, -c)
    default: return (-c, s)
    }
}
