import SignGraphics

/// signd's text markup: `{#ff0000}SALE{/} today` colours a span (`{#rgb}`, `{#rrggbb}`,
/// `{#rrggbbaa}` or a colour name such as `{amber}`), `{/}` returns to the layer's colour,
/// `{icon:cup}` places the icon named `cup` in the config's `[icons]` table, and `{{` is a
/// literal `{`. Anything else in braces is shown as written.
public enum RichText {
    public enum Piece: Sendable, Equatable {
        /// Text in a colour (`nil`: the layer's own).
        case text(String, Color?)
        case icon(String)
    }

    /// The pieces of a marked-up text, in order.
    public static func parse(_ source: String) -> [Piece] {
        var pieces: [Piece] = []
        var current = ""
        var color: Color?
        func flush() {
            if !current.isEmpty { pieces.append(.text(current, color)) }
            current = ""
        }
        // A brace with no closing brace after it is text; knowing where the last one is keeps
        // a text of many unclosed braces linear instead of searching to the end from each.
        let lastClose = source.lastIndex(of: "}")
        var i = source.startIndex
        while i < source.endIndex {
            let c = source[i]
            guard c == "{" else {
                current.append(c)
                i = source.index(after: i)
                continue
            }
            let next = source.index(after: i)
            if next < source.endIndex && source[next] == "{" {
                current.append("{")
                i = source.index(after: next)
                continue
            }
            guard let lastClose, next <= lastClose, let close = source[next...lastClose].firstIndex(of: "}") else {
                current.append(c)
                i = next
                continue
            }
            let tag = String(source[next..<close])
            if tag == "/" {
                flush()
                color = nil
            } else if tag.hasPrefix("icon:"), tag.count > 5 {
                flush()
                pieces.append(.icon(String(tag.dropFirst(5))))
            } else if let parsed = Color(parsing: tag) {
                flush()
                color = parsed
            } else {
                current += "{" + tag + "}"
            }
            i = source.index(after: close)
        }
        flush()
        return pieces
    }

    /// Whether `source` is plain text, drawn in one colour.
    public static func isPlain(_ source: String) -> Bool {
        parse(source).allSatisfy { if case .text(_, nil) = $0 { true } else { false } } && !source.contains("{{")
    }

    /// Icon names `source` refers to.
    public static func iconNames(in source: String) -> [String] {
        parse(source).compactMap { if case .icon(let name) = $0 { name } else { nil } }
    }
}

/// A marked-up line (or one with colour glyphs) rasterised into premultiplied colour, once,
/// so drawing it costs what drawing plain text costs.
struct RichTextRaster {
    let image: ImageBitmap
    let width: Int
    let missing: [Unicode.Scalar]

    /// `nil` when the text is plain and all its glyphs are ordinary: the coverage path is used.
    init?(
        _ source: String, font: FontSpec, fallbacks: [FontSpec], color: Color, icons: [String: ImageBitmap],
        fonts: FontLibrary
    ) throws(FreeTypeError) {
        let pieces = RichText.parse(source)
        var runs: [(run: TextRun, color: Color)] = []
        var layout: [(x: Int, piece: Int)] = []
        for piece in pieces {
            if case .text(let text, let c) = piece {
                runs.append((try fonts.layout(text, primary: font, fallbacks: fallbacks), c ?? color))
            }
        }
        let hasColorGlyphs = runs.contains { $0.run.glyphs.contains { $0.glyph.color != nil } }
        guard !RichText.isPlain(source) || hasColorGlyphs else { return nil }
        let empty = try fonts.layout("", primary: font, fallbacks: fallbacks)
        let ascender = max(empty.ascender, runs.map(\.run.ascender).max() ?? 0)
        let descent = max(empty.descent, runs.map(\.run.descent).max() ?? 0)
        let height = max(ascender + descent, 1)
        // Icons take the line's height, their width in proportion, and a pixel of space after.
        var scaledIcons: [ImageBitmap] = []
        var x = 0
        var runIndex = 0
        for piece in pieces {
            switch piece {
            case .text:
                layout.append((x, runIndex))
                x += runs[runIndex].run.width
                runIndex += 1
            case .icon(let name):
                guard let icon = icons[name] else { continue }
                let scaled = icon.scaled(by: Double(height) / Double(max(icon.height, 1)))
                layout.append((x, -1 - scaledIcons.count))
                scaledIcons.append(scaled)
                x += scaled.width + 1
            }
        }
        let lineWidth = max(x, 1)
        var pixels = [ImageBitmap.Pixel](repeating: .zero, count: lineWidth * height)
        func composite(_ p: ImageBitmap.Pixel, _ px: Int, _ py: Int) {
            guard px >= 0, px < lineWidth, py >= 0, py < height else { return }
            let i = py * lineWidth + px
            pixels[i] = p + pixels[i] * (1 - p.w)
        }
        for (originX, index) in layout {
            if index < 0 {
                let icon = scaledIcons[-1 - index]
                for y in 0..<icon.height {
                    for x in 0..<icon.width { composite(icon.pixels[y * icon.width + x], originX + x, y) }
                }
                continue
            }
            let (run, tint) = runs[index]
            let paint = ImageBitmap.premultiplied(tint)
            for placed in run.glyphs {
                let gx = originX + placed.x + placed.glyph.left, gy = ascender - placed.glyph.top
                if let colorGlyph = placed.glyph.color {
                    for y in 0..<colorGlyph.height {
                        for x in 0..<colorGlyph.width {
                            composite(colorGlyph.pixels[y * colorGlyph.width + x], gx + x, gy + y)
                        }
                    }
                } else {
                    let b = placed.glyph.bitmap
                    for y in 0..<b.height {
                        for x in 0..<b.width where b[x, y] > 0 {
                            composite(paint * (Float(b[x, y]) / 255), gx + x, gy + y)
                        }
                    }
                }
            }
        }
        width = x
        image = ImageBitmap(width: lineWidth, height: height, premultiplied: pixels)
        missing = runs.flatMap(\.run.missing)
    }
}
