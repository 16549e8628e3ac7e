import CFreeType

/// One FreeType face opened from a file and sized for rendering: the thin Swift surface over
/// FT_Face that the rest of signd uses. Not thread-safe; `FontLibrary` serialises access.
final class FreeTypeFace {
    let path: String
    let face: FT_Face
    /// Whether the face is drawn 1-bit (bitmap fonts, or outlines with antialiasing off).
    let monochrome: Bool
    let hasKerning: Bool

    /// Opens `path` and sizes it: a bitmap face (PCF, BDF) uses its strike closest to
    /// `pixelSize`; an outline face (TTF, OTF) is set to `pixelSize` pixels per em.
    init(library: FT_Library, path: String, pixelSize: Int, antialias: Bool) throws(FreeTypeError) {
        var face: FT_Face?
        try check(FT_New_Face(library, path, 0, &face), "FT_New_Face", path: path)
        guard let face else { throw FreeTypeError(code: 0x01, operation: "FT_New_Face", path: path) }
        self.path = path
        self.face = face
        let scalable = signd_ft_is_scalable(face) != 0
        do throws(FreeTypeError) {
            if scalable {
                try check(FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(pixelSize, 1))), "FT_Set_Pixel_Sizes", path: path)
            } else {
                // Bitmap faces can only be sized by choosing one of their strikes.
                let strikes = Int(face.pointee.num_fixed_sizes)
                guard strikes > 0, let sizes = face.pointee.available_sizes else {
                    throw FreeTypeError(code: 0x17, operation: "FT_Select_Size", path: path)
                }
                var best = 0
                for i in 0..<strikes
                where abs(Int(sizes[i].height) - pixelSize) < abs(Int(sizes[best].height) - pixelSize) {
                    best = i
                }
                try check(FT_Select_Size(face, FT_Int(best)), "FT_Select_Size", path: path)
            }
        } catch {
            FT_Done_Face(face)
            throw error
        }
        self.monochrome = !scalable || !antialias
        self.hasKerning = signd_ft_has_kerning(face) != 0
    }

    deinit { FT_Done_Face(face) }

    /// Ascender and descender (descender negative) in whole pixels at the selected size.
    var metrics: (ascender: Int, descender: Int) {
        let m = face.pointee.size.pointee.metrics
        return (Int((m.ascender + 63) >> 6), Int(m.descender >> 6))
    }

    /// The glyph index for a character, 0 when the face has none.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    /// Horizontal kerning between two glyphs of this face, in 26.6 fixed point.
    func kerning(_ left: UInt32, _ right: UInt32) -> Int {
        guard hasKerning else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 else { return 0 }
        return Int(delta.x)
    }

    /// Loads and renders a glyph to a coverage bitmap with its bearings and advance.
    func render(glyph index: UInt32) throws(FreeTypeError) -> GlyphBitmap {
        var flags = FT_Int32(FT_LOAD_RENDER)
        if monochrome { flags |= signd_ft_load_target_mono() }
        try check(FT_Load_Glyph(face, index, flags), "FT_Load_Glyph", path: path)
        let slot = face.pointee.glyph!
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
            let mode = FT_Pixel_Mode(UInt32(bitmap.pixel_mode))
            for y in 0..<rows {
                let row = buffer + y * pitch
                for x in 0..<width {
                    switch mode {
                    case FT_PIXEL_MODE_MONO:
                        coverage[y * width + x] = (row[x >> 3] & (0x80 >> UInt8(x & 7))) != 0 ? 255 : 0
                    case FT_PIXEL_MODE_GRAY:
                        coverage[y * width + x] = row[x]
                    default:
                        throw FreeTypeError(
                            code: 0x06, operation: "unsupported pixel mode \(mode.rawValue)", path: path)
                    }
                }
            }
        }
        return GlyphBitmap(
            bitmap: AlphaBitmap(width: width, height: rows, coverage: coverage),
            left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Int(slot.pointee.advance.x))
    }
}

/// A rendered glyph: its coverage and where it sits relative to the pen on the baseline.
public struct GlyphBitmap: Sendable, Equatable {
    public let bitmap: AlphaBitmap
    /// Pixels from the pen position to the bitmap's left edge.
    public let left: Int
    /// Pixels from the baseline up to the bitmap's top row.
    public let top: Int
    /// Pen advance in 26.6 fixed point.
    public let advance: Int
}
