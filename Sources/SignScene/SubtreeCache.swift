import SignGraphics

/// The pixels of static subtrees, drawn once and kept between frames: one entry per prepared
/// tree (its identity is the key), for the place and clip it was last drawn at. At most
/// `limit` entries; beyond that the least recently drawn are given up. Refilling an entry
/// (the tree drawn at another place) reuses its storage, so a steady frame allocates nothing.
final class SubtreeCache {
    /// A kept drawing.
    struct Entry {
        /// Held so its identity, the key, is not reused while the entry lives.
        let layer: PreparedLayer
        let origin: Point
        let clip: Rect
        var canvas: Canvas
        /// Where the kept pixels are not transparent (the bounding box, and its runs row by
        /// row): all a composite needs to cover.
        var occupied: (x0: Int, y0: Int, x1: Int, y1: Int)
        var runs: [Int]
        /// The box the fill could draw in: the tree's extent at its origin within the clip
        /// (the clip when the extent is not known). Outside it the canvas stays transparent,
        /// so clearing it for the next tree and finding the runs look only there.
        var drawn: (x0: Int, y0: Int, x1: Int, y1: Int)
        var lastUsed: UInt64
        /// The kept alpha as a coverage mask, once the tree has masked something.
        var coverage: CoverageMask?
        var coverageCurrent = false
    }

    let width: Int
    let height: Int
    /// A short list scanned by identity: cheaper per frame than hashing.
    private var entries: [Entry] = []
    private let limit: Int
    /// Draws a tree at an origin within a clip onto a transparent canvas (the compositor,
    /// without its cache).
    private let fill: (PreparedLayer, Point, Rect, inout Canvas) -> Void
    /// The canvas the next fill draws into, a given-up entry's, with the box its tree drew
    /// in (`nil`: a new one is made).
    private var spare: (canvas: Canvas, drawn: (x0: Int, y0: Int, x1: Int, y1: Int))?
    private var frame: UInt64 = 0
    /// Trees drawn into the cache since the frame began.
    private(set) var fills = 0

    init(
        width: Int, height: Int, limit: Int = 16,
        fill: @escaping (PreparedLayer, _ origin: Point, _ clip: Rect, _ into: inout Canvas) -> Void
    ) {
        (self.width, self.height, self.limit, self.fill) = (width, height, limit, fill)
    }

    /// A frame begins: entries not drawn since the frame before last may be given up.
    func beginFrame() {
        frame += 1
        fills = 0
    }

    /// How many entries are kept.
    var count: Int { entries.count }

    /// The kept pixels of static `layer` at `origin` within `clip`, drawn now if needed.
    func entry(_ layer: PreparedLayer, origin: Point, clip: Rect) -> Entry {
        entries[index(layer, origin: origin, clip: clip)]
    }

    /// Composites the kept pixels of static `layer` at `origin` within `clip` (drawn now if
    /// needed) onto `target`, reading the entry where it is: a copy would retain and release
    /// its canvas, runs and mask for every static subtree in every frame.
    func composite(_ layer: PreparedLayer, origin: Point, clip: Rect, onto target: inout Canvas) {
        let i = index(layer, origin: origin, clip: clip)
        entries.withUnsafeBufferPointer { kept in target.composite(kept[i].canvas, runs: kept[i].runs) }
    }

