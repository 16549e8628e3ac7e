import Testing

@testable import SignGraphics

@Suite("FontLibrary")
struct FontLibraryTests {
    let fonts = try! FontLibrary()

    @Test("misc-fixed 6x10 lays out six pixels per character with its own metrics")
    func miscFixedAdvance() throws {
        let run = try fonts.layout("Now Playing", primary: .defaultFace, fallbacks: [])
        #expect(run.width == 66)
        #expect(run.ascender == 8)
        #expect(run.descent == 2)
        #expect(run.missing.isEmpty)
        #expect(run.glyphs.map(\.x) == stride(from: 0, to: 66, by: 6).map { $0 })
    }

    @Test("Korean and Chinese fall back to unifont, so nothing shows as a box")
    func fallbackToUnifont() throws {
        let run = try fonts.layout("안녕하세요 Now Playing 你好", primary: .defaultFace, fallbacks: [.unifont])
        #expect(run.missing.isEmpty)
        // Five Hangul and two Han at 16 px, 13 Latin characters and spaces at 6 px.
        #expect(run.width == 7 * 16 + 13 * 6)
        #expect(run.ascender == 14)
        let hangul = run.glyphs[0].glyph.bitmap
        #expect(hangul.coverage.contains(255))
    }

    @Test("without a fallback, missing characters are reported")
    func missingReported() throws {
        let run = try fonts.layout("a你", primary: .defaultFace, fallbacks: [])
        #expect(run.missing == ["你"])
    }

    @Test("the glyph cache keeps FreeType out of repeated layouts")
    func glyphCache() throws {
        _ = try fonts.layout("Hello, world", primary: .defaultFace, fallbacks: [])
        let before = fonts.renderedGlyphCount
        _ = try fonts.layout("world, Hello", primary: .defaultFace, fallbacks: [])
        #expect(fonts.renderedGlyphCount == before)
    }

    @Test("an outline font applies kerning from the font")
    func kerning() throws {
        let face = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 24)
        let av = try fonts.layout("AV", primary: face, fallbacks: [])
        let a = try fonts.layout("A", primary: face, fallbacks: [])
        let v = try fonts.layout("V", primary: face, fallbacks: [])
        #expect(av.width < a.width + v.width)
    }

    @Test("PCF glyphs are 1-bit and outline glyphs are grey")
    func pixelModes() throws {
        let pcf = try fonts.layout("g", primary: .defaultFace, fallbacks: []).rasterize()
        #expect(Set(pcf.coverage).isSubset(of: [0, 255]))
        let face = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 13)
        let ttf = try fonts.layout("g", primary: face, fallbacks: []).rasterize()
        #expect(ttf.coverage.contains { $0 > 0 && $0 < 255 })
    }

    @Test("a font that does not exist names the file")
    func missingFile() {
        #expect {
            try fonts.validate(FontSpec(name: "/nonexistent/font.ttf", size: 10))
        } throws: { error in
            "\(error)".contains("/nonexistent/font.ttf")
        }
    }
}
