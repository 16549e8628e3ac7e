import SignGraphics
import Synchronization

/// An emitter layer's particles' birth attributes (`Birth`), kept between frames so that a
/// frame works out each particle's hash, direction and spreads once in its life rather than
/// once a frame. A ring a cell, its slots the cell's most particles alive at once rounded up
/// to a power of two and allocated with the prepared layer, never in a frame; particle `k`
/// lives in slot `k` modulo the ring, tagged with `k`, and is worked out again whenever its
/// slot holds another (the first frame, after a seek, a board on another time). The frame
/// stays a function of its time alone: a kept birth is the same bits as one worked out.
/// Locked: a prepared tree may be drawn by more than one compositor (one finding it busy
/// works its particles out, the same particles).
final class ParticleBirths: Sendable {
    /// The rings of every cell: cell `i`'s from `offsets[i]`, `masks[i] + 1` slots (`masks[i]`
    /// -1: none, its particles worked out each frame).
    struct Rings {
        let slots: UnsafeMutablePointer<Birth>
        let offsets: UnsafePointer<Int>
        let masks: UnsafePointer<Int>
        /// Room for `batch` shapes: a frame's particles are put here, then drawn by the brush
        /// a batch at a time (`Canvas.draw(_:at:...)`).
        let shapes: UnsafeMutablePointer<ShapeBrush.Shape>
        /// What a frame knows of each cell before its particles (`EmitterContent.maxCells`).
        let cells: UnsafeMutablePointer<CellFrame>
    }

    /// What a frame works out once for a cell rather than once a particle, where the cell's
    /// particles all share it.
    struct CellFrame {
        /// How the cell's particles are coloured.
        enum Paint {
            /// Each particle's colour worked out (the cell has a colour range or speed).
            case each
            /// Every particle in this pixel.
            case same(Canvas.Pixel)
            /// Every particle transparent: none drawn.
            case hidden
        }

        var paint: Paint
        /// `ShapeBrush.table(round:width:height:scale:)` of every particle (the cell has no
        /// scale range or speed), or 0: each particle's worked out when it is drawn.
        var table: UInt8
    }

    /// The shapes drawn at once: 14 KB, a batch's shapes still in the first-level cache when
    /// the brush reads them.
    static let batch = 256

    /// Slots a cell's ring holds at most (a cell's population is capped at 2,000).
    static let largestRing = 4096

    /// The emitter the births are of: another (none today: emitters do not animate) is drawn
    /// without them.
    let emitter: EmitterContent
    private let rings: Mutex<UnsafeRings>

    /// The rings' storage, reached only under the lock.
    private struct UnsafeRings: @unchecked Sendable { let rings: Rings }

    init(_ emitter: EmitterContent) {
        self.emitter = emitter
        let n = min(emitter.cells.count, EmitterContent.maxCells)
        let offsets = UnsafeMutablePointer<Int>.allocate(capacity: EmitterContent.maxCells)
        let masks = UnsafeMutablePointer<Int>.allocate(capacity: EmitterContent.maxCells)
        var total = 0
        for i in 0..<EmitterContent.maxCells {
            offsets[i] = total
            masks[i] = -1
            let population = i < n ? emitter.population(of: i) : 0
            // At most population + 2 candidates a frame (`candidates(of:at:)`).
            guard population > 0, population.isFinite else { continue }
            let most = Int(min(population, Double(Self.largestRing)).rounded(.up)) + 2
            var size = 1
            while size < most { size <<= 1 }
            size = min(size, Self.largestRing)
            masks[i] = size - 1
            total += size
        }
        let slots = UnsafeMutablePointer<Birth>.allocate(capacity: max(total, 1))
        slots.initialize(
            repeating: Birth(
                index: -1, birth: 0, lifetime: 0, x: 0, y: 0, vx: 0, vy: 0, scale: 0, spin: 0, red: 0, green: 0,
                blue: 0, alpha: 0), count: max(total, 1))
        let shapes = UnsafeMutablePointer<ShapeBrush.Shape>.allocate(capacity: Self.batch)
        let cells = UnsafeMutablePointer<CellFrame>.allocate(capacity: EmitterContent.maxCells)
        cells.initialize(repeating: CellFrame(paint: .each, table: 0), count: EmitterContent.maxCells)
        rings = Mutex(
            UnsafeRings(rings: Rings(slots: slots, offsets: offsets, masks: masks, shapes: shapes, cells: cells)))
    }

    deinit {
        rings.withLock { kept in
            kept.rings.slots.deallocate()
            kept.rings.offsets.deallocate()
            kept.rings.masks.deallocate()
            kept.rings.shapes.deallocate()
            kept.rings.cells.deallocate()
        }
    }

    /// Calls `body` with the rings when `emitter` is the one they were made for and no other
    /// compositor is using them, else with `nil`.
    func with<R>(_ emitter: EmitterContent, _ body: (Rings?) -> R) -> R {
        guard emitter == self.emitter else { return body(nil) }
        if let r = rings.withLockIfAvailable({ kept in body(kept.rings) }) { return r }
        return body(nil)
    }
}
