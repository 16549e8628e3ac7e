/// A line of text laid out in pixels: each glyph's pen position and bitmap, and the line's
/// extent. Produced by `FontLibrary.layout`, drawn with `rasterize()`.
public struct TextRun: Sendable, Equatable {
    public struct PlacedGlyph: Sendable, Equatable {
        /// Pen x in pixels from the start of the run.
        public let x: Int
        public let glyph: GlyphBitmap
    }

    public let glyphs: [PlacedGlyph]
    /// Advance width of the whole run in pixels.
    public let width: Int
    /// Pixels above the baseline (the tallest face used).
    public let ascender: Int
    /// Pixels below the baseline, as a positive number.
    public let descent: Int
    /// Characters that no face in the chain could draw (they show as the primary face's box).
    public let missing: [Unicode.Scalar]

    /// Line height: ascender plus descent.
    public var height: Int { ascender + descent }

    /// The run's coverage: `width x height`, baseline at row `ascender`.
    public func rasterize() -> AlphaBitmap {
        var bitmap = AlphaBitmap(width: width, height: height)
        for placed in glyphs {
            bitmap.add(placed.glyph.bitmap, atX: placed.x + placed.glyph.left, y: ascender - placed.glyph.top)
        }
        return bitmap
    }
}
