import Dispatch
import Foundation
import Synchronization

/// Keeps live fields current: a wall-clock timer fires a quarter of a second before each
/// minute (or second) at which a shown text's clock or countdown can change, the texts whose
/// value changes are laid out then, off the frame clock, and swapped in at the frame due at
/// that instant, not a frame later. A text with no clock field costs no timer at all; a
/// clock set by NTP or a daylight-saving change is followed, as the timer is on wall time.
final class FieldClock: Sendable {
    /// How long before the turn its texts are prepared.
    static let lead = 0.25

    private let store: SceneStore
    private let clock: FrameClock
    private let queue = DispatchQueue(label: "signd.field-clock")
    /// The timer and the turn it is armed for, and whether it runs; used on `queue` only.
    private nonisolated(unsafe) var timer: (any ScheduledWork)?
    private nonisolated(unsafe) var armedFor: Date?
    private nonisolated(unsafe) var running = false

    init(store: SceneStore, clock: FrameClock) {
        self.store = store
        self.clock = clock
    }

    /// Follows the store's texts from now on.
    func start() {
        queue.sync { running = true }
        clock.time.async(on: queue) { self.arm(after: self.clock.time.date()) }
    }

    /// Stops the timer (the daemon is stopping).
    func stop() {
        queue.sync {
            running = false
            timer?.cancel()
            timer = nil
        }
    }

    /// The texts shown or the fields' values changed (the Show tells, after each change of
    /// them): a turn earlier than the armed one (a new seconds field) re-arms.
    func textsChanged() {
        clock.time.async(on: queue) {
            guard self.running else { return }
            let now = self.clock.time.date()
            guard let next = self.store.nextFieldChange(after: now) else { return }
            if let armed = self.armedFor, armed <= next { return }
            self.arm(after: now)
        }
    }

    /// Arms the timer for the next turn after `date` (on `queue`).
    private func arm(after date: Date) {
        timer?.cancel()
        timer = nil
        armedFor = nil
        guard let turn = store.nextFieldChange(after: date) else { return }
        timer = clock.time.schedule(atDate: turn.addingTimeInterval(-Self.lead), leeway: .milliseconds(5), on: queue) {
            [weak self] in self?.turnDue(turn)
        }
        armedFor = turn
    }

    /// The turn is near (on `queue`): prepare its texts for the frame due at it.
    private func turnDue(_ turn: Date) {
        let from = clock.sceneTime(ofFirstFrameAtOrAfter: turn)
        store.refreshFields(at: turn, from: from, now: clock.sceneTime())
        arm(after: turn)
    }
}
