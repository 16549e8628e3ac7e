import Foundation
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignScene
import Testing

@testable import SignDaemon

/// The Show on virtual time: requests through the control plane and the Show's own timers
/// change it through one API, and it saves its own state.
@Suite("Show")
struct ShowTests {
    /// A state directory of the test's own.
    static func stateFile() throws -> StateFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signd-show-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return StateFile(directory: directory, logger: Logger(label: "test"))
    }

    /// What the state file holds once every save asked for is written.
    static func saved(_ file: StateFile) throws -> PersistedState {
        file.flush()
        return try #require(file.load())
    }

    /// A 64x16 board in Berlin with a main and a footer text layer.
    static func config(playlists: [Playlist] = [], schedule: [ShowSchedule.Entry] = []) -> DaemonConfig {
        var config = DaemonConfig()
        config.display.width = 64
        config.display.height = 16
        config.display.fps = 50
        config.display.timeZone = "Europe/Berlin"
        config.layers = [
            .marquee(TextLayer(id: "main", text: "Own")), .marquee(TextLayer(id: "footer", text: "Footer")),
        ]
        config.playlists = playlists
        config.schedule = schedule
        return config
    }

    @Test("a playlist's item is saved as its position, never as a run-time text; a client's text is remembered")
    func playlistItemSavedAsPosition() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let file = try Self.stateFile()
        let list = Playlist(
            name: "shop", items: [.init(.text("Coffee"), duration: 2), .init(.text("Cake"), duration: 3)])
        let show = try rig.show(Self.config(playlists: [list]), stateFile: file)
        defer { show.stop() }
        show.start()
        rig.time.runDue()
        rig.advance(toSceneTime: 2.5)
        #expect(show.store.scene.text(ofLayer: 0, at: rig.clock.sceneTime()) == "Cake")
        let afterItem = try Self.saved(file)
        #expect(afterItem.playlist?.playlist == "shop" && afterItem.playlist?.index == 1)
        #expect(afterItem.layers.isEmpty, "the item's text is shown, not remembered")

        let plane = ControlPlane(show: show, startedAt: 0)
        let set = plane.handleAndWait(Request(Request.SetText(text: "Hello", layer: "footer")), from: .socket)
        #expect(set.outcome.isSuccess)
        let afterRequest = try Self.saved(file)
        #expect(afterRequest.layers["footer"]?.text == "Hello")
        #expect(afterRequest.layers["main"] == nil)
    }

    @Test("a reload keeps the run-time changes whose layer the file left alone; an edited text wins")
    func reloadKeepsRuntimeChanges() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signd-reload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("signd.toml").path
        func write(main: String) throws {
            try """
            [display]
            width = 64
            height = 16
            [[layer]]
            id = "main"
            text = "\(main)"
            [[layer]]
            id = "footer"
            text = "Footer"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try write(main: "From file")
        let config = try ConfigLoader.load(path: path, fonts: ShowRig.fonts, parser: .here)
        let show = try rig.show(config, configPath: path)
        defer { show.stop() }
        let plane = ControlPlane(show: show, startedAt: 0)
        for request in [
            Request(Request.SetText(text: "Main at run time")),
            Request(Request.SetText(text: "Footer at run time", layer: "footer")),
            Request(Request.SetVar(name: "city", value: "Oslo")),
        ] {
            #expect(plane.handleAndWait(request, from: .socket).outcome.isSuccess)
        }
        try write(main: "Edited")
        let reloaded = plane.handleAndWait(Request(Request.Reload()), from: .signal)
        #expect(reloaded.outcome.isSuccess, "\(reloaded.line)")
        let now = rig.clock.sceneTime() + 10
        #expect(show.store.scene.text(ofLayer: 0, at: now) == "Edited")
        #expect(show.store.scene.text(ofLayer: 1, at: now) == "Footer at run time")
        #expect(show.store.variables == ["city": "Oslo"])
    }

    @Test("a font file replaced at the same path is drawn from its new glyphs after a reload, the config unchanged")
    func reloadAfterFontFileReplaced() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("signd-font-reload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dejaVu = "/usr/share/fonts/truetype/dejavu/"
        let font = directory.appendingPathComponent("sign.ttf").path
        let path = directory.appendingPathComponent("signd.toml").path
        func config(font: String) -> String {
            """
            [display]
            width = 64
            height = 16
            [[layer]]
            id = "main"
            type = "text"
            text = "Ag"
            font = "\(font)"
            font_size = 14
            align = "center"
            """
        }
        try FileManager.default.copyItem(atPath: dejaVu + "DejaVuSans.ttf", toPath: font)
        try config(font: font).write(toFile: path, atomically: true, encoding: .utf8)
        // A library of its own: the change it sees would make other tests' reloads lay out again.
        let fonts = try FontLibrary()
        let show = try rig.show(
            try ConfigLoader.load(path: path, fonts: fonts, parser: .here), configPath: path, fonts: fonts)
        defer { show.stop() }
        let plane = ControlPlane(show: show, startedAt: 0)
        /// The board as `config` alone draws it, with a library of its own.
        func drawn(_ text: String) throws -> Frame {
            let other = directory.appendingPathComponent("other.toml").path
            try text.write(toFile: other, atomically: true, encoding: .utf8)
            let library = try FontLibrary()
            let loaded = try ConfigLoader.load(path: other, fonts: library, parser: .here)
            return Renderer.render(try PreparedScene(loaded.scene, beginTime: 0, fonts: library), at: 1)
        }
        let sans = try drawn(config(font: dejaVu + "DejaVuSans.ttf"))
        let serif = try drawn(config(font: dejaVu + "DejaVuSerif-Bold.ttf"))
        #expect(sans != serif)
        #expect(Renderer.render(show.store.scene, at: rig.clock.sceneTime()) == sans)
        // A new file renamed over the old one, as an editor or a package upgrade does.
        let staged = directory.appendingPathComponent("sign.ttf.new").path
        try FileManager.default.copyItem(atPath: dejaVu + "DejaVuSerif-Bold.ttf", toPath: staged)
        #expect(rename(staged, font) == 0)
        let reloaded = plane.handleAndWait(Request(Request.Reload()), from: .signal)
        #expect(reloaded.outcome.isSuccess, "\(reloaded.line)")
        #expect(Renderer.render(show.store.scene, at: rig.clock.sceneTime()) == serif)
    }

    @Test("the schedule switches playlists through the Show, saved as a request's select is")
    func scheduleThroughTheShow() throws {
        // 08:59:30 in Berlin: "closed" until 09:00, "open" from then.
        let rig = try ShowRig(at: "2026-11-23T08:59:30+01:00")
        let file = try Self.stateFile()
        let hm = ShowScheduleTests.hm
        let show = try rig.show(
            Self.config(
                playlists: [
                    Playlist(name: "open", items: [.init(.text("Come in"), duration: 100)]),
                    Playlist(name: "closed", items: [.init(.text("Soon"), duration: 100)]),
                ],
                schedule: [
                    .init(from: hm("09:00"), to: hm("18:00"), target: .playlist("open")),
                    .init(from: hm("08:00"), to: hm("09:00"), target: .playlist("closed")),
                ]),
            stateFile: file)
        defer { show.stop() }
        show.start()
        rig.time.runDue()
        #expect(try Self.saved(file).playlist?.playlist == "closed")
        rig.advance(toSceneTime: 31)
        #expect(show.store.scene.text(ofLayer: 0, at: rig.clock.sceneTime()) == "Come in")
        let bySchedule = try Self.saved(file)
        #expect(bySchedule.playlist?.playlist == "open" && bySchedule.playlist?.byHand == false)
        #expect(bySchedule.layers.isEmpty)

        let plane = ControlPlane(show: show, startedAt: 0)
        let select = plane.handleAndWait(Request(Request.Playlist(action: .select, name: "closed")), from: .socket)
        #expect(select.outcome.isSuccess)
        let byHand = try Self.saved(file)
        #expect(byHand.playlist?.playlist == "closed" && byHand.playlist?.byHand == true)
        rig.time.runDue()  // the item's event comes with the frame it starts at
        #expect(rig.recorder.records(.playlistItem).map { $0.string("playlist") } == ["closed", "open", "closed"])
    }

    @Test("a clock field set by a request arms the field clock through the Show: its next second is prepared on time")
    func fieldClockHearsFromTheShow() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let show = try rig.show(Self.config())
        defer { show.stop() }
        show.start()
        rig.time.runDue()
        let plane = ControlPlane(show: show, startedAt: 0)
        let set = plane.handleAndWait(Request(Request.SetText(text: "{time:%H:%M:%S}")), from: .socket)
        #expect(set.outcome.isSuccess)
        rig.advance(toSceneTime: 1 - FieldClock.lead + 1e-6)
        let pending = try #require(show.store.scene.pendingText(ofLayer: 0, at: rig.clock.sceneTime()))
        #expect(close(pending.from, 1), "10:00:01 is scene time 1")
    }

    @Test(
        "the brightness schedule's change goes through setBrightness as the schedule's: shown, not saved; a request's is saved"
    )
    func scheduledBrightnessIsNotSaved() throws {
        // 21:59 in Berlin: the night's 0.2 comes at 22:00, scene time 60.
        let rig = try ShowRig(at: "2026-01-15T21:59:00+01:00")
        let file = try Self.stateFile()
        var config = Self.config()
        config.brightnessSchedule = BrightnessSchedulerTests.dayAndNight.entries
        let show = try rig.show(config, stateFile: file)
        defer { show.stop() }
        show.start()
        rig.advance(toSceneTime: 61)
        #expect(show.display.target == 0.2)
        file.flush()
        #expect(file.load()?.brightness == nil, "a scheduled level is not a run-time change")
        let plane = ControlPlane(show: show, startedAt: 0)
        #expect(plane.handleAndWait(Request(Request.SetBrightness(value: 0.5)), from: .socket).outcome.isSuccess)
        #expect(try Self.saved(file).brightness?.value == 0.5)
    }
}
