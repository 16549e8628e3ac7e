import CFreeType
import CHarfBuzz

/// An OpenType feature setting in HarfBuzz's syntax (`"-liga"`, `"tnum"`, `"ss01=2"`,
/// `"kern[3:5]=0"`), parsed by HarfBuzz itself.
public struct FontFeature: Sendable, Hashable {
    /// As written in the config.
    public let text: String
    let value: hb_feature_t

    /// `nil` when HarfBuzz cannot read `text` as a feature.
    public init?(_ text: String) {
        var feature = hb_feature_t()
        let parsed = text.withCString { hb_feature_from_string($0, -1, &feature) }
        guard parsed != 0, !text.isEmpty else { return nil }
        self.text = text
        self.value = feature
    }

    public static func == (a: FontFeature, b: FontFeature) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// A FreeType face as HarfBuzz sees it (hb-ft): glyph lookup and advances through FreeType,
/// so outline and bitmap faces (PCF, BDF) shape through one path, and substitution and
/// positioning from the face's OpenType tables. The one file that calls HarfBuzz. Not
/// thread-safe; `FontLibrary` serialises access.
final class HarfBuzzFont {
    let font: OpaquePointer

    init(_ face: FT_Face) {
        font = hb_ft_font_create_referenced(face)
    }

    deinit { hb_font_destroy(font) }

    /// A shaped glyph as HarfBuzz gives it: positions in 26.6 fixed point.
    struct Glyph {
        let index: UInt32
        /// Index of the first scalar of the glyph's cluster in the whole text.
        let cluster: Int
        let xAdvance: Int
        let xOffset: Int
        let yOffset: Int
    }

    /// Shapes `range` of `scalars` (the rest is context, for joining across runs) in one
    /// direction and script; glyphs come in visual order, left to right.
    func shape(
        _ scalars: UnsafeBufferPointer<UInt32>, range: Range<Int>, rightToLeft: Bool, script: hb_script_t,
        features: [hb_feature_t], buffer: HarfBuzzBuffer, into glyphs: inout [Glyph]
    ) {
        let b = buffer.buffer
        hb_buffer_clear_contents(b)
        hb_buffer_add_utf32(
            b, scalars.baseAddress, Int32(scalars.count), UInt32(range.lowerBound), Int32(range.count))
        hb_buffer_set_direction(b, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(b, script)
        features.withUnsafeBufferPointer { f in
            hb_shape(font, b, f.baseAddress, UInt32(f.count))
        }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(b, &count), let positions = hb_buffer_get_glyph_positions(b, nil)
        else { return }
        for i in 0..<Int(count) {
            glyphs.append(
                Glyph(
                    index: infos[i].codepoint, cluster: Int(infos[i].cluster), xAdvance: Int(positions[i].x_advance),
                    xOffset: Int(positions[i].x_offset), yOffset: Int(positions[i].y_offset)))
        }
    }

    /// The script HarfBuzz's Unicode data gives a scalar; `nil` for Common, Inherited and
    /// Unknown, which take the script of the text around them.
    static func script(of scalar: UInt32) -> hb_script_t? {
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), scalar)
        switch script {
        case HB_SCRIPT_COMMON, HB_SCRIPT_INHERITED, HB_SCRIPT_UNKNOWN: return nil
        default: return script
        }
    }
}

/// A HarfBuzz buffer reused across the runs of one layout.
final class HarfBuzzBuffer {
    let buffer: OpaquePointer

    init() { buffer = hb_buffer_create() }
    deinit { hb_buffer_destroy(buffer) }
}
