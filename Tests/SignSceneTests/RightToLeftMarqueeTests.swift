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
