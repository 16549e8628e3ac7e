import Foundation
import TestSupport
import Testing

@testable import SignGraphics

/// signd's text layout against the real reference: HarfBuzz's own shaping through uharfbuzz
/// and python-bidi's visual order (tools/shaping-reference.py), for the same font and size.
@Suite("Shaping against uharfbuzz and python-bidi")
struct ShapingReferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let font: FontSpec
        var direction: TextDirection = .auto
        var testDescription: String { name }
    }

    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let noto = "/usr/share/fonts/truetype/noto/"
    static func face(_ path: String, _ size: Int = 16) -> FontSpec { FontSpec(name: path, size: size) }

    static let cases: [Case] = [
        Case(name: "Arabic with numbers and Latin", text: "مرحبا بكم 2026 في Berlin", font: face(dejaVu)),
        Case(name: "Arabic with vowel marks and lam-alef", text: "بِسْمِ اللَّهِ لا 12", font: face(noto + "NotoNaskhArabic-Regular.ttf", 20)),
        Case(name: "Hebrew with brackets", text: "שלום (עולם) [3] {א}", font: face(dejaVu)),
        Case(name: "Devanagari conjuncts", text: "नमस्ते क्षत्रिय श्री", font: face(noto + "NotoSansDevanagari-Regular.ttf")),
        Case(name: "Thai marks", text: "สวัสดีครับ ผู้ใหญ่", font: face(noto + "NotoSansThai-Regular.ttf")),
        Case(name: "Hangul syllables and conjoining jamo", text: "한국어 \u{1112}\u{119E}\u{11AB}", font: .unifont),
        Case(name: "combining accents", text: "e\u{301} a\u{308}\u{304} q\u{323}\u{307} Ǻ", font: face(dejaVu)),
        Case(name: "emoji ZWJ families", text: "👩‍👩‍👧 👨‍👩‍👧‍👦", font: .emoji(size: 16)),
        Case(name: "flags", text: "🇯🇵🇩🇪🇮🇱", font: .emoji(size: 16)),
        Case(name: "skin tones", text: "👍🏽👋🏿", font: .emoji(size: 16)),
        Case(name: "keycaps", text: "1️⃣#️⃣", font: .emoji(size: 16)),
        Case(name: "mixed LTR and RTL", text: "Open 9-5 פתוח מ-9 עד 5 today", font: face(dejaVu)),
        Case(name: "Latin set right to left", text: "Sale 50% off!", font: face(dejaVu), direction: .rtl),
        Case(name: "Hebrew set left to right", text: "שלום, world", font: face(dejaVu), direction: .ltr),
    ]

    /// The reference's layout of `cases`: per case the glyphs (id, cluster, advance and
    /// offsets in 26.6) in visual order.
    static func reference(_ cases: [Case], ppem: [Int]) throws -> [[[Int]]] {
        let input = try JSONSerialization.data(
            withJSONObject: zip(cases, ppem).map { c, ppem in
                ["text": c.text, "font": c.font.path, "ppem": ppem, "direction": c.direction.rawValue]
            })
        let output = try ReferenceScript("shaping-reference.py").run(input: input)
        let decoded = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        return decoded.map { ($0["glyphs"] as? [[Int]]) ?? [] }
    }

    @Test("glyph ids, clusters and positions equal HarfBuzz's, in python-bidi's visual order", arguments: cases)
    func matchesReference(_ c: Case) throws {
        let fonts = try FontLibrary()
        let run = try fonts.layout(c.text, primary: c.font, fallbacks: [], direction: c.direction)
        // Colour emoji come from their one bitmap strike (109 px per em), scaled to the size
        // asked for: HarfBuzz positions at the strike, scaled the same way.
        let isEmoji = c.font.name == "emoji"
        let scale = isEmoji ? Double(c.font.size) / 128 : 1
        let reference = try Self.reference([c], ppem: [isEmoji ? 109 : c.font.size])[0].map { g in
            [g[0], g[1]] + g[2...].map { Int((Double($0) * scale).rounded()) }
        }
        let signd = run.glyphs.map { [Int($0.index), $0.cluster, $0.xAdvance, $0.xOffset, $0.yOffset] }
        #expect(!reference.isEmpty)
        #expect(signd == reference)
        #expect(run.missing.isEmpty)
    }
}
