/// Rendered glyphs kept within a byte budget, so that text in many scripts over months (a
/// CJK face has tens of thousands of glyphs) does not grow the daemon.
///
/// Two generations: new glyphs go into `recent`; when it holds half the budget it becomes
/// `older` (the previous `older` is dropped) and a new `recent` starts. A glyph found in
/// `older` moves back to `recent`, so glyphs still in use survive every turn and only those
/// unused for a whole generation go. Every operation is O(1) and the two together never hold
/// more than the budget. A glyph costing more than half the budget alone is not kept.
///
/// Evicting never takes a glyph from a laid-out line: a `GlyphBitmap` holds its pixels in
/// copy-on-write arrays, so a `TextRun` keeps its own reference to them and the cache only
/// lets go of its own. Not thread-safe; `FontLibrary` calls it under its lock, where text
/// is laid out (off the frame path).
struct GlyphCache<Key: Hashable> {
    /// Bytes the cached glyphs may take, as `cost(of:)` counts them.
    let budget: Int
    private var recent: [Key: GlyphBitmap] = [:]
    private var older: [Key: GlyphBitmap] = [:]
    private var recentBytes = 0
    private var olderBytes = 0

    init(budget: Int) { self.budget = max(budget, 0) }

    /// Glyphs held.
    var count: Int { recent.count + older.count }
    /// Bytes held, as `cost(of:)` counts them; never more than `budget`.
    var bytes: Int { recentBytes + olderBytes }

    /// The glyph cached for `key`, marked as used.
    mutating func glyph(for key: Key) -> GlyphBitmap? {
        if let glyph = recent[key] { return glyph }
        guard let glyph = older.removeValue(forKey: key) else { return nil }
        olderBytes -= Self.cost(of: glyph)
        insert(glyph, for: key)
        return glyph
    }

    /// Keeps `glyph` for `key` (which is not cached yet), dropping the older generation when
    /// the recent one is full.
    mutating func insert(_ glyph: GlyphBitmap, for key: Key) {
        let cost = Self.cost(of: glyph)
        guard cost <= budget / 2 else { return }
        if recentBytes + cost > budget / 2 {
            older = recent
            olderBytes = recentBytes
            recent = [:]
            recentBytes = 0
        }
        recent[key] = glyph
        recentBytes += cost
    }

    /// What a glyph takes in the cache: its pixels (a colour glyph keeps float and packed
    /// copies) and a fixed allowance for the entry, its key and the arrays' headers.
    static func cost(of glyph: GlyphBitmap) -> Int {
        var bytes = entryOverhead + glyph.bitmap.coverage.count
        if let color = glyph.color {
            bytes += color.pixels.count * MemoryLayout<ImageBitmap.Pixel>.stride
            bytes += color.packed.count * MemoryLayout<Canvas.Pixel>.stride
        }
        return bytes
    }

    static var entryOverhead: Int { 128 }
}
