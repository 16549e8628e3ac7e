import Glibc

/// A font as a config names it: a misc-fixed face by name (`"6x10"`, `"9x18B"`), `"unifont"`,
/// or a path to any PCF, BDF, TTF or OTF file, at a size in pixels.
public struct FontSpec: Sendable, Hashable, Codable {
    public var name: String
    /// Pixels per em for outline fonts; bitmap fonts use their strike nearest to it.
    public var size: Int
    /// Grey anti-aliased edges for outline fonts; `false` renders them 1-bit, crisp on LEDs.
    public var antialias: Bool

    public init(name: String, size: Int = 0, antialias: Bool = true) {
        self.name = name
        self.size = size
        self.antialias = antialias
    }

    /// The default face: misc-fixed 6x10, the classic LED-sign font.
    public static let defaultFace = FontSpec(name: "6x10", size: 10)
    /// The default fallback: GNU Unifont at 16 px, where it is pixel-crisp.
    public static let unifont = FontSpec(name: "unifont", size: 16)

    /// Colour emoji (Noto Color Emoji), scaled to `size` pixels high.
    public static func emoji(size: Int) -> FontSpec { FontSpec(name: "emoji", size: size) }

    /// The fallbacks used when a config names none: unifont, then colour emoji at the
    /// primary face's size when the emoji font is installed.
    public static func defaultFallbacks(for primary: FontSpec) -> [FontSpec] {
        var chain = [FontSpec.unifont]
        if access(emojiPath, R_OK) == 0 { chain.append(.emoji(size: max(primary.size, 8))) }
        return chain
    }

    public static let emojiPath = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Where fonts are looked up by name.
    public static let miscFixedDirectory = "/usr/share/fonts/X11/misc"
    public static let unifontPath = "/usr/share/fonts/opentype/unifont/unifont.otf"

    /// The file this spec refers to.
    public var path: String {
        if name.contains("/") { return name }
        if name == "unifont" { return FontSpec.unifontPath }
        if name == "emoji" { return FontSpec.emojiPath }
        return "\(FontSpec.miscFixedDirectory)/\(name).pcf.gz"
    }
}
