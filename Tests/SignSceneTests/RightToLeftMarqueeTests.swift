import Foundation
import SignGraphics
import Testing

@testable import SignScene

/// A right-to-left text scrolls the way it reads unless told otherwise.
@Suite("Right-to-left marquee")
struct RightToLeftMarqueeTests {
    static let fonts = try! FontLibrary()
    static let hebrew = "שלום עולם, ברוכים הבאים"

    static func prepared(_ text: String, _ direction: Marquee.ScrollDirection? = nil) throws -> PreparedTextLayer {
        var layer = TextLayer(id: "main", text: text, fallbacks: [.unifont], marquee: Marquee(speed: 25, fade: .pixels(0)))
        layer.marquee.scrollDirection = direction
        let scene = Scene(width: 32, height: 16, layers: [layer])
        return try PreparedTextLayer(layer, in: PreparationContext(scene, fonts: fonts), beginTime: 0)
    }

    @Test("Hebrew text moves rightwards from its beginning at the right edge")
    func rightwards() throws {
        let m = try Self.prepared(Self.hebrew)
        #expect(m.path.travel > 0)
        #expect(m.path.home == Double(32 - m.textWidth))
        #expect(m.path.stripX(at: 1) > m.path.stripX(at: 0))
    }

    @Test("scroll_direction = left moves Hebrew leftwards, right moves Latin rightwards")
    func overridden() throws {
        #expect(try Self.prepared(Self.hebrew, .left).path.travel < 0)
        #expect(try Self.prepared("Now playing a long title", .right).path.travel > 0)
        #expect(try Self.prepared("Now playing a long title").path.travel < 0)
    }
}

/// Markup and live fields inside right-to-left text.
@Suite("Right-to-left rich text and fields")
struct RightToLeftRichTextTests {
    static let fonts = try! FontLibrary()
    static let dejaVu = FontSpec(name: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size: 16)

    @Test("a colour span on an Arabic word's first letter colours that letter, drawn at the right")
    func spanAfterReordering() throws {
        var content = TextContent(text: "{#ff0000}م{/}رحبا", font: Self.dejaVu, fallbacks: [])
        content.color = .white
        let raster = try TextRaster(content, fonts: Self.fonts)
        let image = try #require(raster.richText)
        var redColumns: [Int] = [], whiteColumns: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixels[y * image.width + x]
                guard p.w > 0.5 else { continue }
                if p.x > 0.4 && p.y < 0.05 { redColumns.append(x) } else if p.y > 0.4 { whiteColumns.append(x) }
            }
        }
        #expect(raster.isRightToLeft)
        #expect(!redColumns.isEmpty && !whiteColumns.isEmpty)
        // The first letter is the rightmost: its red lies right of all the white.
        #expect(redColumns.min()! > whiteColumns.max()! - 2)
    }

    @Test("a clock field inside Arabic text is laid out with its value, the line still right to left")
    func fieldInArabic() throws {
        let layer = TextLayer(id: "main", text: "الساعة {time:%H:%M} الآن", font: Self.dejaVu, fallbacks: [])
        let context = PreparationContext(
            boardWidth: 64, boardHeight: 16, fonts: Self.fonts, icons: [:],
            fields: { $0.replacingOccurrences(of: "{time:%H:%M}", with: "10:04") })
        let prepared = try PreparedSceneLayer(.marquee(layer), in: context, beginTime: 0)
        #expect(prepared.shownText == "الساعة 10:04 الآن")
        #expect(prepared.isRightToLeft)
        let expanded = try Self.fonts.layout("الساعة 10:04 الآن", primary: Self.dejaVu, fallbacks: [])
        #expect(prepared.path?.travel == Double(expanded.width + 16))
    }
}
