/// The coverage factors (0...255) of discs 1 to 3 px across, in steps of half a pixel, with
/// their centres at every 1/16 px phase in x and y: what `ShapeBrush` computes for such a
/// disc, computed once. Each entry is 5 rows of 8 bytes, row r and byte c the pixel r - 2 rows
/// and c - 2 columns from the one holding the centre (bytes 5 to 7 always 0, so four bytes
/// may be read from any column the disc reaches). Most particles are such discs, unscaled.
enum DiscTable {
    /// The sizes held: 1, 1.5, 2, 2.5 and 3 px.
    static let sizes = 5
    static let rows = 5
    static let rowBytes = 8
    static let entryBytes = rows * rowBytes

    /// Which of the sizes a disc `width` px across is; `nil` when none.
    @inline(__always)
    static func size(_ width: Double) -> Int? {
        guard width >= 1, width <= 3 else { return nil }
        let twice = Int(width * 2)
        guard Double(twice) == width * 2 else { return nil }
        return twice &- 2
    }

    /// Where the entry for a disc of `size` with its centre `phaseX` / 16 and `phaseY` / 16 px
    /// into its pixel begins.
    @inline(__always)
    static func entry(size: Int, phaseX: Int, phaseY: Int) -> Int {
        ((size &* 16 &+ phaseY) &* 16 &+ phaseX) &* entryBytes
    }

    /// Every entry, from `ShapeBrush.disc` and `ShapeBrush.factors` (the same bits the brush
    /// computes for a disc centred there), 10 KB a size, made on first use; and 8 bytes more
    /// (eight bytes are read from any column of a row, the last entry's too).
    static let factors: [UInt8] = {
        var table = [UInt8](repeating: 0, count: sizes * 256 * entryBytes + 8)
        for size in 0..<sizes {
            let half = Float(Double(size + 2) / 4)
            let edge = max(half, 0.5) + 0.5
            for phaseY in 0..<16 {
                for phaseX in 0..<16 {
                    let base = entry(size: size, phaseX: phaseX, phaseY: phaseY)
                    for r in 0..<rows {
                        let dy = Float(Double(r - 2) + 0.5 - Double(phaseY) / 16)
                        for c in stride(from: 0, to: 8, by: 4) {
                            let dx = SIMD4<Float>(0, 1, 2, 3) + Float(Double(c - 2) + 0.5 - Double(phaseX) / 16)
                            let f = ShapeBrush.factors(ShapeBrush.disc(edge: edge, dx: dx, dy: dy))
                            for j in 0..<4 where c + j < 5 { table[base + r * rowBytes + c + j] = UInt8(f[j]) }
                        }
                    }
                }
            }
        }
        return table
    }()
}
