import SignGraphics
import SignTiming
import Testing

@testable import SignScene

/// Layer time composed down the tree as the compositor draws it: a white 1x1 leaf whose
/// opacity runs linearly from 0 to 1, inside layers with times of their own; the level drawn
/// is the opacity at the leaf's local time, computed here from Apple's formulas.
@Suite("Layer time in the tree")
struct LayerTimeRenderTests {
    static let fonts = try! FontLibrary()

    /// The white leaf, its opacity from 0 to 1 over `duration` seconds, held before and after.
    static func leaf(duration: Double) -> Layer {
        let fade = LayerPropertyAnimation(
            keyPath: .opacity, motion: .basic(BasicValues(from: .number(0), to: .number(1))),
            timing: MediaTiming(duration: duration, fillMode: .both), isRemovedOnCompletion: false)
        return Layer(
            frame: Rect(x: 0, y: 0, width: 1, height: 1), backgroundColor: .white, animations: [.property(fade)])
    }

    static func container(_ timing: MediaTiming, holding sublayer: Layer) -> Layer {
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1), sublayers: [sublayer])
        layer.timing = timing
        return layer
    }

    /// The level the board shows at scene time `t`, the tree added at time 0.
    func level(_ tree: Layer, at t: Double) throws -> Int {
        let scene = Scene(width: 1, height: 1, layers: [.layer(tree)])
        return Int(Renderer.render(try PreparedScene(scene, beginTime: 0, fonts: Self.fonts), at: t).pixels[0])
    }

    /// Apple's formulas for a layer's local time (a duration, repeats, autoreverses, fill),
    /// `nil` outside its active window with no fill that way.
    static func localTime(_ m: MediaTiming, _ parent: Double) -> Double? {
        let d = m.duration
        let active = d * max(m.repeatCount, 1) * (m.autoreverses ? 2 : 1)
        var t = (parent - m.beginTime) * m.speed
        if t < 0 {
            guard m.fillMode == .backwards || m.fillMode == .both else { return nil }
            t = 0
        } else if t > active {
            guard m.fillMode == .forwards || m.fillMode == .both else { return nil }
            t = active
        }
        t = (t + m.timeOffset).truncatingRemainder(dividingBy: active)
        let half = (t / d).rounded(.down)
        let within = t - half * d
        return m.autoreverses && Int(half) % 2 == 1 ? d - within : within
    }

    @Test(
        "a subtree's animations run on its layer's time: begin time, speed, offset, repeats, autoreverse and fill as Apple's formulas compose them"
    )
    func composedCycles() throws {
        let timing = MediaTiming(
            beginTime: 1, duration: 3, speed: 2, timeOffset: 0.5, repeatCount: 2, autoreverses: true, fillMode: .both)
        let tree = Self.container(timing, holding: Self.leaf(duration: 3))
        // Times off the cycles' boundaries, before, inside and after the active window.
        for t in [0.0, 0.9, 1.1, 1.6, 2.3, 2.9, 3.4, 3.8, 4.2, 5.1, 7.3, 60] {
            let local = Self.localTime(timing, t)!
            let opacity = min(max(local / 3, 0), 1)
            let want = Int((opacity * 255).rounded())
            #expect(abs(try level(tree, at: t) - want) <= 1, "at \(t): local time \(local)")
        }
    }

    @Test("speeds and offsets multiply and add down the tree: a leaf under speed 2 then speed 0.5 + 1 runs at t + 1")
    func nestedSpeeds() throws {
        let inner = Self.container(MediaTiming(speed: 0.5, timeOffset: 1), holding: Self.leaf(duration: 4))
        let outer = Self.container(MediaTiming(speed: 2), holding: inner)
        for t in [0.0, 0.5, 1.25, 2, 2.9, 5] {
            let want = Int((min((t * 2) * 0.5 + 1, 4) / 4 * 255).rounded())
            #expect(abs(try level(outer, at: t) - want) <= 1, "at \(t)")
        }
    }

    @Test("speed 0 with a time offset pauses a subtree: the leaf shows 1.5 s into its fade at every time")
    func pausedSubtree() throws {
        let tree = Self.container(MediaTiming(speed: 0, timeOffset: 1.5), holding: Self.leaf(duration: 3))
        for t in [0.0, 1, 2.5, 10, 3600] { #expect(abs(try level(tree, at: t) - 128) <= 1, "at \(t)") }
    }

    @Test(
        "before a layer's begin time, with no fill, its subtree shows its model values; with a backwards fill, its first time"
    )
    func beforeBeginTime() throws {
        let late = Self.container(MediaTiming(beginTime: 2), holding: Self.leaf(duration: 2))
        #expect(try level(late, at: 0) == 255)
        #expect(try level(late, at: 1.9) == 255)
        #expect(try level(late, at: 2) == 0)
        #expect(abs(try level(late, at: 3) - 128) <= 1)
        let filled = Self.container(MediaTiming(beginTime: 2, fillMode: .backwards), holding: Self.leaf(duration: 2))
        #expect(try level(filled, at: 1) == 0)
    }

    @Test("a layer's begin time counts from when it was added, and its subtree starts with it")
    func beginTimeFromAddition() throws {
        var tree = Self.container(MediaTiming(beginTime: 2), holding: Self.leaf(duration: 2))
        tree.timing.fillMode = .backwards
        let scene = Scene(width: 1, height: 1, layers: [.layer(tree)])
        let prepared = try PreparedScene(scene, beginTime: 10, fonts: Self.fonts)
        #expect(Renderer.render(prepared, at: 11).pixels[0] == 0)
        #expect(abs(Int(Renderer.render(prepared, at: 13).pixels[0]) - 128) <= 1)
        #expect(Renderer.render(prepared, at: 20).pixels[0] == 255)
    }

    @Test("a mask runs on its layer's time: a paused layer's fading mask stands still with it")
    func maskOnLayerTime() throws {
        var red = Layer(
            frame: Rect(x: 0, y: 0, width: 1, height: 1), backgroundColor: Color(red: 255, green: 0, blue: 0))
        red.mask = Self.leaf(duration: 4)
        red.timing = MediaTiming(speed: 0, timeOffset: 1)
        for t in [0.0, 3, 9] { #expect(abs(try level(red, at: t) - 64) <= 1, "at \(t)") }
    }

    @Test("frame after frame, a subtree whose time comes and goes draws what each frame drawn afresh draws")
    func layerTimeFramesMatchFreshFrames() throws {
        // Frame after frame equals each frame drawn afresh: the kept presentations of a
        // subtree that has no time for a while come back right.
        let timing = MediaTiming(beginTime: 0.5, duration: 1, repeatCount: 2)
        let tree = Self.container(timing, holding: Self.leaf(duration: 1))
        let scene = try PreparedScene(
            Scene(width: 1, height: 1, layers: [.layer(tree)]), beginTime: 0, fonts: Self.fonts)
        let renderer = Renderer(width: 1, height: 1)
        var frame = Frame(width: 1, height: 1)
        for k in 0..<240 {
            let t = Double(k) / 60
            renderer.render(scene, at: t, into: &frame)
            #expect(frame == Renderer.render(scene, at: t), "frame \(k)")
        }
    }
}
