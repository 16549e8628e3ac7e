import CFreeType
import Glibc

/// One FreeType face opened from a file and sized for rendering: the thin Swift surface over
/// FT_Face that the rest of signd uses. Not thread-safe; `FontLibrary` serialises access.
final class FreeTypeFace {
    /// Largest font file opened (Noto Color Emoji is about 10 MB).
    static let maxFileSize = 64 << 20

    let path: String
    let face: FT_Face
    /// Whether the face is drawn 1-bit (bitmap fonts, or outlines with antialiasing off).
    let monochrome: Bool
    let hasKerning: Bool
    /// Colour bitmaps (an emoji font): glyphs come as BGRA images.
    let hasColor: Bool
    /// For colour bitmap faces, which FreeType does not scale: the factor from the strike
    /// to the requested pixel size.
    let bitmapScale: Double
    /// Whether the face has outlines; a bitmap face's glyphs sit on whole pixels.
    let scalable: Bool
    /// The face as HarfBuzz shapes with it.
    private(set) var harfBuzz: HarfBuzzFont!

    /// Opens `path` and sizes it: a bitmap face (PCF, BDF) uses its strike closest to
    /// `pixelSize`; an outline face (TTF, OTF) is set to `pixelSize` pixels per em.
    static func open(library: FT_Library, path: String, pixelSize: Int, antialias: Bool) throws(FreeTypeError)
        -> FreeTypeFace
    {
        // FreeType opens the file itself: it is given the descriptor of a file checked to be
        // regular (a FIFO named as a font would block it forever), through /proc.
        let file: (fd: Int32, size: Int)
        do {
            file = try RegularFile.open(path, limit: maxFileSize)
        } catch {
            throw FreeTypeError(code: 0x01, operation: "open", path: path, reason: error.message)
        }
        defer { close(file.fd) }
        return try FreeTypeFace(
            library: library, path: path, opening: "/proc/self/fd/\(file.fd)", pixelSize: pixelSize,
            antialias: antialias)
    }

    /// Opens the face at `location` (where `path` is open) and sizes it.
    private init(library: FT_Library, path: String, opening location: String, pixelSize: Int, antialias: Bool)
        throws(FreeTypeError)
    {
        var face: FT_Face?
        try check(FT_New_Face(library, location, 0, &face), "FT_New_Face", path: path)
        guard let face else { throw FreeTypeError(code: 0x01, operation: "FT_New_Face", path: path) }
        self.path = path
        self.face = face
        let scalable = signd_ft_is_scalable(face) != 0
        self.scalable = scalable
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
        self.hasColor = signd_ft_has_color(face) != 0
        self.monochrome = (!scalable || !antialias) && !hasColor
        self.hasKerning = signd_ft_has_kerning(face) != 0
        let strike = Double(face.pointee.size.pointee.metrics.y_ppem)
        // Noto Color Emoji's 109 ppem strike draws 128-pixel-high glyphs: scale by that height.
        self.bitmapScale = hasColor && !scalable && strike > 0 ? Double(pixelSize) / (strike * 128 / 109) : 1
        // Created once the face is sized: hb-ft reads its scale from the size.
        self.harfBuzz = HarfBuzzFont(face)
    }

    /// A shaped glyph's positions as drawn: a colour bitmap face's scaled to the requested
    /// size with its glyphs, a bitmap face's on whole pixels so pixel fonts stay crisp.
    func placement(_ glyph: HarfBuzzFont.Glyph) -> HarfBuzzFont.Glyph {
        func drawn(_ v: Int) -> Int {
            let scaled = bitmapScale == 1 ? v : Int((Double(v) * bitmapScale).rounded())
            return scalable || hasColor ? scaled : (scaled + 32) & ~63
        }
        return HarfBuzzFont.Glyph(
            index: glyph.index, cluster: glyph.cluster, xAdvance: drawn(glyph.xAdvance), xOffset: drawn(glyph.xOffset),
            yOffset: drawn(glyph.yOffset))
    }

    deinit { FT_Done_Face(face) }

    /// Ascender and descender (descender negative) in whole pixels at the selected size.
    var metrics: (ascender: Int, descender: Int) {
        let m = face.pointee.size.pointee.metrics
        let ascender = Int((m.ascender + 63) >> 6), descender = Int(m.descender >> 6)
        guard bitmapScale != 1 else { return (ascender, descender) }
        return (
            Int((Double(ascender) * bitmapScale).rounded(.up)), Int((Double(descender) * bitmapScale).rounded(.down))
        )
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

    /// Loads and renders a glyph: a coverage bitmap, or for a colour face a premultiplied
    /// image (scaled to the requested size by area averaging), with bearings and advance.
    func render(glyph index: UInt32) throws(FreeTypeError) -> GlyphBitmap {
        var flags = FT_Int32(FT_LOAD_RENDER)
        if monochrome { flags |= signd_ft_load_target_mono() }
        if hasColor { flags |= signd_ft_load_color() }
        try check(FT_Load_Glyph(face, index, flags), "FT_Load_Glyph", path: path)
        let slot = face.pointee.glyph!
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        let mode = FT_Pixel_Mode(UInt32(bitmap.pixel_mode))
        if mode == FT_PIXEL_MODE_BGRA, let buffer = bitmap.buffer {
            // FreeType's BGRA is premultiplied already.
            var rgba = [ImageBitmap.Pixel](repeating: .zero, count: width * rows)
            for y in 0..<rows {
                let row = buffer + y * pitch
                for x in 0..<width {
                    let b = Float(row[x * 4]), g = Float(row[x * 4 + 1]), r = Float(row[x * 4 + 2]),
                        a = Float(row[x * 4 + 3])
                    rgba[y * width + x] = ImageBitmap.Pixel(r, g, b, a) / 255
                }
            }
            let image = ImageBitmap(width: width, height: rows, premultiplied: rgba).scaled(by: bitmapScale)
            return GlyphBitmap(
                bitmap: AlphaBitmap(width: 0, height: 0), color: image,
                left: Int((Double(slot.pointee.bitmap_left) * bitmapScale).rounded()),
                top: Int((Double(slot.pointee.bitmap_top) * bitmapScale).rounded()),
                advance: Int((Double(slot.pointee.advance.x) * bitmapScale).rounded()))
        }
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
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
            bitmap: AlphaBitmap(width: width, height: rows, coverage: coverage), color: nil,
            left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Int(slot.pointee.advance.x))
    }
}

/// A rendered glyph: its coverage and where it sits relative to the pen on the baseline.
public struct GlyphBitmap: Sendable, Equatable {
    /// Coverage, for an ordinary glyph drawn in the text's colour.
    public let bitmap: AlphaBitmap
    /// The glyph's own colours, for a colour (emoji) glyph.
    public let color: ImageBitmap?
    /// Pixels from the pen position to the bitmap's left edge.
    public let left: Int
    /// Pixels from the baseline up to the bitmap's top row.
    public let top: Int
    /// Pen advance in 26.6 fixed point.
    public let advance: Int
}
