import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// A notification over a marquee: the marquee holds still where it stood, the notification
/// shows for its loops or duration, and the marquee carries on from the same pixel.
@Suite("NotificationRun")
struct NotificationRunTests {
    static let fonts = try! FontLibrary()

    /// A 64x10 board with a marquee scrolling at 25 px/s.
    static func scene() throws -> PreparedScene {
        let layer = TextLayer(
            id: "main", text: "Now Playing: a long title", marquee: Marquee(speed: 25, fade: .pixels(0)))
        return try PreparedScene(Scene(width: 64, height: 10, layers: [layer]), beginTime: 0, fonts: fonts)
    }

    static func run(
        over scene: PreparedScene, begin: Double, _ items: [(id: Int, text: String, loops: Int, duration: Double?)],
        transition: Transition = .cut
    ) throws -> PreparedScene {
        let slot = scene.slots[0].folded(at: begin, beginning: true)
        let frozenAt = slot.localTime(begin)
        let shown = slot.layer(at: frozenAt)
        let run = try NotificationRun(
            items.map { ($0.id, shown.source.withText($0.text)!, $0.loops, $0.duration) }, begin: begin,
            content: slot.tree(at: frozenAt), frozenAt: frozenAt, lag: slot.lag, transition: transition,
            rect: shown.rect, context: PreparationContext(scene.scene, fonts: fonts))
        return scene.setting(notifications: run, ofLayer: 0, now: begin)
    }

    @Test(
        "the marquee resumes at the pixel it stood at: every frame after the notification is the frame without it, as long earlier"
    )
    func resumesAtSamePixel() throws {
        let plain = try Self.scene()
        let noticed = try Self.run(over: plain, begin: 1.3, [(1, "Order 42", 1, 2)])
        for n in 0..<30 {
            let t = 3.3 + Double(n) / 30
            #expect(
                Renderer.render(noticed, at: t).pixels == Renderer.render(plain, at: t - 2).pixels,
                "frame at \(t) s")
        }
        // Before it, nothing changed; during it, the notification shows, not the marquee.
        #expect(Renderer.render(noticed, at: 1.2).pixels == Renderer.render(plain, at: 1.2).pixels)
        let during = Renderer.render(noticed, at: 2.0)
        #expect(during.pixels != Renderer.render(plain, at: 2.0).pixels)
        #expect(during.pixels != Renderer.render(plain, at: 1.3).pixels)
        // Folded into the clock once over: the same frames, the run gone.
        let folded = noticed.folded(at: 4)
        #expect(folded.slots[0].notifications == nil && abs(folded.slots[0].lag - 2) < 1e-9)
        #expect(Renderer.render(folded, at: 5).pixels == Renderer.render(plain, at: 3).pixels)
    }

    @Test("a notification that comes while the way back from the last one runs pauses the content where it had got to")
    func newRunDuringWayBack() throws {
        let plain = try Self.scene()
        let first = try Self.run(over: plain, begin: 1, [(1, "One", 1, 1)], transition: Transition(kind: .crossfade))
        let wayBack = first.slots[0].notifications!.exitDuration
        #expect(wayBack > 0.2)
        let second = try Self.run(over: first, begin: 2.2, [(2, "Two", 1, 1)], transition: Transition(kind: .crossfade))
        #expect(abs(second.slots[0].lag - 1) < 1e-9, "the first run folded into the clock as the second began")
        let after = 3.2 + wayBack + 0.05
        #expect(Renderer.render(second, at: after).pixels == Renderer.render(plain, at: after - 2).pixels)
    }

    @Test("a scrolling notification lasts its loops; back to back ones follow each other; a transition goes in and out")
    func loopsAndChaining() throws {
        let plain = try Self.scene()
        let noticed = try Self.run(
            over: plain, begin: 0.5, [(1, "First notice, long enough to scroll", 2, nil), (2, "Second", 1, 1.5)],
            transition: Transition(kind: .crossfade))
        let run = try #require(noticed.slots[0].notifications)
        let first = run.shows[0]
        let cycle = try #require(first.layer.path).timing.duration
        #expect(first.start == 0.5 && abs(first.end - (0.5 + 2 * cycle)) < 1e-9)
        #expect(run.shows[1].start == first.end && run.shows[1].end == first.end + 1.5)
        #expect(run.exitDuration == Transition(kind: .crossfade).duration)
        // After the way back, the marquee as it was, behind by the whole run.
        let after = run.end + run.exitDuration + 0.1
        #expect(Renderer.render(noticed, at: after).pixels == Renderer.render(plain, at: after - run.span).pixels)
        // Half way through the way back both show: neither frame alone.
        let halfway = run.end + run.exitDuration / 2
        let mixed = Renderer.render(noticed, at: halfway).pixels
        #expect(mixed != Renderer.render(plain, at: halfway - run.span).pixels)
    }

    @Test("layer timing: speed 0 holds a tree at its time offset; an offset shifts it")
    func layerTiming() throws {
        var moving = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1), backgroundColor: .white)
        moving.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .positionX, motion: .basic(BasicValues(from: .number(0.5), to: .number(7.5))),
                    timing: MediaTiming(beginTime: 0, duration: 7)))
        ]
        var held = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 1), sublayers: [moving])
        held.speed = 0
        held.timeOffset = 3
        #expect(held.localTime(100) == 3)
        var shifted = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 1), sublayers: [moving])
        shifted.timeOffset = -2
        #expect(shifted.localTime(5) == 3)
        func draw(_ layer: Layer, at t: Double) throws -> [UInt8] {
            let scene = Scene(width: 8, height: 1, layers: [.layer(layer)])
            return Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t).pixels
        }
        let plain = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 1), sublayers: [moving])
        #expect(try draw(held, at: 6) == (try draw(plain, at: 3)))
        #expect(try draw(shifted, at: 5) == (try draw(plain, at: 3)))
    }
}
