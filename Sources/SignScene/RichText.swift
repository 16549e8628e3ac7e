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
/// so drawing it costs what drawing plain text costs. The text between icons is laid out as
/// one line (so bidirectional order and joining cross colour spans) and each glyph takes
/// the colour of the span its cluster starts in: a cluster is one colour, wherever
/// reordering moves it.
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
        func layout(_ text: String) throws(FreeTypeError) -> TextRun {
            try fonts.layout(
                text, primary: content.font, fallbacks: content.fallbacks, direction: content.direction,
                features: content.features)
        }
        let pieces = RichText.parse(source)
        // Text between icons, with where each colour span starts in its UTF-8.
        var segments: [(text: String, spans: [(start: Int, color: Color)])] = [("", [])]
        for piece in pieces {
            switch piece {
            case .text(let text, let c):
                segments[segments.count - 1].spans.append((segments[segments.count - 1].text.utf8.count, c ?? color))
                segments[segments.count - 1].text += text
            case .icon:
                segments.append(("", []))
            }
        }
        var runs: [TextRun] = []
        for segment in segments { runs.append(try layout(segment.text)) }
        let hasColorGlyphs = runs.contains { $0.glyphs.contains { $0.glyph.color != nil } }
        guard !RichText.isPlain(source) || hasColorGlyphs else { return nil }
        let empty = try layout("")
        let ascender = max(empty.ascender, runs.map(\.ascender).max() ?? 0)
        let descent = max(empty.descent, runs.map(\.descent).max() ?? 0)
        let height = max(ascender + descent, 1)
        // Icons take the line's height, their width in proportion, and a pixel of space after.
        var scaledIcons: [ImageBitmap] = []
        var animated: [InlineIcon] = []
        var layout: [(x: Int, piece: Int)] = []
        var x = 0
        var segment = 0
        layout.append((0, 0))
        x += runs[0].width
        for piece in pieces {
            guard case .icon(let name) = piece else { continue }
            segment += 1
            if let icon = icons[name] {
                let factor = Double(height) / Double(max(icon.height, 1))
                let scaled = icon.first.scaled(by: factor)
                if icon.isAnimated {
                    animated.append(InlineIcon(x: x, image: icon, frames: icon.frames.map { $0.scaled(by: factor) }))
                } else {
                    layout.append((x, -1 - scaledIcons.count))
                    scaledIcons.append(scaled)
                }
                x += scaled.width + 1
            }
            layout.append((x, segment))
            x += runs[segment].width
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
            let run = runs[index], spans = segments[index].spans
            for placed in run.glyphs {
                let gx = originX + placed.x + placed.glyph.left, gy = ascender - placed.glyph.top - placed.y
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
        }
        width = x
        image = ImageBitmap(width: lineWidth, height: height, premultiplied: pixels)
        animatedIcons = animated
        missing = runs.flatMap(\.missing)
        isRightToLeft = runs.first?.isRightToLeft ?? false
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
