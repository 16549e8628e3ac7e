/// A line of text laid out in pixels, in visual order (left to right as shown): each glyph's
/// place and bitmap, and the line's extent. Produced by `FontLibrary.layout`, drawn with
/// `rasterize()`.
public struct TextRun: Sendable, Equatable {
    public struct PlacedGlyph: Sendable, Equatable {
        /// Pen x in pixels from the start of the run, the glyph's offset included.
        public let x: Int
        /// Pixels the glyph is raised above the baseline (a mark's offset).
        public let y: Int
        public let glyph: GlyphBitmap
        /// The glyph's index in its face.
        public let index: UInt32
        /// Which face of `[primary] + fallbacks` drew it.
        public let face: Int
        /// Index (in Unicode scalars) of the first scalar of the text the glyph draws: its
        /// cluster, as HarfBuzz numbers them.
        public let cluster: Int
        /// Where that scalar starts in the text's UTF-8.
        public let textOffset: Int
        /// Advance and offsets in 26.6 fixed point, as HarfBuzz positioned the glyph.
        public let xAdvance: Int, xOffset: Int, yOffset: Int
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
    /// The text's base direction is right to left (set, or found from its first strong letter).
    public let isRightToLeft: Bool
    /// Scalars left out to keep layout bounded: past `FontLibrary.maxScalars`, or combining
    /// marks past `FontLibrary.maxMarksPerBase` on one letter.
    public let dropped: Int

    /// Line height: ascender plus descent.
    public var height: Int { ascender + descent }

    /// The run's coverage: `width x height`, baseline at row `ascender`.
    public func rasterize() -> AlphaBitmap {
        var bitmap = AlphaBitmap(width: width, height: height)
        for placed in glyphs {
            bitmap.add(placed.glyph.bitmap, atX: placed.x + placed.glyph.left, y: ascender - placed.glyph.top - placed.y)
        }
        return bitmap
    }
}
