import Foundation
import SignGraphics
import Testing

@testable import SignScene

/// A text's live fields shown anew: prepared ahead, swapped in at the frame given, the
/// marquee going on from the pixel it had reached.
@Suite("LiveFieldRefresh")
struct LiveFieldRefreshTests {
    static let fonts = try! FontLibrary()

    /// Fields expanded by replacing `{t}` with `value`.
    static func fields(_ value: String) -> @Sendable (String) -> String {
        { $0.replacingOccurrences(of: "{t}", with: value) }
    }

    static func scene(speed: Double = 25) throws -> PreparedScene {
        let layer = TextLayer(
            id: "main", text: speed > 0 ? "Now {t} playing" : "{t}",
            marquee: Marquee(speed: speed, fade: .pixels(0), scroll: speed > 0 ? .always : .overflow))
        return try PreparedScene(
            Scene(width: 64, height: 10, layers: [layer]), beginTime: 0, fonts: fonts, fields: fields("12:00"))
    }

    @Test("the new value shows from the frame given, not before; the strip stands at the same pixel then")
    func swapKeepsThePixel() throws {
        let before = try Self.scene()
        #expect(before.slots[0].current.shownText == "Now 12:00 playing")
        let after = try #require(
            try before.refreshingFields(
                ofLayer: 0, fields: Self.fields("12:01 and a longer value"), from: 7, now: 6.75, fonts: Self.fonts))
        #expect(after.slots[0].layer(at: 6.9).shownText == "Now 12:00 playing")
        #expect(after.slots[0].layer(at: 7).shownText == "Now 12:01 and a longer value playing")
        let old = try #require(before.slots[0].current.path), new = try #require(after.slots[0].layer(at: 7).path)
        #expect(abs(new.stripX(at: 7) - old.stripX(at: 7)) < 1e-9, "the marquee keeps its pixel")
        #expect(new.cycle > old.cycle, "the longer text has the longer loop")
        #expect(after.slots[0].layer(at: 7).source.text == "Now {t} playing", "the text keeps its fields")
        // It goes on moving at its speed from there.
        #expect(abs((new.stripX(at: 7.2) - new.stripX(at: 7)) - -5) < 1e-9)
    }

    @Test("nothing is laid out when the shown value does not change, or while a set text waits for its loop's end")
    func unchangedOrWaiting() throws {
        let scene = try Self.scene()
        #expect(
            try scene.refreshingFields(ofLayer: 0, fields: Self.fields("12:00"), from: 1, now: 0.8, fonts: Self.fonts)
                == nil)
        let waiting = try scene.settingText(
            "Next {t}", ofLayer: 0, when: .loopEnd, now: 0.5, fonts: Self.fonts, fields: Self.fields("12:00"))
        #expect(waiting.pendingText(ofLayer: 0, at: 0.5) != nil)
        #expect(
            try waiting.refreshingFields(ofLayer: 0, fields: Self.fields("12:01"), from: 1, now: 0.8, fonts: Self.fonts)
                == nil)
    }

    @Test("a text that stands still is centred again on its new width")
    func standingText() throws {
        let scene = try Self.scene(speed: 0)
        let after = try #require(
            try scene.refreshingFields(ofLayer: 0, fields: Self.fields("9"), from: 1, now: 0.8, fonts: Self.fonts))
        let old = try #require(scene.slots[0].current.path), new = try #require(after.slots[0].layer(at: 1).path)
        #expect(old.speed == 0 && new.speed == 0)
        #expect(new.home > old.home, "a shorter text centred starts further right")
    }
}
