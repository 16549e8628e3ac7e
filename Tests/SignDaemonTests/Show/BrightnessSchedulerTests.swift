import Foundation
import Testing

@testable import SignDaemon

/// `[[brightness]]` run against the Show's display on virtual time.
@Suite("BrightnessScheduler")
struct BrightnessSchedulerTests {
    /// Day 07:00 full (a 15-minute fade), night 22:00 at 0.2 (a 10-minute fade).
    static let dayAndNight = BrightnessSchedule(
        entries: [.init(at: 22 * 3600, value: 0.2, fade: 600), .init(at: 7 * 3600, value: 1, fade: 900)],
        timeZone: ShowRig.berlin)

    @Test("a change fades from the frame due at its instant, armed `lead` before it")
    func fadeAtTheChange() throws {
        // 21:59 in Berlin (UTC+1 in January): the night begins a minute on, at scene time 60.
        let rig = try ShowRig(at: "2026-01-15T21:59:00+01:00")
        let display = DisplayControl(brightness: 1)
        let show = Show(store: rig.store, display: display, clock: rig.clock)
        defer { show.stop() }
        let scheduler = show.brightnessScheduler
        scheduler.run(Self.dayAndNight, keepRequested: false)
        #expect(display.target == 1)
        rig.advance(toSceneTime: 60 - Double(FrameClock.lead) / 1e9 - 1e-4)
        #expect(display.target == 1, "not before its time")
        rig.advance(toSceneTime: 60)
        #expect(display.fade == DisplayControl.Fade(from: 1, to: 0.2, start: 60, duration: 600))
        #expect(display.setting(at: 60).brightness == 1)
        #expect(abs(display.setting(at: 360).brightness - 0.6) < 1e-12, "half way through the fade")
        #expect(display.setting(at: 660).brightness == 0.2)
    }

    @Test("started in the middle of a fade, the rest of it runs; the next morning's change comes 9 hours on")
    func resumeThenNextChange() throws {
        let rig = try ShowRig(at: "2026-01-15T22:05:00+01:00")
        let display = DisplayControl(brightness: 1)
        let show = Show(store: rig.store, display: display, clock: rig.clock)
        defer { show.stop() }
        let scheduler = show.brightnessScheduler
        scheduler.run(Self.dayAndNight, keepRequested: false)
        let fade = display.fade
        #expect(abs(fade.from - 0.6) < 1e-12 && fade.to == 0.2 && fade.start == 0 && abs(fade.duration - 300) < 1e-9)
        // 07:00 the next day is 8 h 55 min on.
        let morning = 8 * 3600 + 55 * 60.0
        rig.advance(toSceneTime: morning - 1)
        #expect(display.target == 0.2)
        rig.advance(toSceneTime: morning)
        #expect(display.fade == DisplayControl.Fade(from: 0.2, to: 1, start: morning, duration: 900))
    }

    @Test("a wall clock stepped forward past a change brings the change at once")
    func clockStep() throws {
        let rig = try ShowRig(at: "2026-01-15T21:00:00+01:00")
        let display = DisplayControl(brightness: 1)
        let show = Show(store: rig.store, display: display, clock: rig.clock)
        defer { show.stop() }
        let scheduler = show.brightnessScheduler
        scheduler.run(Self.dayAndNight, keepRequested: false)
        rig.advance(by: 10)
        rig.time.stepWallClock(by: 3600)  // NTP: it was 22:00:10 all along
        rig.time.runDue()
        #expect(display.target == 0.2)
        #expect(display.fade.start == 10, "from the first frame at or after now")
    }
}
