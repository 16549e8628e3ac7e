/// An output's colour correction at the current brightness, as one look-up per channel
/// byte: for red, green and blue (256 entries each, one after the other), what the 8-bit
/// value becomes after the transfer curve, white point and brightness scale, already in the
/// dither's 1/256 steps (or rounded to the byte, dithering off). Rebuilt only when the scale
/// changes, so the per-byte work is a look-up and, dithering, an add.
struct DriveTable: Sendable {
    /// The 16-bit linear levels at full brightness (`ColorCorrection.tables`, flattened).
    let levels: [UInt16]
    /// Per entry: dithering, the level in 1/256 steps of the byte (`TemporalDither.steps`);
    /// otherwise the rounded byte.
    private(set) var entries: [UInt16]
    let dithering: Bool
    /// The scale `entries` are at; none yet before the first frame.
    private var scale: UInt32?

    init(correction: ColorCorrection, dithering: Bool) {
        levels = correction.tables().flatMap { $0 }
        entries = [UInt16](repeating: 0, count: levels.count)
        self.dithering = dithering
    }

    /// Brings `entries` to `scale` (`DisplaySetting.scale`), in place: nothing allocates.
    @inline(__always)
    mutating func update(scale: UInt32) {
        guard self.scale != scale else { return }
        self.scale = scale
        let dithering = dithering
        levels.withUnsafeBufferPointer { levels in
            entries.withUnsafeMutableBufferPointer { entries in
                for i in 0..<levels.count {
                    let level = DisplaySetting.scaled(levels[i], by: scale)
                    entries[i] = dithering ? TemporalDither.steps(level) : UInt16(TemporalDither.round(level))
                }
            }
        }
    }
}
