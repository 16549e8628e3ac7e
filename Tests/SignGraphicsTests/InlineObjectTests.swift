import Foundation
import TestSupport
import Testing

@testable import SignGraphics

/// Inline objects (a rich line's icons) laid out with the text as U+FFFC: one bidirectional
/// paragraph, the object where UAX #9 puts it, checked against python-bidi's own order of
/// the same string (tools/shaping-reference.py).
@Suite("Inline objects in a line")
struct InlineObjectTests {
    let fonts = try! FontLibrary()
    static let dejaVu = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 16)
    static let hebrew = FontSpec(name: "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf", size: 13)
    static let arabic = FontSpec(name: "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf", size: 13)
    static let object = "\u{FFFC}"
    static let iconWidth = 11

    /// python-bidi's visual string for `text` (U+FFFC and all).
    static func display(_ text: String) throws -> String {
        let input = try JSONSerialization.data(withJSONObject: [
            ["text": text, "font": dejaVu.path, "ppem": 16, "direction": "auto"]
        ])
        let output = try ReferenceScript("shaping-reference.py").run(input: input)
        let decoded = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        return try #require(decoded.first?["display"] as? String)
    }

    /// The pixel columns `[lo, hi)` the glyphs of `word` (its scalars in `text`) cover, by pen and advance.
    static func extent(of word: String, in text: String, run: TextRun) throws -> Range<Int> {
        let scalars = Array(text.unicodeScalars)
        let wordScalars = Array(word.unicodeScalars)
        let start = try #require(
            (0...(scalars.count - wordScalars.count)).first {
                Array(scalars[$0..<$0 + wordScalars.count]) == wordScalars
            })
        let glyphs = run.glyphs.filter { (start..<start + wordScalars.count).contains($0.cluster) }
        try #require(!glyphs.isEmpty)
        let lo = glyphs.map { $0.x - ($0.xOffset + 32) / 64 }.min()!
        let hi = glyphs.map { $0.x - ($0.xOffset + 32) / 64 + ($0.xAdvance + 32) / 64 }.max()!
        return lo..<hi
    }

    /// Lays out `text` with its U+FFFC as an object `iconWidth` wide; checks that the words
    /// and the object stand left to right in python-bidi's order of the string and apart.
    func checkOrder(_ text: String, words: [String], font: FontSpec, rightToLeft: Bool) throws {
        let found = try #require(text.range(of: Self.object))
        let utf8Offset = text.utf8.distance(from: text.utf8.startIndex, to: found.lowerBound)
        let run = try fonts.layout(text, primary: font, fallbacks: [Self.dejaVu], objects: [utf8Offset])
            .placingObjects { _ in Self.iconWidth }
        #expect(run.isRightToLeft == rightToLeft)
        let object = try #require(run.objects.first)
        #expect(run.objects.count == 1 && object.textOffset == utf8Offset)
        // Pieces as placed: each word's columns and the object's.
        var placed = try words.map { ($0, try Self.extent(of: $0, in: text, run: run)) }
        placed.append((Self.object, object.x..<object.x + Self.iconWidth))
        placed.sort { $0.1.lowerBound < $1.1.lowerBound }
        for (a, b) in zip(placed, placed.dropFirst()) {
            #expect(a.1.upperBound <= b.1.lowerBound, "\(a.0) at \(a.1) overlaps \(b.0) at \(b.1)")
        }
        // python-bidi's order of the same pieces, left to right.
        let display = try Self.display(text)
        let expected = (words + [Self.object]).sorted {
            display.range(of: reversedIfRightToLeft($0))!.lowerBound
                < display.range(of: reversedIfRightToLeft($1))!.lowerBound
        }
        #expect(placed.map(\.0) == expected, "python-bidi shows \(display)")
    }

    /// A word as python-bidi's display string shows it: right-to-left letters reversed.
    func reversedIfRightToLeft(_ word: String) -> String {
        let rtl = word.unicodeScalars.contains { (0x590...0x6FF).contains($0.value) }
        return rtl ? String(String.UnicodeScalarView(word.unicodeScalars.reversed())) : word
    }

    @Test("a Hebrew line: the icon between the two words, the first word rightmost, as UAX #9 orders them")
    func hebrew() throws {
        try checkOrder("שלום \u{FFFC} עולם", words: ["שלום", "עולם"], font: Self.hebrew, rightToLeft: true)
    }

    @Test("an Arabic line: the icon between the two words, right to left")
    func arabic() throws {
        try checkOrder("الطقس \u{FFFC} مشمس", words: ["الطقس", "مشمس"], font: Self.arabic, rightToLeft: true)
    }

    @Test("a left-to-right line with a Hebrew word next to the icon: the icon after the word, at the base level")
    func mixed() throws {
        try checkOrder(
            "Today שלום \u{FFFC} sunny", words: ["Today", "שלום", "sunny"], font: Self.dejaVu, rightToLeft: false)
        try checkOrder(
            "Today שלום\u{FFFC}עולם sunny", words: ["Today", "שלום", "עולם", "sunny"], font: Self.dejaVu,
            rightToLeft: false)
    }

    @Test("a line starting with an icon takes its direction from the first strong letter after it")
    func leadingIcon() throws {
        let run = try fonts.layout("\u{FFFC}שלום abc", primary: Self.dejaVu, fallbacks: [], objects: [0])
        #expect(run.isRightToLeft)
        // Between the paragraph's start and a Hebrew letter it resolves right to left
        // (rule N1), so the icon, first in logical order, is rightmost.
        #expect(run.objects.first?.glyphIndex == run.glyphs.count)
        #expect(run.objects.first?.isRightToLeft == true)
    }

    @Test("a left-to-right line with an icon places its pieces where laying them out apart does, to the pixel")
    func leftToRightAsPieces() throws {
        // DejaVu's advances are fractional: each piece is rounded on its own, as before.
        let text = "Wave fi \u{FFFC}AVA To 12"
        let offset = "Wave fi ".utf8.count
        let run = try fonts.layout(text, primary: Self.dejaVu, fallbacks: [], objects: [offset])
            .placingObjects { _ in Self.iconWidth }
        let left = try fonts.layout("Wave fi ", primary: Self.dejaVu, fallbacks: [])
        let right = try fonts.layout("AVA To 12", primary: Self.dejaVu, fallbacks: [])
        #expect(run.objects.map(\.x) == [left.width])
        #expect(run.width == left.width + Self.iconWidth + right.width)
        #expect(run.glyphs.map(\.x) == left.glyphs.map(\.x) + right.glyphs.map { left.width + Self.iconWidth + $0.x })
        #expect(run.glyphs.map(\.index) == left.glyphs.map(\.index) + right.glyphs.map(\.index))
    }

    @Test("an object is a cluster of its own, even with a combining mark after it")
    func objectCluster() throws {
        let text = "ab\u{FFFC}\u{301}c"
        let run = try fonts.layout(text, primary: Self.dejaVu, fallbacks: [], objects: [2])
        #expect(run.objects.count == 1)
        #expect(!run.glyphs.contains { $0.cluster == 2 })
    }
}
