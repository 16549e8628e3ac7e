import Foundation
import Logging
import SignConfig
import SignControl
import Testing

@testable import SignDaemon

/// The playlist and the schedule on virtual time: every item and every change comes at its
/// exact instant, `FrameClock.lead` before the frame that shows it.
@Suite("PlaylistPlayer")
struct PlaylistPlayerTests {
    static func player(_ rig: ShowRig) -> PlaylistPlayer { rig.show.player }

    static let lead = Double(FrameClock.lead) / 1e9

    @Test("items follow one another at the end of each one's duration, round and round")
    func itemsAdvance() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let player = Self.player(rig)
        defer { player.stop() }
        let list = Playlist(
            name: "shop", items: [.init(.text("Coffee"), duration: 2), .init(.text("Cake"), duration: 3)])
        player.run(playlists: [list], schedule: ShowSchedule(entries: [], timeZone: ShowRig.berlin), resuming: nil)
        rig.time.runDue()
        #expect(player.status?.label == "Coffee")
        rig.advance(toSceneTime: 2 - Self.lead - 1e-4)
        #expect(rig.recorder.records(.playlistItem).map { $0.int("index") } == [0], "nothing before its time")
        rig.advance(toSceneTime: 7.5)
        let items = rig.recorder.records(.playlistItem)
        #expect(items.map { $0.int("index") } == [0, 1, 0, 1])
        #expect(items.map { $0.string("item") } == ["Coffee", "Cake", "Coffee", "Cake"])
        // Each comes `lead` before the frame it starts at: 0 (at once), 2, 5, 7.
        #expect(close(items[0].sceneTime, 0))
        for (record, start) in zip(items.dropFirst(), [2.0, 5, 7]) {
            #expect(close(record.sceneTime, start - Self.lead), "item at \(start)")
        }
        #expect(player.status?.label == "Cake")
    }

    @Test("a reload that removes every playlist ends the one playing: no status, no further items")
    func reloadWithoutPlaylists() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let player = Self.player(rig)
        defer { player.stop() }
        let none = ShowSchedule(entries: [], timeZone: ShowRig.berlin)
        let list = Playlist(name: "shop", items: [.init(.text("Coffee"), duration: 2), .init(.text("Cake"), duration: 3)])
        player.run(playlists: [list], schedule: none, resuming: nil)
        rig.advance(toSceneTime: 1)
        #expect(player.status?.label == "Coffee")
        player.run(playlists: [], schedule: none, resuming: nil)
        #expect(player.status == nil)
        rig.advance(toSceneTime: 20)
        #expect(rig.recorder.records(.playlistItem).map { $0.string("item") } == ["Coffee"])
        #expect(player.status == nil)
    }

    @Test("a paused item holds however long virtual time runs, and resumes with what was left of it")
    func pauseHolds() throws {
        let rig = try ShowRig(at: "2026-11-23T10:00:00+01:00")
        let player = Self.player(rig)
        defer { player.stop() }
        let list = Playlist(name: "p", items: [.init(.text("One"), duration: 4), .init(.text("Two"), duration: 4)])
        player.run(playlists: [list], schedule: ShowSchedule(entries: [], timeZone: ShowRig.berlin), resuming: nil)
        rig.advance(toSceneTime: 1)
        try player.handle(Request.Playlist(action: .pause))
        rig.advance(toSceneTime: 100)
        #expect(rig.recorder.records(.playlistItem).count == 1)
        #expect(player.status?.position.paused == true)
        try player.handle(Request.Playlist(action: .resume))
        rig.advance(toSceneTime: 102.9)
        #expect(rig.recorder.records(.playlistItem).count == 1, "3 s were left")
        rig.advance(toSceneTime: 103.1)
        let items = rig.recorder.records(.playlistItem)
        #expect(items.map { $0.string("item") } == ["One", "Two"])
        #expect(close(items.last?.sceneTime, 103 - Self.lead))
    }

    @Test("the schedule changes playlist on the frame its minute turns, not before")
    func scheduleBoundary() throws {
        // Monday 08:59:00 in Berlin: the daily entry shows "closed"; "open" from 09:00.
        let rig = try ShowRig(at: "2026-11-23T08:59:00+01:00")
        let player = Self.player(rig)
        defer { player.stop() }
        let hm = ShowScheduleTests.hm
        let weekdays = try #require(ScheduleEntry.days(["mon-fri"]))
        let schedule = ShowSchedule(
            entries: [
                .init(days: weekdays, from: hm("09:00"), to: hm("18:00"), target: .playlist("open")),
                .init(from: hm("08:00"), to: hm("20:00"), target: .playlist("closed")),
            ], timeZone: ShowRig.berlin)
        let playlists = [
            Playlist(name: "open", items: [.init(.text("Come in"), duration: 100)]),
            Playlist(name: "closed", items: [.init(.text("Soon"), duration: 25)]),
        ]
        player.run(playlists: playlists, schedule: schedule, resuming: nil)
        rig.advance(toSceneTime: 59.9)
        #expect(rig.recorder.records(.playlistItem).map { $0.string("playlist") } == ["closed", "closed", "closed"])
        #expect(player.status?.position.playlist == "closed")
        rig.advance(toSceneTime: 61)
        let items = rig.recorder.records(.playlistItem)
        #expect(items.map { $0.string("playlist") } == ["closed", "closed", "closed", "open"])
        #expect(close(items.last?.sceneTime, 60 - Self.lead), "09:00:00 is scene time 60, a frame of the 50 fps grid")
        #expect(player.status?.position.playlist == "open")
        #expect(player.status?.position.byHand == false)
    }

    @Test("a playlist chosen by hand holds until the schedule's next change")
    func byHandUntilNextChange() throws {
        let rig = try ShowRig(at: "2026-11-23T08:59:30+01:00")
        let player = Self.player(rig)
        defer { player.stop() }
        let hm = ShowScheduleTests.hm
        let schedule = ShowSchedule(
            entries: [
                .init(from: hm("09:00"), to: hm("18:00"), target: .playlist("open")),
                .init(from: hm("08:00"), to: hm("09:00"), target: .playlist("closed")),
            ], timeZone: ShowRig.berlin)
        let playlists = [
            Playlist(name: "open", items: [.init(.text("Come in"), duration: 100)]),
            Playlist(name: "closed", items: [.init(.text("Soon"), duration: 100)]),
            Playlist(name: "sale", items: [.init(.text("Sale"), duration: 100)]),
        ]
        player.run(playlists: playlists, schedule: schedule, resuming: nil)
        rig.advance(by: 10)
        try player.handle(Request.Playlist(action: .select, name: "sale"))
        rig.advance(by: 19.5)
        #expect(player.status?.position.playlist == "sale")
        rig.advance(by: 1)
        #expect(player.status?.position.playlist == "open", "09:00 chooses again")
    }
}