    /// Where the kept pixels of static `layer` at `origin` within `clip` are not transparent
    /// (drawn now if needed), without copying the entry.
    func occupied(_ layer: PreparedLayer, origin: Point, clip: Rect) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        entries[index(layer, origin: origin, clip: clip)].occupied
    }

    /// Static `layer`, a mask, at `origin` as a coverage mask over the board, with the box
    /// where it is not transparent. A mask that moves by whole pixels is not drawn again: it
    /// is kept at the fractional part of its origin and placed at the whole part, when its
    /// extent is known and fits the canvas.
    func mask(_ layer: PreparedLayer, origin: Point) -> (
        coverage: CoverageMask, occupied: (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let board = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let whole = (x: origin.x.rounded(.down), y: origin.y.rounded(.down))
        let phase = Point(x: origin.x - whole.x, y: origin.y - whole.y)
        var at = origin, shift = (x: 0, y: 0)
        if let extent = layer.extent, whole.x.magnitude < 1e9, whole.y.magnitude < 1e9 {
            let placed = extent.offsetBy(dx: phase.x, dy: phase.y)
            if placed.minX >= 0, placed.minY >= 0, placed.maxX <= board.maxX, placed.maxY <= board.maxY {
                at = phase
                shift = (Int(whole.x), Int(whole.y))
            }
        }
        let i = index(layer, origin: at, clip: board)
        // The entry worked on in place, one access to the array: each access to a class's
        // stored array is checked for exclusivity at run time.
        return entries.withUnsafeMutableBufferPointer { kept in
            if !kept[i].coverageCurrent {
                if kept[i].coverage == nil {
                    kept[i].coverage = CoverageMask(alphaOf: kept[i].canvas)
                } else {
                    kept[i].coverage!.read(alphaOf: kept[i].canvas)
                }
                kept[i].coverageCurrent = true
            }
            kept[i].coverage!.x0 = shift.x
            kept[i].coverage!.y0 = shift.y
            let o = kept[i].occupied
            return (kept[i].coverage!, (o.x0 + shift.x, o.y0 + shift.y, o.x1 + shift.x, o.y1 + shift.y))
        }
    }

    private func index(_ layer: PreparedLayer, origin: Point, clip: Rect) -> Int {
        // A kept drawing of the tree at this place is the common case: found in one access.
        let frame = self.frame
        let (found, current) = entries.withUnsafeMutableBufferPointer { kept -> (Int?, Bool) in
            guard let i = kept.firstIndex(where: { $0.layer === layer }) else { return (nil, false) }
            guard kept[i].origin == origin, kept[i].clip == clip else { return (i, false) }
            kept[i].lastUsed = frame
            return (i, true)
        }
        if let i = found, current { return i }
        fills += 1
        // A kept canvas is cleared where its tree drew, not whole: a small layer on a large
        // board costs its own pixels, not the board's.
        var canvas: Canvas
        if let kept = spare {
            canvas = kept.canvas
            spare = nil  // so the canvas is not shared while it is drawn on
            canvas.clear(kept.drawn)
        } else {
            canvas = Canvas(width: width, height: height)
        }
        let drawn = drawnBox(layer, origin: origin, clip: clip)
        fill(layer, origin, clip, &canvas)
        // The entry this one replaces gives up its storage, so a kept subtree that moves is
        // drawn again without allocating; so does one no frame has drawn since the frame
        // before last (a layer a text change or a minute's turn replaced).
        let oldest = entries.indices.min { entries[$0].lastUsed < entries[$1].lastUsed }
        let slot =
            found ?? oldest.flatMap { entries.count >= limit || entries[$0].lastUsed + 1 < frame ? $0 : nil }
        var runs: [Int] = []
        var coverage: CoverageMask?
        if let slot {
            swap(&runs, &entries[slot].runs)
            swap(&coverage, &entries[slot].coverage)
        }
        canvas.occupiedRuns(within: drawn, into: &runs)
        let entry = Entry(
            layer: layer, origin: origin, clip: clip, canvas: canvas, occupied: Self.boundingBox(runs), runs: runs,
            drawn: drawn, lastUsed: frame, coverage: coverage)
        if let slot {
            spare = (entries[slot].canvas, entries[slot].drawn)
            entries[slot] = entry
            return slot
        }
        entries.append(entry)
        return entries.count - 1
    }

    /// Where a fill of `layer` at `origin` within `clip` can draw: its extent placed there,
    /// within the clip; the whole clip when the extent is not known.
    private func drawnBox(_ layer: PreparedLayer, origin: Point, clip: Rect) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let bounds = clip.pixelBounds(clippedTo: width, height)
        guard let extent = layer.extent else { return bounds }
        let placed = extent.offsetBy(dx: origin.x, dy: origin.y).pixelBounds(clippedTo: width, height)
        let x0 = max(bounds.x0, placed.x0), y0 = max(bounds.y0, placed.y0)
        return (x0, y0, max(x0, min(bounds.x1, placed.x1)), max(y0, min(bounds.y1, placed.y1)))
    }

    /// The runs' bounding box: rows from the first run to the last, columns the widest span.
    private static func boundingBox(_ runs: [Int]) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        guard runs.count >= 3 else { return (0, 0, 0, 0) }
        var box = (x0: Int.max, y0: runs[0], x1: 0, y1: runs[runs.count - 3] + 1)
        for r in stride(from: 0, to: runs.count, by: 3) {
            box.x0 = min(box.x0, runs[r + 1])
            box.x1 = max(box.x1, runs[r + 2])
        }
        return box
    }
}
