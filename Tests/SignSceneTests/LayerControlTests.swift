import SignGraphics
import SignTiming
import Testing

@testable import SignScene

@Suite("Stopping, starting and setting properties")
struct LayerControlTests {
    static let fonts = try! FontLibrary()

    func marquee() throws -> PreparedScene {
        let layer = TextLayer(
            id: "main", text: "Now Playing", fallbacks: [], marquee: Marquee(speed: 10, fade: .pixels(0)))
        return try PreparedScene(Scene(width: 40, height: 10, layers: [layer]), beginTime: 0, fonts: Self.fonts)
    }

    @Test("every animatable key path reads and writes a property of a layer that has it")
    func keyPaths() {
        #expect(Set(LayerProperty.allCases.map(\.rawValue)) == Set(AnimatableValue.kinds.keys))
        var layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 2))
        layer[keyPath: "transform.translation.x"] = .number(3)
        layer[keyPath: "borderWidth"] = .number(1)
        #expect(layer.translation.x == 3 && layer[keyPath: "borderWidth"] == .number(1))
        #expect(layer[keyPath: "locations"] == nil, "a plain layer has no gradient locations")
        #expect(layer[keyPath: "no.such.path"] == nil)
    }

    @Test("a stopped layer stands still, and starts again from where it stood")
    func pauseResume() throws {
        let running = try marquee()
        let stopped = running.setting(running: false, ofLayer: 0, now: 1)
        #expect(Renderer.render(stopped, at: 2) == Renderer.render(running, at: 1))
        #expect(Renderer.render(stopped, at: 60) == Renderer.render(running, at: 1))
        let restarted = stopped.setting(running: true, ofLayer: 0, now: 3)
        // Two seconds were spent stopped: the layer's clock is 2 s behind.
        #expect(Renderer.render(restarted, at: 3.5) == Renderer.render(running, at: 1.5))
        // Stopping twice or starting a running layer changes nothing.
        #expect(
            Renderer.render(stopped.setting(running: false, ofLayer: 0, now: 9), at: 10)
                == Renderer.render(running, at: 1))
        #expect(
            Renderer.render(running.setting(running: true, ofLayer: 0, now: 9), at: 10)
                == Renderer.render(running, at: 10))
    }

    @Test("setting a property changes the model value and leaves running animations in phase")
    func setProperty() throws {
        var panel = Layer(id: "panel", frame: Rect(x: 0, y: 0, width: 4, height: 1), backgroundColor: .white)
        panel.animations = [
            .property(
                PropertyAnimation(
                    keyPath: .opacity, motion: .basic(BasicValues(from: .number(0), to: .number(1))),
                    timing: MediaTiming(duration: 10, repeatCount: .infinity)))
        ]
        let scene = try PreparedScene(
            Scene(width: 4, height: 1, layers: [.layer(panel)]), beginTime: 0, fonts: Self.fonts)
        let red = try scene.settingProperty(
            .backgroundColor, to: AnimatableValue(Color(red: 255, green: 0, blue: 0)), ofLayer: 0, sublayer: nil,
            now: 5, fonts: Self.fonts)
        // At 5 s the opacity animation is half-way, as if nothing had been set: 255 * 0.5.
        #expect(Renderer.render(red, at: 5).pixel(x: 0, y: 0) == Color(red: 128, green: 0, blue: 0))
        #expect(throws: PreparedScene.PropertyChangeError.self) {
            try scene.settingProperty(
                .locations, to: .numbers([0, 1]), ofLayer: 0, sublayer: nil, now: 5, fonts: Self.fonts)
        }
        #expect(throws: PreparedScene.PropertyChangeError.self) {
            try scene.settingProperty(
                .opacity, to: .point(.zero), ofLayer: 0, sublayer: nil, now: 5, fonts: Self.fonts)
        }
    }
}
