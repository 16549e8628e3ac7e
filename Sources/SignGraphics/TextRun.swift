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

    /// An inline object (a rich line's icon) placed on the line.
    public struct PlacedObject: Sendable, Equatable {
        /// Its left edge in pixels from the start of the run.
        public let x: Int
        /// Where its U+FFFC starts in the text's UTF-8: the offset `FontLibrary.layout` was given.
        public let textOffset: Int
        /// How many of `glyphs` are shown before it (to its left).
        public let glyphIndex: Int
        /// It stands in a right-to-left run (its space after it is on its left).
        public let isRightToLeft: Bool
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
    /// Inline objects in visual order, each as wide as `placingObjects` made it (none at first).
    public let objects: [PlacedObject]

    init(
        glyphs: [PlacedGlyph], width: Int, ascender: Int, descent: Int, missing: [Unicode.Scalar],
        isRightToLeft: Bool, dropped: Int, objects: [PlacedObject] = []
    ) {
        self.glyphs = glyphs
        self.width = width
        self.ascender = ascender
        self.descent = descent
        self.missing = missing
        self.isRightToLeft = isRightToLeft
        self.dropped = dropped
        self.objects = objects
    }

    /// The run with each object `advance(object)` pixels wide: everything shown after an
    /// object (to its right) moves right by its width, and the run grows by all of them.
    public func placingObjects(advance: (PlacedObject) -> Int) -> TextRun {
        guard !objects.isEmpty else { return self }
        var shift = 0, next = 0
        var placedObjects: [PlacedObject] = []
        placedObjects.reserveCapacity(objects.count)
        func placeObjects(upTo glyphIndex: Int) {
            while next < objects.count, objects[next].glyphIndex <= glyphIndex {
                let o = objects[next]
                placedObjects.append(
                    PlacedObject(
                        x: o.x + shift, textOffset: o.textOffset, glyphIndex: o.glyphIndex,
                        isRightToLeft: o.isRightToLeft))
                shift += max(advance(o), 0)
                next += 1
            }
        }
        var placedGlyphs: [PlacedGlyph] = []
        placedGlyphs.reserveCapacity(glyphs.count)
        for (i, g) in glyphs.enumerated() {
            placeObjects(upTo: i)
            placedGlyphs.append(
                PlacedGlyph(
                    x: g.x + shift, y: g.y, glyph: g.glyph, index: g.index, face: g.face, cluster: g.cluster,
                    textOffset: g.textOffset, xAdvance: g.xAdvance, xOffset: g.xOffset, yOffset: g.yOffset))
        }
        placeObjects(upTo: .max)
        return TextRun(
            glyphs: placedGlyphs, width: width + shift, ascender: ascender, descent: descent, missing: missing,
            isRightToLeft: isRightToLeft, dropped: dropped, objects: placedObjects)
    }

    /// Line height: ascender plus descent.
    public var height: Int { ascender + descent }

    /// The run's coverage: `width x height`, baseline at row `ascender`.
    public func rasterize() -> AlphaBitmap {
        var bitmap = AlphaBitmap(width: width, height: height)
        for placed in glyphs {
            bitmap.add(
                placed.glyph.bitmap, atX: placed.x + placed.glyph.left, y: ascender - placed.glyph.top - placed.y)
        }
        return bitmap
    }
}
