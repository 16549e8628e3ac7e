import Foundation
import SignGraphics
import Testing

@testable import SignScene

/// What a frame shows depends on its scene time alone, never on which frames the renderer
/// drew before it: boards on one timeline skip different frames when busy and must still
/// agree on every frame they show.
@Suite("Render history")
struct RenderHistoryTests {
    static let fonts = try! FontLibrary()

    @Test(
        "a text that switches at a frame: the frames around it are the same drawn in turn, with frames skipped, or alone"
    )
    func switchIndependentOfHistory() throws {
        let layer = TextLayer(
            id: "main", text: "One timeline for many boards", marquee: Marquee(speed: 40, fade: .pixels(4)))
        let fps = 30.0
        let before = try PreparedScene(Scene(width: 64, height: 16, layers: [layer]), beginTime: 0, fonts: Self.fonts)
        let switchFrame = 1070
        let after = try before.settingText(
            "Now", ofLayer: 0, when: .now, now: Double(switchFrame - 25) / fps,
            from: Double(switchFrame) / fps, fonts: Self.fonts)
        func frames(_ numbers: [Int]) -> [Int: Frame] {
            let renderer = Renderer(width: 64, height: 16)
            var out: [Int: Frame] = [:]
            for n in numbers {
                var frame = Frame(width: 64, height: 16)
                // The scene swaps in between frames, some frames before the switch, as a request does.
                renderer.render(n < switchFrame - 20 ? before : after, at: Double(n) / fps, into: &frame)
                out[n] = frame
            }
            return out
        }
        let inTurn = frames(Array(switchFrame - 30...switchFrame + 5))
        for skipped in [[switchFrame - 1], [switchFrame - 2, switchFrame - 1], [switchFrame - 20, switchFrame - 19]] {
            let some = frames(Array(switchFrame - 30...switchFrame + 5).filter { !skipped.contains($0) })
            for n in switchFrame - 3...switchFrame + 3 where !skipped.contains(n) {
                #expect(some[n] == inTurn[n], "frame \(n) with \(skipped) skipped")
            }
        }
        for n in switchFrame - 2...switchFrame + 2 {
            #expect(frames([n])[n] == inTurn[n], "frame \(n) drawn alone")
        }
    }
}

@Suite("Text change at a frame")
struct TextChangeAtFrameTests {
    @Test("a text set ahead for a frame's time shows from that very frame, whatever the moment it was set at")
    func exactFrame() throws {
        let layer = TextLayer(
            id: "main", text: "One timeline for many boards", marquee: Marquee(speed: 40, fade: .pixels(4)))
        let scene = try PreparedScene(
            Scene(width: 64, height: 16, layers: [layer]), beginTime: 0, fonts: RenderHistoryTests.fonts)
        let fps = 30.0
        // Many frames and many moments of arrival: the sum `now + from - now` is off by a
        // rounding for some of them.
        var late = 0
        for frame in 1000..<1400 {
            let from = Double(frame) / fps
            for arrival in stride(from: from - 0.99, to: from - 0.01, by: 0.0917) {
                let changed = try scene.settingText(
                    "Now", ofLayer: 0, when: .now, now: arrival, from: from, fonts: RenderHistoryTests.fonts)
                if changed.text(ofLayer: 0, at: from) != "Now" { late += 1 }
            }
        }
        #expect(late == 0, "\(late) changes showed a frame late")
    }
}
