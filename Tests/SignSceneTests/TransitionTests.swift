import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Text transitions")
struct TransitionTests {
    static let fonts = try! FontLibrary()

    func scene(_ text: String) throws -> PreparedScene {
        let layer = TextLayer(id: "main", text: text, fallbacks: [], marquee: Marquee(speed: 0, fade: .pixels(0)))
        return try PreparedScene(Scene(width: 40, height: 10, layers: [layer]), beginTime: 0, fonts: Self.fonts)
    }

    func changed(_ transition: Transition, at now: Double = 5) throws -> PreparedScene {
        try scene("AAAA").settingText(
            "BBBB", ofLayer: 0, when: .now, now: now, fonts: Self.fonts, transition: transition)
    }

    @Test("half-way through a crossfade each pixel is the average of the old and new texts")
    func crossfade() throws {
        let old = Renderer.render(try scene("AAAA"), at: 0), new = Renderer.render(try scene("BBBB"), at: 0)
        let mid = Renderer.render(
            try changed(Transition(kind: .crossfade, duration: 1, timingFunction: .linear)), at: 5.5)
        for i in mid.pixels.indices {
            // The old text at opacity 0.5, then the new one at 0.5 over it (source-over); the
            // new white text's coverage is its own brightness.
            let newCoverage = Double(new.pixels[i]) / 255
            let expected = Double(new.pixels[i]) * 0.5 + Double(old.pixels[i]) * 0.5 * (1 - 0.5 * newCoverage)
            #expect(abs(Double(mid.pixels[i]) - expected) <= 1.5, "byte \(i)")
        }
    }

    @Test("a push moves the old text out to the left as the new one comes in from the right")
    func push() throws {
        let old = Renderer.render(try scene("AAAA"), at: 0), new = Renderer.render(try scene("BBBB"), at: 0)
        // Linear, 1 s, a quarter in: old moved 10 px left, new 30 px right of home.
        let frame = Renderer.render(
            try changed(Transition(kind: .push, duration: 1, timingFunction: .linear)), at: 5.25)
        for x in 0..<40 {
            for y in 0..<10 {
                let expected = x < 30 ? old.pixel(x: x + 10, y: y) : new.pixel(x: x - 30, y: y)
                #expect(frame.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }

    @Test("a push to a right-to-left text moves the old one out to the right as the new one comes in from the left")
    func pushRightToLeft() throws {
        let old = Renderer.render(try scene("AAAA"), at: 0), new = Renderer.render(try scene("אבגד"), at: 0)
        let frame = Renderer.render(
            try scene("AAAA").settingText(
                "אבגד", ofLayer: 0, when: .now, now: 5, fonts: Self.fonts,
                transition: Transition(kind: .push, duration: 1, timingFunction: .linear)), at: 5.25)
        for x in 0..<40 {
            for y in 0..<10 {
                let expected = x >= 10 ? old.pixel(x: x - 10, y: y) : new.pixel(x: x + 30, y: y)
                #expect(frame.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
        #expect(new.pixels.contains { $0 > 0 })
    }

    @Test("after the transition only the new text is drawn; before it, only the old")
    func endsAndBegins() throws {
        let old = Renderer.render(try scene("AAAA"), at: 0), new = Renderer.render(try scene("BBBB"), at: 0)
        for kind in [Transition.Kind.crossfade, .slide, .push] {
            let s = try changed(Transition(kind: kind, duration: 0.5))
            #expect(Renderer.render(s, at: 5) == old, "\(kind) at its start")
            #expect(Renderer.render(s, at: 5.6) == new, "\(kind) after its end")
        }
        #expect(Renderer.render(try changed(.cut), at: 5) == new)
    }

    @Test("repeated changes do not nest transitions: the next one starts from the body alone")
    func noNesting() throws {
        var s = try changed(Transition(kind: .crossfade, duration: 0.5))
        s = try s.settingText(
            "CCCC", ofLayer: 0, when: .now, now: 10, fonts: Self.fonts,
            transition: Transition(kind: .crossfade, duration: 0.5))
        let outgoing = s.slots[0].current.tree.sublayers[0]
        // clip > [mover > shift > body]: the outgoing body is BBBB's own tree, not a transition.
        #expect(outgoing.sublayers[0].sublayers[0].model.id == "main")
        #expect(Renderer.render(s, at: 11) == Renderer.render(try scene("CCCC"), at: 0))
    }
}
