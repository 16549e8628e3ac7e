import SignControl
import SignGraphics
import SignScene
import Testing

@testable import SignDaemon

/// What is shown is one function of the config and the run-time changes, in every order.
@Suite("RuntimeState")
struct RuntimeStateTests {
    static let fonts = try! FontLibrary()

    static func config(main: String = "From config", footer: String = "Footer") -> Scene {
        Scene(
            width: 64, height: 16,
            layers: [
                .marquee(TextLayer(id: "main", text: main)), .marquee(TextLayer(id: "footer", text: footer)),
                .layer(
                    Layer(
                        id: "panel", frame: Rect(x: 0, y: 0, width: 8, height: 8), opacity: 1,
                        backgroundColor: .white)),
            ])
    }

    static let scene = Scene(width: 64, height: 16, layers: [TextLayer(id: "sale", text: "Sale today")])

    func texts(_ scene: Scene) -> [String] { scene.layers.compactMap(\.text) }

    @Test("set-text, load-scene, restart: the scene is shown, the saved text survives it and the restart")
    func setTextLoadSceneRestart() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        try store.setText("Set at run time", layer: nil, when: .now, now: 1)
        try store.replace(
            config: Self.config(), loaded: RuntimeState.LoadedScene(path: "/s.toml", scene: Self.scene), beginTime: 2)
        #expect(store.scene.text(ofLayer: 0, at: 3) == "Sale today")
        #expect(store.runtime.saved.layers["main"]?.text == "Set at run time")
        // A restart starts from the saved state alone: the loaded scene is gone.
        let restarted = RuntimeState.shown(config: Self.config(), runtime: RuntimeState(saved: store.runtime.saved))
        #expect(texts(restarted.scene) == ["Set at run time", "Footer"])
    }

    @Test("a text set on a loaded scene's layer ends with the scene and never touches the saved texts")
    func textOnLoadedScene() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        try store.setText("Kept", layer: "footer", when: .now, now: 1)
        try store.replace(
            config: Self.config(), loaded: RuntimeState.LoadedScene(path: "/s.toml", scene: Self.scene), beginTime: 2)
        try store.setText("Half price", layer: "sale", when: .now, now: 3)
        #expect(store.runtime.loaded?.changes.layers["sale"]?.text == "Half price")
        #expect(store.runtime.saved.layers.keys.sorted() == ["footer"])
        try store.replace(config: Self.config(), loaded: nil, beginTime: 4)
        #expect(texts(store.scene.scene) == ["From config", "Kept"])
    }

    @Test("set-text, reload with an edited config: the edited layer shows the file, the other keeps its text")
    func setTextThenEditedReload() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        try store.setText("Run-time main", layer: "main", when: .now, now: 1)
        try store.setText("Run-time footer", layer: "footer", when: .now, now: 1)
        try store.replace(config: Self.config(main: "Edited in the file"), loaded: nil, beginTime: 2)
        #expect(texts(store.scene.scene) == ["Edited in the file", "Run-time footer"])
        #expect(store.runtime.saved.layers.keys.sorted() == ["footer"])
    }

    @Test("start-up and reload share one merge: the same saved state gives the same scene")
    func oneMerge() throws {
        var saved = PersistedState()
        saved.layers["main"] = .init(text: "Saved", configText: "From config")
        saved.layers["gone"] = .init(text: "x", configText: "y")
        let started = try SceneStore(config: Self.config(), saved: saved, fonts: Self.fonts)
        #expect(texts(started.scene.scene) == ["Saved", "Footer"])
        #expect(started.runtime.saved.layers.keys.sorted() == ["main"])
        let reloaded = try SceneStore(config: Self.config(), fonts: Self.fonts)
        try reloaded.setText("Saved", layer: nil, when: .now, now: 0)
        try reloaded.replace(config: Self.config(), loaded: nil, beginTime: 1)
        #expect(reloaded.scene.scene.layers == started.scene.scene.layers)
        #expect(reloaded.runtime.saved == started.runtime.saved)
    }

    @Test("a property set at run time is kept until the file's value there changes; stopped layers stay stopped")
    func propertiesAndStops() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        try store.setProperty(
            .opacity, to: .number(0.25), raw: 0.25, layer: "panel", now: 1)
        try store.setRunning(false, layer: "footer", now: 1)
        let saved = store.runtime.saved
        #expect(saved.properties["panel"]?["opacity"] == .init(0.25, replacing: 1.0))
        #expect(saved.stopped == ["footer"])
        let restarted = try SceneStore(config: Self.config(), saved: saved, fonts: Self.fonts)
        guard case .layer(let panel) = restarted.scene.scene.layers[2] else { Issue.record("not a layer"); return }
        #expect(panel.opacity == 0.25)
        #expect(restarted.scene.slots[1].pausedAt != nil)
        var edited = Self.config()
        if case .layer(var l) = edited.layers[2] {
            l.opacity = 0.5
            edited.layers[2] = .layer(l)
        }
        let afterEdit = RuntimeState.shown(config: edited, runtime: RuntimeState(saved: saved))
        guard case .layer(let editedPanel) = afterEdit.scene.layers[2] else { return }
        #expect(editedPanel.opacity == 0.5)
        #expect(afterEdit.runtime.saved.properties.isEmpty)
    }

    @Test("a loop-end change is pending in status and on systemd's line until it shows")
    func pendingIsReportedAsPending() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        let clock = FrameClock(fps: 60) { _ in }
        let plane = ControlPlane(store: store, clock: clock, startedAt: 0)
        let now = clock.sceneTime()
        let appears = try #require(try store.setText("Next song", layer: nil, when: .loopEnd, now: now))
        #expect(appears > now)
        let status = plane.status()
        #expect(status.text == "From config")
        #expect(status.pending?.text == "Next song")
        #expect(plane.statusLine().contains(#""From config" (next: "Next song")"#))
        #expect(store.scene.text(ofLayer: 0, at: appears + 0.01) == "Next song")
        // Saved as what the board will show.
        #expect(store.runtime.saved.layers["main"]?.text == "Next song")
    }

    @Test("systemd's status line never carries a client's line breaks")
    func statusLineIsOneLine() throws {
        let store = try SceneStore(config: Self.config(), fonts: Self.fonts)
        let plane = ControlPlane(store: store, clock: FrameClock(fps: 60) { _ in }, startedAt: 0)
        try store.setText("x\nWATCHDOG=trigger\nMAINPID=1", layer: nil, when: .now, now: 0)
        let line = plane.statusLine()
        #expect(!line.contains("\n"))
        #expect(line.contains(#"x\u{a}WATCHDOG=trigger"#))
    }

    @Test("a saved text is restored only if a request could have set it: within the length, naming configured icons")
    func restoredStateIsChecked() throws {
        var saved = PersistedState()
        saved.layers["main"] = .init(text: String(repeating: "x", count: 200_000), configText: "From config")
        saved.layers["footer"] = .init(text: "coffee {icon:cup}", configText: "Footer")
        let store = try SceneStore(config: Self.config(), saved: saved, fonts: Self.fonts)
        #expect(texts(store.scene.scene) == ["From config", "Footer"])
        #expect(store.runtime.saved.layers.isEmpty)
    }
}
