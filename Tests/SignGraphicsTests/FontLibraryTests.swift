import Foundation
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

@Suite("FontLibrary's bounds")
struct FontLibraryBoundsTests {
    /// 3,000 distinct Han characters, 60 a line: fifty layouts that each render new glyphs.
    static let lines: [String] = (0..<50).map { line in
        String(String.UnicodeScalarView((0..<60).map { Unicode.Scalar(0x4E00 + line * 60 + $0)! }))
    }

    @Test("laying out thousands of distinct glyphs keeps the glyph cache within its budget")
    func glyphCacheStaysWithinBudget() throws {
        let budget = 64 << 10
        let fonts = try FontLibrary(glyphCacheBytes: budget)
        for line in Self.lines {
            let run = try fonts.layout(line, primary: .unifont, fallbacks: [])
            #expect(run.glyphs.count == 60)
            #expect(fonts.cachedGlyphBytes <= budget)
        }
        #expect(fonts.renderedGlyphCount == 3000)
        #expect(fonts.cachedGlyphCount < 3000 / 2)
        #expect(fonts.cachedGlyphCount > 0)
    }

    @Test(
        "text laid out again after its glyphs were evicted renders the same, and a run laid out before keeps its pixels"
    )
    func evictionKeepsRendering() throws {
        let fonts = try FontLibrary(glyphCacheBytes: 32 << 10)
        let first = try fonts.layout(Self.lines[0], primary: .unifont, fallbacks: [])
        let pixels = first.rasterize()
        for line in Self.lines.dropFirst() { _ = try fonts.layout(line, primary: .unifont, fallbacks: []) }
        let rendered = fonts.renderedGlyphCount
        let again = try fonts.layout(Self.lines[0], primary: .unifont, fallbacks: [])
        // Evicted: FreeType drew the line's glyphs again.
        #expect(fonts.renderedGlyphCount == rendered + 60)
        #expect(again == first)
        #expect(again.rasterize() == pixels)
        #expect(first.rasterize() == pixels)
    }

    @Test("glyphs in use stay cached while unused ones are evicted")
    func glyphsInUseSurvive() throws {
        let fonts = try FontLibrary(glyphCacheBytes: 64 << 10)
        for line in Self.lines {
            _ = try fonts.layout(line, primary: .unifont, fallbacks: [])
            _ = try fonts.layout("Now Playing", primary: .unifont, fallbacks: [])
        }
        let rendered = fonts.renderedGlyphCount
        _ = try fonts.layout("Now Playing", primary: .unifont, fallbacks: [])
        #expect(fonts.renderedGlyphCount == rendered)
        // Only the first layout of "Now Playing" rendered its eleven distinct glyphs.
        #expect(rendered == 3000 + 11)
    }

    @Test("at most maxFaces faces stay open, the least recently used closed, and closed faces lay out the same")
    func facesBounded() throws {
        let fonts = try FontLibrary(maxFaces: 3)
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let first = try fonts.layout("Hello", primary: FontSpec(name: dejaVu, size: 10), fallbacks: [])
        for size in 11..<30 {
            _ = try fonts.layout("Hello", primary: FontSpec(name: dejaVu, size: size), fallbacks: [])
            #expect(fonts.openFaceCount <= 3)
        }
        let again = try fonts.layout("Hello", primary: FontSpec(name: dejaVu, size: 10), fallbacks: [])
        #expect(again == first)
        // A chain longer than the bound is opened whole for its layout.
        let chain = (30..<35).map { FontSpec(name: dejaVu, size: $0) }
        let run = try fonts.layout("Hi", primary: .defaultFace, fallbacks: chain)
        #expect(run.missing.isEmpty)
        #expect(fonts.openFaceCount == 6)
        _ = try fonts.layout("Hi", primary: .defaultFace, fallbacks: [])
        #expect(fonts.openFaceCount == 3)
    }

    @Test(
        "a font file replaced at the same path (renamed over, or rewritten in place) is drawn from its new glyphs, the old face closed",
        arguments: [true, false])
    func replacedFontFile(renamedOver: Bool) throws {
        let fonts = try FontLibrary()
        let dejaVu = "/usr/share/fonts/truetype/dejavu/"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("signd-font-\(getpid())-\(renamedOver)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sign.ttf").path
        try FileManager.default.copyItem(atPath: dejaVu + "DejaVuSans.ttf", toPath: path)
        let spec = FontSpec(name: path, size: 16)
        let before = try fonts.layout("Ag", primary: spec, fallbacks: [])
        #expect(
            before.glyphs.map(\.glyph)
                == (try fonts.layout("Ag", primary: FontSpec(name: dejaVu + "DejaVuSans.ttf", size: 16), fallbacks: []))
                .glyphs.map(\.glyph))
        let serif = try Data(contentsOf: URL(fileURLWithPath: dejaVu + "DejaVuSerif-Bold.ttf"))
        if renamedOver {
            let staged = dir.appendingPathComponent("sign.ttf.new").path
            try serif.write(to: URL(fileURLWithPath: staged))
            #expect(rename(staged, path) == 0)
        } else {
            // Rewritten in place: the same inode, its content and size changed.
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: serif)
            try handle.close()
        }
        let openBefore = fonts.openFaceCount
        // Until the files are checked (as preparing a scene, at a reload, does) the open face stays.
        let changes = fonts.checkFontFiles()
        #expect(changes == 1)
        #expect(fonts.checkFontFiles() == changes, "one change is counted once")
        let after = try fonts.layout("Ag", primary: spec, fallbacks: [])
        let expected = try FontLibrary().layout(
            "Ag", primary: FontSpec(name: dejaVu + "DejaVuSerif-Bold.ttf", size: 16), fallbacks: [])
        #expect(after.glyphs.map(\.glyph) == expected.glyphs.map(\.glyph))
        #expect(after.width == expected.width)
        #expect(after.glyphs.map(\.glyph) != before.glyphs.map(\.glyph))
        // The face of the old file is closed in its place, not kept beside it.
        #expect(fonts.openFaceCount == openBefore)
    }
}
