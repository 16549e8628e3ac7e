import Testing

@testable import SignGraphics

/// What HarfBuzz and FriBidi add to layout: order, clusters, fallback per cluster, features
/// and the bounds that keep hostile text cheap.
@Suite("Text shaping")
struct TextShapingTests {
    let fonts = try! FontLibrary()
    static let dejaVu = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 16)

    @Test("Arabic reads right to left: its first letter is drawn rightmost, joined")
    func arabicOrder() throws {
        let run = try fonts.layout("مرحبا", primary: Self.dejaVu, fallbacks: [])
        #expect(run.isRightToLeft)
        #expect(run.glyphs.map(\.cluster) == [4, 3, 2, 1, 0])
        // Joined forms, not the isolated letters the cmap gives.
        let isolated = try fonts.layout("م", primary: Self.dejaVu, fallbacks: []).glyphs[0].index
        #expect(run.glyphs.last?.index != isolated)
    }

    @Test("direction = ltr keeps a Hebrew text's base direction but its letters still read right to left")
    func setDirection() throws {
        let auto = try fonts.layout("שלום, world", primary: Self.dejaVu, fallbacks: [])
        let ltr = try fonts.layout("שלום, world", primary: Self.dejaVu, fallbacks: [], direction: .ltr)
        #expect(auto.isRightToLeft && !ltr.isRightToLeft)
        #expect(ltr.glyphs.prefix(4).map(\.cluster) == [3, 2, 1, 0])
        #expect(auto.glyphs.first?.cluster == 6)  // "world" at the left of a right-to-left line
    }

    @Test("a cluster is drawn by the first face that has every glyph of it")
    func clusterFallback() throws {
        // misc-fixed 6x10 has q but not the combining doubled circumflex; unifont has both.
        let run = try fonts.layout("q\u{1AB0}q", primary: .defaultFace, fallbacks: [.unifont])
        #expect(run.missing.isEmpty)
        #expect(run.glyphs.map(\.face) == [1, 1, 0])
    }

    @Test("missing characters are reported once per cluster that lacks them")
    func missingPerCluster() throws {
        let run = try fonts.layout("a\u{1AB0}b\u{1AB0}", primary: .defaultFace, fallbacks: [])
        #expect(run.missing == ["\u{1AB0}", "\u{1AB0}"])
    }

    @Test("font_features reach HarfBuzz: -liga keeps f and i apart")
    func features() throws {
        let liga = try fonts.layout("fi", primary: Self.dejaVu, fallbacks: [])
        let noLiga = try fonts.layout("fi", primary: Self.dejaVu, fallbacks: [], features: [FontFeature("-liga")!])
        #expect(liga.glyphs.count == 1)
        #expect(noLiga.glyphs.count == 2)
    }

    @Test("HarfBuzz's feature syntax is accepted and anything else refused", arguments: ["-liga", "tnum", "ss01=2", "kern[3:5]=0"])
    func featureSyntax(_ text: String) {
        #expect(FontFeature(text) != nil)
        #expect(FontFeature("=" + text) == nil)
    }

    @Test("a bitmap face's glyphs sit on whole pixels")
    func bitmapWholePixels() throws {
        let run = try fonts.layout("مرحبا abc", primary: .unifont, fallbacks: [])
        #expect(run.glyphs.allSatisfy { $0.xAdvance % 64 == 0 && $0.xOffset % 64 == 0 && $0.yOffset % 64 == 0 })
    }

    @Test("10,000 combining marks on one letter keep 30 of them")
    func manyMarks() throws {
        let text = "a" + String(repeating: "\u{301}", count: 10_000) + "b"
        let run = try fonts.layout(text, primary: Self.dejaVu, fallbacks: [])
        #expect(run.dropped == 10_000 - FontLibrary.maxMarksPerBase)
        #expect(run.glyphs.count <= 2 + FontLibrary.maxMarksPerBase)
        #expect(run.height < 100)
    }

    @Test("unpaired bidi controls, lone joiners and an over-long text lay out, bounded")
    func hostileText() throws {
        let controls = "\u{202E}abc\u{2067}שלום\u{202A}\u{202B}\u{200D}\u{200D}x\u{2069}\u{2069}\u{202C}\u{202C}\u{200D}"
        let run = try fonts.layout(controls, primary: Self.dejaVu, fallbacks: [.unifont])
        #expect(run.glyphs.count == controls.unicodeScalars.count)
        let long = String(repeating: "abc مرحبا नमस्ते 👍🏽 ", count: 1_000)
        let longRun = try fonts.layout(long, primary: Self.dejaVu, fallbacks: [.unifont, .emoji(size: 16)])
        #expect(longRun.dropped == long.unicodeScalars.count - FontLibrary.maxScalars)
        #expect(longRun.glyphs.count <= FontLibrary.maxScalars)
    }
}
