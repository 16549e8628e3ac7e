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
/// so drawing it costs what drawing plain text costs. The whole line is laid out as one
/// paragraph, each icon standing in it as U+FFFC (a neutral to the bidirectional algorithm,
/// as a browser treats an inline image), so bidirectional order and joining cross colour
/// spans and icons, and an icon sits where UAX #9 puts it. Each glyph takes the colour of
/// the span its cluster starts in: a cluster is one colour, wherever reordering moves it.
struct RichTextRaster {
    let image: ImageBitmap
    /// Animated icons, left out of `image` and drawn over it at the frame's time.
    let animatedIcons: [InlineIcon]
    let width: Int
    let missing: [Unicode.Scalar]
    let isRightToLeft: Bool

    /// `nil` when the text is plain and all its glyphs are ordinary: the coverage path is used.
    init?(_ content: TextContent, icons: [String: AnimatedImage], fonts: FontLibrary) throws(FreeTypeError) {
        let source = content.text, color = content.color
        func layout(_ text: String, objects: Set<Int> = []) throws(FreeTypeError) -> TextRun {
            try fonts.layout(
                text, primary: content.font, fallbacks: content.fallbacks, direction: content.direction,
                features: content.features, objects: objects)
        }
        let pieces = RichText.parse(source)
        // The line's text with U+FFFC for each icon, where each colour span starts in its
        // UTF-8, and the icon named at each U+FFFC.
        var text = ""
        var spans: [(start: Int, color: Color)] = []
        var iconAt: [Int: String] = [:]
        for piece in pieces {
            switch piece {
            case .text(let t, let c):
                spans.append((text.utf8.count, c ?? color))
                text += t
            case .icon(let name):
                iconAt[text.utf8.count] = name
                text += "\u{FFFC}"
            }
        }
        let laidOut = try layout(text, objects: Set(iconAt.keys))
        let hasColorGlyphs = laidOut.glyphs.contains { $0.glyph.color != nil }
        guard !RichText.isPlain(source) || hasColorGlyphs else { return nil }
        let empty = try layout("")
        let ascender = max(empty.ascender, laidOut.ascender)
        let descent = max(empty.descent, laidOut.descent)
        let height = max(ascender + descent, 1)
        // Icons take the line's height, their width in proportion, and a pixel of space after
        // (to their left in a right-to-left run); an icon not configured takes none.
        var scaled: [Int: (factor: Double, first: ImageBitmap)] = [:]
        for (offset, name) in iconAt {
            guard let icon = icons[name] else { continue }
            let factor = Double(height) / Double(max(icon.height, 1))
            scaled[offset] = (factor, icon.first.scaled(by: factor))
        }
        let run = laidOut.placingObjects { scaled[$0.textOffset].map { $0.first.width + 1 } ?? 0 }
        let lineWidth = max(run.width, 1)
        var pixels = [ImageBitmap.Pixel](repeating: .zero, count: lineWidth * height)
        func composite(_ p: ImageBitmap.Pixel, _ px: Int, _ py: Int) {
            guard px >= 0, px < lineWidth, py >= 0, py < height else { return }
            let i = py * lineWidth + px
            pixels[i] = p + pixels[i] * (1 - p.w)
        }
        var animated: [InlineIcon] = []
        // Drawn in visual order, each icon over what is left of it.
        var nextObject = 0
        func drawIcons(before glyphIndex: Int) {
            while nextObject < run.objects.count, run.objects[nextObject].glyphIndex <= glyphIndex {
                let object = run.objects[nextObject]
                nextObject += 1
                guard let name = iconAt[object.textOffset], let icon = icons[name], let size = scaled[object.textOffset]
                else { continue }
                let first = size.first
                let x = object.x + (object.isRightToLeft ? 1 : 0)
                if icon.isAnimated {
                    animated.append(
                        InlineIcon(x: x, image: icon, frames: icon.frames.map { $0.scaled(by: size.factor) }))
                    continue
                }
                for y in 0..<first.height {
                    for ix in 0..<first.width { composite(first.pixels[y * first.width + ix], x + ix, y) }
                }
            }
        }
        for (i, placed) in run.glyphs.enumerated() {
            drawIcons(before: i)
            let gx = placed.x + placed.glyph.left, gy = ascender - placed.glyph.top - placed.y
            if let colorGlyph = placed.glyph.color {
                for y in 0..<colorGlyph.height {
                    for x in 0..<colorGlyph.width {
                        composite(colorGlyph.pixels[y * colorGlyph.width + x], gx + x, gy + y)
                    }
                }
            } else {
                // The span the glyph's cluster starts in.
                let tint = spans.last { $0.start <= placed.textOffset }?.color ?? color
                let paint = ImageBitmap.premultiplied(tint)
                let b = placed.glyph.bitmap
                for y in 0..<b.height {
                    for x in 0..<b.width where b[x, y] > 0 {
                        composite(paint * (Float(b[x, y]) / 255), gx + x, gy + y)
                    }
                }
            }
        }
        drawIcons(before: .max)
        width = run.width
        image = ImageBitmap(width: lineWidth, height: height, premultiplied: pixels)
        animatedIcons = animated
        missing = run.missing
        isRightToLeft = run.isRightToLeft
    }
}

/// An animated icon in a rich line: where it sits in the line and its frames scaled to the
/// line's height, drawn over the line at the frame shown then (as the file says it loops).
public struct InlineIcon: Sendable {
    /// Its left edge, in pixels from the line's start.
    public let x: Int
    /// The icon as decoded, for its timing.
    public let image: AnimatedImage
    /// Its frames at the line's height.
    public let frames: [ImageBitmap]

    /// The frame shown at the layer's local time `t`, the frames having begun at `beginTime`.
    @inlinable
    public func frameIndex(at t: Double, beginTime: Double) -> Int {
        image.frameIndex(at: t - beginTime, plays: image.filePlays)
    }
}
