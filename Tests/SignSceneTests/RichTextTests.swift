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
