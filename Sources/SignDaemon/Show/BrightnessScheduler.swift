import Dispatch
import Foundation
import Synchronization

/// Runs a `BrightnessSchedule` against the Show's display: applies the level it gives when
/// started (or reloaded), then each change on the first frame due at or after its instant,
/// by a wall-clock timer on the frame clock's `time`, so a clock set by NTP or a
/// daylight-saving change is followed. A change goes through the Show's `setBrightness`, the
/// method a `set-brightness` request takes, as the schedule's (neither held nor saved).
final class BrightnessScheduler: Sendable {
    private unowned let show: Show
    private var display: DisplayControl { show.display }
    private var clock: FrameClock { show.clock }
    private let queue = DispatchQueue(label: "signd.brightness-schedule")
    /// The schedule and its timer; used on `queue` only.
    private nonisolated(unsafe) var schedule = BrightnessSchedule(entries: [], timeZone: .current)
    private nonisolated(unsafe) var timer: (any ScheduledWork)?

    init(show: Show) { self.show = show }

    /// Runs `schedule` from now on. Unless `keepRequested` and a request set the brightness
    /// after the schedule's latest change, the level the schedule gives now is shown at once
    /// (a fade under way carries on over what is left of it).
    func run(_ schedule: BrightnessSchedule, keepRequested: Bool) {
        queue.sync {
            self.schedule = schedule
            timer?.cancel()
            timer = nil
            let now = clock.time.date()
            guard let latest = schedule.latest(atOrBefore: now), let level = schedule.level(at: now) else { return }
            let requested = display.setAt.map { $0 > latest.start.timeIntervalSince1970 } ?? false
            if !(keepRequested && requested) {
                let remaining = latest.entry.fade - now.timeIntervalSince(latest.start)
                display.resume(level: level, to: latest.entry.value, remaining: remaining, now: clock.sceneTime())
            }
            arm(after: now)
        }
    }

    /// Stops following the schedule.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
        }
    }

    /// Arms the timer for the next change after `date`, `FrameClock.lead` ahead so the frame
    /// due at the change already shows it (on `queue`).
    private func arm(after date: Date) {
        guard let change = schedule.next(after: date) else { return }
        timer = clock.run(beforeFrameAtDate: change.start, leeway: .milliseconds(1), on: queue) { [weak self] in
            self?.changeDue(change)
        }
    }

    /// A change is due (on `queue`): show it from the first frame at or after its instant.
    private func changeDue(_ change: BrightnessSchedule.Change) {
        let from = clock.sceneTime(ofFirstFrameAtOrAfter: change.start)
        show.setBrightness(change.entry.value, duration: change.entry.fade, now: from, source: .schedule)
        arm(after: change.start)
    }
}
