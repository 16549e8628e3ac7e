import SignGraphics
import Testing

@testable import SignScene

@Suite("Rich text")
struct RichTextTests {
    static let fonts = try! FontLibrary()

    @Test(
        "markup splits into coloured pieces and icons",
        arguments: [
            (
                "{#ff0000}SALE{/} today",
                [RichText.Piece.text("SALE", Color(red: 255, green: 0, blue: 0)), .text(" today", nil)]
            ),
            ("a{amber}b", [.text("a", nil), .text("b", Color(red: 255, green: 191, blue: 0))]),
            ("{{literal} {nope}", [.text("{literal} {nope}", nil)]),
            ("cup {icon:cup}!", [.text("cup ", nil), .icon("cup"), .text("!", nil)]),
            ("unclosed {#fff", [.text("unclosed {#fff", nil)]),
        ])
    func parse(source: String, pieces: [RichText.Piece]) {
        #expect(RichText.parse(source) == pieces)
    }

    @Test("plain text stays on the one-colour path")
    func plain() {
        #expect(RichText.isPlain("Now Playing") && RichText.isPlain("{nope}"))
        #expect(!RichText.isPlain("{red}x") && !RichText.isPlain("{{"))
    }

    func render(_ text: String, icons: [String: ImageBitmap] = [:], width: Int = 64) throws -> Frame {
        let layer = Layer(
            content: .text(TextContent(text: text, fallbacks: FontSpec.defaultFallbacks(for: .defaultFace))),
            frame: Rect(x: 0, y: 0, width: Double(width), height: 16))
        var scene = Scene(width: width, height: 16, layers: [.layer(layer)])
        scene.icons = icons.mapValues(AnimatedImage.init(still:))
        return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: 0)
    }

    func colors(_ frame: Frame, columns: Range<Int>) -> Set<Color> {
        Set(columns.flatMap { x in (0..<frame.height).map { frame.pixel(x: x, y: $0) } }.filter { $0 != .black })
    }

    @Test("a span is drawn in its colour and the rest in the layer's")
    func spanColours() throws {
        let frame = try render("{#ff0000}AB{/}CD")
        // 6x10: AB in columns 0..<12, CD in 12..<24, 1-bit glyphs so colours are exact.
        #expect(colors(frame, columns: 0..<12) == [Color(red: 255, green: 0, blue: 0)])
        #expect(colors(frame, columns: 12..<24) == [.white])
    }

    @Test("an emoji comes from the colour emoji font, in colour, scaled to the line")
    func emoji() throws {
        let layer = try PreparedLayer(
            Layer(content: .text(TextContent(text: "☕🍰", fallbacks: FontSpec.defaultFallbacks(for: .defaultFace)))),
            fonts: Self.fonts)
        #expect(layer.missing.isEmpty)
        let rich = try #require(layer.richText)
        #expect(rich.height <= 16)
        let frame = try render("☕🍰")
        // Colour, not grey: some pixel has channels that differ.
        #expect(colors(frame, columns: 0..<30).contains { $0.red != $0.green || $0.green != $0.blue })
    }

    @Test("an icon is placed inline at the line's height")
    func icon() throws {
        let green = ImageBitmap(
            width: 2, height: 2,
            straightRGBA: [UInt8](repeating: 0, count: 16).enumerated().map {
                $0.offset % 4 == 1 || $0.offset % 4 == 3 ? 255 : 0
            })
        let frame = try render("a{icon:leaf}b", icons: ["leaf": green])
        // After "a" (6 px): a 10-px-high green square (the 6x10 line), then a pixel of space, then "b".
        #expect(colors(frame, columns: 6..<16) == [Color(red: 0, green: 255, blue: 0)])
        #expect(colors(frame, columns: 17..<23) == [.white])
    }

    /// Columns of `image` holding a pixel for which `test` holds.
    static func columns(_ image: ImageBitmap, where test: (ImageBitmap.Pixel) -> Bool) -> [Int] {
        (0..<image.width).filter { x in (0..<image.height).contains { test(image.pixels[$0 * image.width + x]) } }
    }

    static let hebrewLine = "שלום {icon:leaf} עולם"

    @Test("in a right-to-left line the icon stands between the words where UAX #9 puts it, its space on its left")
    func rightToLeftIcon() throws {
        let leaf = ImageBitmap(
            width: 2, height: 2,
            premultiplied: Array(repeating: ImageBitmap.premultiplied(Color(red: 0, green: 255, blue: 0)), count: 4))
        let content = TextContent(text: Self.hebrewLine, fallbacks: FontSpec.defaultFallbacks(for: .defaultFace))
        let raster = try #require(
            try RichTextRaster(content, icons: ["leaf": AnimatedImage(still: leaf)], fonts: Self.fonts))
        #expect(raster.isRightToLeft)
        let green = Self.columns(raster.image) { $0.y > 0.5 && $0.x < 0.1 }
        let white = Self.columns(raster.image) { $0.x > 0.5 && $0.y > 0.5 && $0.z > 0.5 }
        let icon = try #require(green.first)...(try #require(green.last))
        #expect(icon.count == green.count)
        // The words' letters on both sides, none under the icon.
        let first = try Self.fonts.layout("שלום", primary: .defaultFace, fallbacks: content.fallbacks)
        let second = try Self.fonts.layout("עולם", primary: .defaultFace, fallbacks: content.fallbacks)
        #expect(white.contains { $0 < icon.lowerBound } && white.contains { $0 > icon.upperBound })
        #expect(!white.contains { icon.contains($0) })
        // Left to right: "עולם", a space, the pixel after the icon, the icon, a space, "שלום".
        let space = try Self.fonts.layout(" ", primary: .defaultFace, fallbacks: content.fallbacks).width
        #expect(icon.lowerBound == second.width + space + 1)
        #expect(raster.width == second.width + space + 1 + icon.count + space + first.width)
        // Each word drawn as it is alone: the rightmost columns are "שלום".
        let alone = try #require(
            try RichTextRaster(
                TextContent(text: "{#fff}שלום", fallbacks: content.fallbacks), icons: [:], fonts: Self.fonts))
        let right = raster.width - first.width
        for x in 0..<first.width {
            for y in 0..<raster.image.height {
                #expect(raster.image.pixels[y * raster.width + right + x] == alone.image.pixels[y * alone.width + x])
            }
        }
    }

    @Test("an animated icon in a right-to-left line is placed where a still one is")
    func rightToLeftAnimatedIcon() throws {
        let solid = { (g: Float) in
            ImageBitmap(width: 2, height: 2, premultiplied: Array(repeating: ImageBitmap.Pixel(0, g, 0, 1), count: 4))
        }
        let content = TextContent(text: Self.hebrewLine, fallbacks: FontSpec.defaultFallbacks(for: .defaultFace))
        let still = try #require(
            try RichTextRaster(content, icons: ["leaf": AnimatedImage(still: solid(1))], fonts: Self.fonts))
        let animated = try #require(
            try RichTextRaster(
                content,
                icons: ["leaf": AnimatedImage(frames: [solid(1), solid(0.5)], delays: [0.1, 0.1], plays: nil)],
                fonts: Self.fonts))
        let green = Self.columns(still.image) { $0.y > 0.5 && $0.x < 0.1 }
        #expect(animated.animatedIcons.map(\.x) == [try #require(green.first)])
        #expect(animated.width == still.width)
        #expect(Self.columns(animated.image) { $0.y > 0.5 && $0.x < 0.1 }.isEmpty)
    }

    @Test("a line starting with an icon reads right to left when its first letter does")
    func leadingIconDirection() throws {
        let leaf = ImageBitmap(width: 1, height: 1, premultiplied: [ImageBitmap.Pixel(0, 1, 0, 1)])
        let content = TextContent(text: "{icon:leaf}שלום abc", fallbacks: FontSpec.defaultFallbacks(for: .defaultFace))
        let raster = try #require(
            try RichTextRaster(content, icons: ["leaf": AnimatedImage(still: leaf)], fonts: Self.fonts))
        #expect(raster.isRightToLeft)
        // First in logical order, so rightmost.
        let green = Self.columns(raster.image) { $0.y > 0.5 && $0.x < 0.1 }
        #expect(green.last == raster.width - 1)
    }
}

@Suite("RichText braces")
struct RichTextBraceTests {
    @Test("braces that never close, or close only at the end, are shown as written")
    func unclosedBraces() {
        let source = String(repeating: "{a", count: 4096)
        #expect(RichText.parse(source) == [.text(source, nil)])
        let closedLate = String(repeating: "{a", count: 4096) + "}"
        #expect(RichText.parse(closedLate) == [.text(closedLate, nil)])
    }
}
