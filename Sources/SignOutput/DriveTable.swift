/// An output's colour correction at the current brightness, as one look-up per channel
/// byte: for red, green and blue (256 entries each, one after the other), what the 8-bit
/// value becomes after the transfer curve, white point and brightness scale, already in the
/// dither's 1/256 steps (or rounded to the byte, dithering off). Rebuilt only when the scale
/// changes, so the per-byte work is a look-up and, dithering, an add.
///
/// Each entry sits in the 16-bit lane of a 64-bit word that its channel takes on the wire
/// (lane 0 for the first byte of the output's channel order): one LED's three entries and
/// its three carries add as one word, a lane never overflows into the next (at most 65280
/// steps plus a carry below 256), the high byte of each lane is the byte shown and the low
/// byte the carry kept. So reordering channels costs nothing per LED.
struct DriveTable: Sendable {
    /// The 16-bit linear levels at full brightness (`ColorCorrection.tables`, flattened).
    let levels: [UInt16]
    /// Per entry, in its lane: dithering, the level in 1/256 steps of the byte
    /// (`TemporalDither.steps`); otherwise the rounded byte times 256 (no carry to keep).
    private(set) var lanes: [UInt64]
    let dithering: Bool
    /// The bit each channel's (red, green, blue) lane starts at.
    let shifts: (UInt64, UInt64, UInt64)
    /// The scale `lanes` are at; none yet before the first frame.
    private var scale: UInt32?

    /// What a lane keeps between frames: its low byte.
    static let carryMask: UInt64 = 0x0000_00ff_00ff_00ff

    init(correction: ColorCorrection, dithering: Bool, order: ColourOrder = .rgb) {
        levels = correction.tables().flatMap { $0 }
        lanes = [UInt64](repeating: 0, count: levels.count)
        self.dithering = dithering
        var lane = [0, 0, 0]
        lane[order.first] = 0
        lane[order.second] = 1
        lane[order.third] = 2
        shifts = (UInt64(16 * lane[0]), UInt64(16 * lane[1]), UInt64(16 * lane[2]))
    }

    /// Brings `lanes` to `scale` (`DisplaySetting.scale`), in place: nothing allocates.
    @inline(__always)
    mutating func update(scale: UInt32) {
        guard self.scale != scale else { return }
        self.scale = scale
        let dithering = dithering
        let (red, green, blue) = shifts
        levels.withUnsafeBufferPointer { levels in
            lanes.withUnsafeMutableBufferPointer { lanes in
                for i in 0..<levels.count {
                    let level = DisplaySetting.scaled(levels[i], by: scale)
                    let entry = dithering ? TemporalDither.steps(level) : UInt16(TemporalDither.round(level)) << 8
                    lanes[i] = UInt64(entry) << (i < 256 ? red : i < 512 ? green : blue)
                }
            }
        }
    }
}
