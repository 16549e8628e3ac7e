import Foundation
import SignControl
import Testing

@testable import SignDaemon

/// Notifications on virtual time: `notify-start` and `notify-end` at the exact scene times
/// the layout gives, one after another.
@Suite("NotificationQueue")
struct NotificationQueueTests {
    @Test("a notification starts at once and ends after its duration; one queued behind it starts then")
    func queueAndExpire() throws {
        let rig = try ShowRig(at: "2026-01-15T10:00:00+01:00")
        let queue = NotificationQueue(store: rig.store, events: rig.events, clock: rig.clock)
        let first = try queue.notify(Request.Notify(text: "One", duration: 2), transition: nil, now: 0)
        let second = try queue.notify(Request.Notify(text: "Two", duration: 3), transition: nil, now: 0)
        rig.time.runDue()
        let showing = try #require(queue.status(now: 0).showing)
        #expect(showing.id == first && queue.status(now: 0).queued == 1)
        let firstEnd = try #require(showing.end)
        rig.advance(toSceneTime: firstEnd - 1e-4)
        #expect(rig.recorder.records(.notifyEnd).isEmpty, "not before its end")
        rig.advance(toSceneTime: firstEnd)
        let ends = rig.recorder.records(.notifyEnd)
        #expect(ends.map { $0.int("notification") } == [Int64(first)])
        #expect(ends.first?.string("reason") == "done")
        #expect(close(ends.first?.sceneTime, firstEnd))
        let next = try #require(queue.status(now: firstEnd).showing)
        #expect(next.id == second)
        let secondEnd = try #require(next.end)
        rig.advance(toSceneTime: secondEnd + 5)
        let starts = rig.recorder.records(.notifyStart)
        #expect(starts.map { $0.int("notification") } == [Int64(first), Int64(second)])
        #expect(close(starts.last?.sceneTime, try #require(next.start)))
        #expect(rig.recorder.records(.notifyEnd).map { $0.int("notification") } == [Int64(first), Int64(second)])
        #expect(close(rig.recorder.records(.notifyEnd).last?.sceneTime, secondEnd))
        #expect(queue.status(now: rig.clock.sceneTime()).showing == nil)
    }

    @Test("a higher priority replaces the one showing at once; dismissing one waiting ends it unseen")
    func replaceAndDismiss() throws {
        let rig = try ShowRig(at: "2026-01-15T10:00:00+01:00")
        let queue = NotificationQueue(store: rig.store, events: rig.events, clock: rig.clock)
        let low = try queue.notify(Request.Notify(text: "Low", duration: 10), transition: nil, now: 0)
        rig.advance(toSceneTime: 1)
        let high = try queue.notify(Request.Notify(text: "High", duration: 10, priority: 5), transition: nil, now: 1)
        let waiting = try queue.notify(Request.Notify(text: "Later", duration: 10), transition: nil, now: 1)
        rig.time.runDue()
        #expect(rig.recorder.records(.notifyEnd).count == 1)
        #expect(rig.recorder.records(.notifyEnd).first?.string("reason") == "replaced")
        #expect(rig.recorder.records(.notifyEnd).first?.int("notification") == Int64(low))
        #expect(queue.status(now: 1).showing?.id == high)
        try queue.dismiss(waiting, now: 2)
        #expect(rig.recorder.records(.notifyEnd).last?.string("reason") == "dismissed")
        rig.advance(toSceneTime: 60)
        #expect(rig.recorder.records(.notifyStart).map { $0.int("notification") } == [Int64(low), Int64(high)])
    }
}
