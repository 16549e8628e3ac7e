import SignGraphics
import Testing

@testable import SignScene

@Suite("Renderer")
struct RendererTests {
    let fonts = try! FontLibrary()

    func prepared(_ text: String, width: Int = 40, marquee: Marquee, color: Color = .white) throws -> PreparedScene {
        let layer = TextLayer(id: "main", text: text, fallbacks: [], color: color, marquee: marquee)
        return try PreparedScene(Scene(width: width, height: 10, layers: [layer]), beginTime: 0, fonts: fonts)
    }

    /// The brightest red value in a column.
    func columnPeak(_ frame: Frame, _ x: Int) -> UInt8 {
        (0..<frame.height).map { frame.pixel(x: x, y: $0).red }.max()!
    }

    @Test("one renderer drawing frame after frame, across scene changes, draws what a new one draws")
    func reusedRenderer() throws {
        let backdrop = Layer(
            content: .gradient(
                Gradient(
                    ramp: ColorRamp(colors: [Color(red: 0, green: 40, blue: 90), .black]), kind: .radial,
                    startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1))),
            frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let text = TextLayer(
            id: "main", text: "Now Playing", fallbacks: [], color: .white, marquee: Marquee(speed: 13, fade: .pixels(4))
        )
        // A static first layer, then none, then another static one: what the board starts from
        // changes between frames.
        let scenes = try [
            Scene(width: 40, height: 10, layers: [.layer(backdrop), .marquee(text)]),
            Scene(width: 40, height: 10, layers: [.marquee(text)]),
            Scene(width: 40, height: 10, layers: [.layer(backdrop), .marquee(text)]),
        ].map { try PreparedScene($0, beginTime: 0, fonts: fonts) }
        let renderer = Renderer(width: 40, height: 10)
        var frame = Frame(width: 40, height: 10)
        for (k, scene) in [0, 0, 0, 1, 1, 2, 0, 2, 1].map({ scenes[$0] }).enumerated() {
            let t = Double(k) * 0.37
            renderer.render(scene, at: t, into: &frame)
            let same = frame == Renderer.render(scene, at: t)
            #expect(same, "frame \(k) differs from what a new renderer draws")
        }
    }

    @Test("a frame's time per layer is 0 for a still layer, on the board from the start, and counted for a drawn one")
    func layerTimes() throws {
        let backdrop = Layer(
            frame: Rect(x: 0, y: 0, width: 40, height: 10), backgroundColor: Color(red: 0, green: 0, blue: 60))
        let text = TextLayer(
            id: "main", text: "Now Playing", fallbacks: [], color: .white, marquee: Marquee(speed: 13, fade: .pixels(4))
        )
        let scene = try PreparedScene(
            Scene(width: 40, height: 10, layers: [.layer(backdrop), .marquee(text)]), beginTime: 0, fonts: fonts)
        let renderer = Renderer(width: 40, height: 10)
        var frame = Frame(width: 40, height: 10)
        for k in 0..<3 {
            renderer.render(scene, at: Double(k) / 10, into: &frame)
            #expect(renderer.layerNanoseconds.count == 2)
            #expect(renderer.layerNanoseconds.first == 0, "the backdrop is still")
            #expect((renderer.layerNanoseconds.last ?? 0) > 0, "the marquee is drawn")
        }
    }

    @Test("text that fits stands still, centred, when scroll is overflow")
    func staticCentred() throws {
        let scene = try prepared("Hi", marquee: Marquee(fade: .pixels(0), scroll: .overflow))
        let a = Renderer.render(scene, at: 0)
        let b = Renderer.render(scene, at: 5.5)
        #expect(a == b)
        let lit = (0..<40).filter { columnPeak(a, $0) > 0 }
        // "Hi" is 12 px wide, so it starts at column (40 - 12) / 2 = 14.
        #expect(lit.min()! >= 14 && lit.max()! < 26)
    }

    @Test("a marquee starts just inside the left fade and moves left by speed * t")
    func scrollsLeft() throws {
        let scene = try prepared("||||||||||", marquee: Marquee(speed: 10, gap: 10, fade: .pixels(0), motion: .pixel))
        let start = Renderer.render(scene, at: 0)
        let later = Renderer.render(scene, at: 0.5)
        // "|" is lit in column 2 of its 6-px cell; with no fade, home is column 0.
        #expect(columnPeak(start, 2) == 255 && columnPeak(start, 1) == 0)
        // Half a second at 10 px/s: everything is 5 px further left.
        for x in 0..<35 { #expect(columnPeak(later, x) == columnPeak(start, x + 5), "column \(x)") }
    }

    @Test("the faded edges dim text at the borders of the layer")
    func fadedEdges() throws {
        // Solid block characters fill every column, so only the mask varies across the board.
        let scene = try prepared(String(repeating: "█", count: 30), marquee: Marquee(speed: 10, fade: .pixels(8)))
        #expect(scene.slots[0].current.missing.isEmpty)
        let frame = Renderer.render(scene, at: 2)
        let peaks = (0..<40).map { columnPeak(frame, $0) }
        #expect(peaks[0] < peaks[3] && peaks[3] < peaks[7] && peaks[7] <= peaks[20])
        #expect(peaks[39] < peaks[36] && peaks[20] == 255)
    }

    @Test("smooth motion spreads a column over two pixels at a half-pixel offset")
    func smoothMotion() throws {
        let scene = try prepared("|", marquee: Marquee(speed: 1, gap: 100, fade: .pixels(0), motion: .smooth))
        let still = Renderer.render(scene, at: 0)
        let half = Renderer.render(scene, at: 0.5)
        let stillPeaks = (0..<40).map { columnPeak(still, $0) }
        let halfPeaks = (0..<40).map { columnPeak(half, $0) }
        #expect(stillPeaks.filter { $0 == 255 }.count == 1)
        #expect(halfPeaks.filter { $0 == 128 }.count == 2)
    }

    @Test("a text set for loop-end appears only when the current loop ends")
    func loopEndChange() throws {
        let scene = try prepared("ABC", marquee: Marquee(speed: 10, gap: 22, fade: .pixels(0)))
        // Cycle: 18 px of text + 22 px of gap = 40 px at 10 px/s: loops end every 4 s.
        let changed = try scene.settingText("XYZ", ofLayer: 0, when: .loopEnd, now: 1, fonts: fonts)
        #expect(changed.text(ofLayer: 0, at: 3.9) == "ABC")
        #expect(changed.text(ofLayer: 0, at: 4) == "XYZ")
        #expect(
            Renderer.render(changed, at: 4)
                == Renderer.render(try prepared("XYZ", marquee: Marquee(speed: 10, gap: 22, fade: .pixels(0))), at: 0))
        let now = try scene.settingText("XYZ", ofLayer: 0, when: .now, now: 1, fonts: fonts)
        #expect(now.text(ofLayer: 0, at: 1) == "XYZ")
    }
}
