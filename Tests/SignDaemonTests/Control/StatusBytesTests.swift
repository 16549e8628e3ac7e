import Foundation
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignOutput
import SignScene
import Testing

@testable import SignDaemon

/// An output that keeps counters, for `status`.
private final class CountingSink: FrameSink {
    let name: String
    let kind: String
    let state: OutputState
    let counters: OutputCounters?
    init(name: String, kind: String, state: OutputState, counters: OutputCounters?) {
        self.name = name
        self.kind = kind
        self.state = state
        self.counters = counters
    }
    func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {}
    func stop() {}
}

/// The bytes of `status` are the wire contract: a fixed state reads as exactly these bytes.
@Suite("StatusBytes")
struct StatusBytesTests {
    static let fonts = try! FontLibrary()

    @Test("status from a fixed state: every kind of key, null and absent, ints and rounded doubles, byte for byte")
    func fixedState() throws {
        let scene = Scene(
            width: 64, height: 16,
            layers: [
                .marquee(TextLayer(id: "main", text: "From config")),
                .marquee(TextLayer(id: "footer", text: "In {var:city}")),
                .layer(Layer(id: "panel", frame: Rect(x: 0, y: 0, width: 8, height: 8), opacity: 1)),
            ])
        let store = try SceneStore(config: scene, fonts: Self.fonts)
        let clock = FrameClock(fps: 60) { _ in }
        var input = StreamInput(layer: "layers.feed", id: "feed", wire: .ddp, width: 4, height: 2, feed: StreamFeed())
        input.port = 0
        var counters = OutputCounters()
        counters.framesSent = 10
        counters.dropped = 1
        counters.errors = 2
        counters.reconnects = 3
        counters.lastError = "the device left"
        let outputs: [any FrameSink] = [
            CountingSink(name: "panel", kind: "fadecandy", state: .waiting, counters: counters),
            CountingSink(name: "preview", kind: "terminal", state: .ok, counters: nil),
        ]
        // A 32x16 board at (32, 0) of a 64x16 canvas, two playlists, one stream layer.
        var config = DaemonConfig()
        config.display.width = 32
        config.display.height = 16
        config.display.canvas = .init(64, 16)
        config.display.viewport = .init(32, 0)
        config.playlists = [
            Playlist(name: "day", items: [.init(.text("x"), duration: 1)]),
            Playlist(name: "night", items: [.init(.text("y"), duration: 1)]),
        ]
        let show = Show(
            config: config,
            restored: Show.Restored(store: store, display: DisplayControl(), saved: PersistedState()), clock: clock,
            stage: Show.Stage(outputs: OutputSet(outputs)))
        let plane = ControlPlane(show: show, startedAt: 0)
        show.streams.update([input])
        defer { show.streams.stop() }
        let receiver = try #require(show.streams.all.first)
        try #require(eventually { receiver.current.state == .ok }, "the stream receiver never listened")

        let now = clock.sceneTime()
        try store.setVariable("city", to: "Oslo", now: now)
        try store.setRunning(false, layer: "footer", now: now)
        _ = try store.setText("Next song", layer: nil, when: .loopEnd, now: now)
        plane.display.setBrightness(0.5, duration: 1000, now: now)
        let notified = plane.handleAndWait(
            Request(Request.Notify(text: "Doors open", layer: "footer", priority: 3)), from: .socket)
        #expect(notified.line.contains(#""notification":1"#))

        #expect(Self.fixed(plane) == Self.expected)
    }

    @Test("the typed status reads back exactly what it writes (what signctl decodes)")
    func roundTrip() throws {
        let status: Status = try Response(line: Array(Self.expected.utf8)).result().decode()
        #expect(status.outputs.first?.counters?.lastError == "the device left")
        #expect(status.outputs.last?.counters == nil && status.streams.first?.lastFrame == nil)
        #expect(Response.success(id: 7, try #require(JSONValue(encoding: status).objectValue)).line == Self.expected)
    }

    /// Captured from the dictionary-built `status` before the result was typed.
    /// Captured from the dictionary-built `status`, before the result was typed.
    static let expected = [
        #"{"id":7,"ok":true,"result":{"brightness":1,"brightness_fade":{"to":0.5,"until":1000.5}"#,
        #","canvas":[64,16],"commit":"abc1234","display":"on","dropped":0,"fps":60,"frames":0,"height":16"#,
        #","lateness_ms":{"max":0,"p50":0,"p99":0},"layers":[{"id":"main","pending":{"from":4.25"#,
        #","text":"Next song"},"text":"From config"},{"id":"footer","shown":"In Oslo","stopped":true"#,
        #","text":"In {var:city}"},{"id":"panel"}],"memory":{"heap_mb":3.5,"rss_mb":10.25}"#,
        #","mqtt":{"broker":"mqtt://broker:1883","last_error":null,"state":"ok","topic":"signd/demo"}"#,
        #","notification":{"id":1,"layer":"footer","priority":3,"text":"Doors open"},"outputs":[{"device":null"#,
        #","dropped":1,"errors":2,"frames_sent":10,"last_error":"the device left","name":"panel""#,
        #","reconnects":3,"state":"waiting","type":"fadecandy"},{"name":"preview","state":"ok""#,
        #","type":"terminal"}],"pending":{"from":4.25,"text":"Next song"},"playlist":{"index":1"#,
        #","item":"Coffee {icon:cup}","name":"day","paused":true},"playlists":["day","night"],"queued":0"#,
        #","scene":null,"stalls":0,"stalls_own":0,"streams":[{"frames":0,"last_error":null,"last_frame_s":null"#,
        #","layer":"feed","listen":"127.0.0.1:0","packets":0,"protocol":"ddp","rejected":{"invalid":0"#,
        #","low-priority":0,"oversized":0,"short":0,"wrong-universe":0,"wrong-vector":0},"showing":false"#,
        #","state":"ok"}],"text":"From config","timeline":"monotonic","uptime_s":12.5,"vars":{"city":"Oslo"}"#,
        #","version":"0.0.0-test","viewport":[32,0],"web":{"listen":"127.0.0.1:8080","viewers":2},"width":32}}"#,
    ].joined()
}

extension StatusBytesTests {
    /// The parts a running playlist, the MQTT link and the web server would report.
    static func fill(_ status: inout Status) {
        status.playlist = PlaylistStatus(name: "day", item: "Coffee {icon:cup}", index: 1, paused: true)
        status.mqtt = MQTTStatus(state: .ok, broker: "mqtt://broker:1883", topic: "signd/demo", lastError: nil)
        status.web = WebStatus(listen: "127.0.0.1:8080", viewers: 2)
    }

    /// The status line with what depends on the moment it runs (uptime, memory, the build,
    /// scene times) set to fixed values.
    static func fixed(_ plane: ControlPlane) -> String {
        var status = plane.status()
        fill(&status)
        status.uptime = 12.5
        status.memory = Status.Memory(rss: 10.25, heap: 3.5)
        status.version = "0.0.0-test"
        status.commit = "abc1234"
        status.pending?.from = 4.25
        status.brightnessFade?.until = 1000.5
        for i in status.layers.indices { status.layers[i].pending?.from = 4.25 }
        return Response.success(id: 7, (try? JSONValue(encoding: status).objectValue) ?? [:]).line
    }
}
