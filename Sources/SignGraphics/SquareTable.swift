/// The coverage factors (0...255) of squares 1 to 2.5 px on a side, in steps of half a pixel,
/// turned by each of 32 steps of a quarter turn (a square a quarter turn round is itself),
/// with their centres at every 1/8 px phase in x and y: what `ShapeBrush` computes for such a
/// square, computed once. Each entry is 32 bytes, one aligned half of a cache line (the
/// table is read at random, a particle an entry): 5 rows of 5 bytes, row r and byte c the
/// pixel r - 2 rows and c - 2 columns from the one holding the centre (a square up to 2.5 px
/// turned reaches no further), then the box of its nonzero bytes as first column, first row,
/// end column and end row (each 0...5), a byte each. 256 KB, 64 KB a size; made the first
/// time a brush is used. Spinning confetti and snow are such squares, mostly unscaled.
enum SquareTable {
    /// The sizes held: 1, 1.5, 2 and 2.5 px.
    static let sizes = 4
    /// Steps of a quarter turn.
    static let turns = 32
    /// Phases of a centre in its pixel, in x and in y.
    static let phases = 8
    static let rows = 5
    static let rowBytes = 5
    static let entryBytes = 32
    /// Where an entry's box begins.
    static let boxOffset = 28

    /// Which of the sizes a square `width` px on a side is (numbered as `DiscTable`'s, which
    /// go on to 3 px); `nil` when none.
    @inline(__always)
    static func size(_ width: Double) -> Int? { width <= 2.5 ? DiscTable.size(width) : nil }

    /// The step of a quarter turn nearest `angle` radians, 0..<32 (`angle` within ±2^40): the
    /// angle in 64ths of a half turn, rounded by adding 1.5 x 2^52, its low bits the step.
    @inline(__always)
    static func turn(_ angle: Double) -> Int {
        Int(truncatingIfNeeded: (angle * (64 / Double.pi) + 0x1.8p52).bitPattern) & (turns - 1)
    }

    /// The cosine and sine of `turn` steps, as the brush turns by them.
    static func cosineSine(turn: Int) -> (Float, Float) {
        let r = sineCosine(Double(turn) * (Double.pi / 64))
        return (Float(r.cos), Float(r.sin))
    }

    /// Where the entry for a square of `size` turned `turn` steps with its centre `phaseX` / 8
    /// and `phaseY` / 8 px into its pixel begins.
    @inline(__always)
    static func entry(size: Int, turn: Int, phaseX: Int, phaseY: Int) -> Int {
        (((size &* turns &+ turn) &* phases &+ phaseY) &* phases &+ phaseX) &* entryBytes
    }

    /// Every entry, and 4 bytes more (four bytes are read from any column of a row; eight from
    /// a column of the box, which ends within the entry).
    static let factors: [UInt8] = {
        var table = [UInt8](repeating: 0, count: sizes * turns * phases * phases * entryBytes + 4)
        for size in 0..<sizes {
            let half = Float(Double(size + 2) / 4)
            for turn in 0..<turns {
                let (c, s) = cosineSine(turn: turn)
                for phaseY in 0..<phases {
                    for phaseX in 0..<phases {
                        let base = entry(size: size, turn: turn, phaseX: phaseX, phaseY: phaseY)
                        var (c0, r0, c1, r1) = (5, 5, 0, 0)
                        for r in 0..<rows {
                            let dy = Float(Double(r - 2) + 0.5 - Double(phaseY) / Double(phases))
                            for col in stride(from: 0, to: 8, by: 4) {
                                let dx =
                                    SIMD4<Float>(0, 1, 2, 3)
                                    + Float(Double(col - 2) + 0.5 - Double(phaseX) / Double(phases))
                                let f = ShapeBrush.factors(
                                    ShapeBrush.square(c: c, s: s, rx: half, ry: half, fx: 1, fy: 1, dx: dx, dy: dy))
                                for j in 0..<4 where col + j < 5 && f[j] != 0 {
                                    table[base + r * rowBytes + col + j] = UInt8(f[j])
                                    (c0, r0) = (min(c0, col + j), min(r0, r))
                                    (c1, r1) = (max(c1, col + j + 1), max(r1, r + 1))
                                }
                            }
                        }
                        if c0 >= c1 { (c0, r0, c1, r1) = (0, 0, 0, 0) }
                        for (k, v) in [c0, r0, c1, r1].enumerated() { table[base + boxOffset + k] = UInt8(v) }
                    }
                }
            }
        }
        return table
    }()
}
