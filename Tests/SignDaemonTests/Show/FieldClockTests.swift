import Foundation
import Testing

@testable import SignDaemon

/// Live fields kept current on virtual time: a clock text is prepared a quarter of a second
/// before each minute and swapped in at the frame due at the minute.
@Suite("FieldClock")
struct FieldClockTests {
    @Test("a clock's text is prepared `lead` before each minute turns and shows from the minute's frame")
    func minuteTurns() throws {
        let rig = try ShowRig(at: "2026-01-15T10:00:30+01:00", text: "{time:%H:%M}")
        let fieldClock = FieldClock(store: rig.store, clock: rig.clock)
        defer { fieldClock.stop() }
        fieldClock.start()
        rig.advance(toSceneTime: 30 - FieldClock.lead - 1e-4)
        #expect(rig.store.scene.pendingText(ofLayer: 0, at: rig.clock.sceneTime()) == nil, "nothing yet")
        rig.advance(toSceneTime: 30 - FieldClock.lead + 1e-6)  // a Date is a Double: within a microsecond
        let pending = try #require(rig.store.scene.pendingText(ofLayer: 0, at: rig.clock.sceneTime()))
        #expect(close(pending.from, 30), "10:01:00 is scene time 30")
        // The next minute: armed anew after the turn.
        rig.advance(toSceneTime: 90 - FieldClock.lead - 1e-4)
        #expect(rig.store.scene.pendingText(ofLayer: 0, at: rig.clock.sceneTime()) == nil)
        rig.advance(toSceneTime: 90 - FieldClock.lead + 1e-6)
        let next = try #require(rig.store.scene.pendingText(ofLayer: 0, at: rig.clock.sceneTime()))
        #expect(close(next.from, 90))
    }

    @Test("a text without a clock field arms no timer at all")
    func noFieldNoTimer() throws {
        let rig = try ShowRig(at: "2026-01-15T10:00:30+01:00", text: "plain")
        let fieldClock = FieldClock(store: rig.store, clock: rig.clock)
        defer { fieldClock.stop() }
        fieldClock.start()
        rig.time.runDue()
        #expect(rig.time.pending == 0)
    }
}
