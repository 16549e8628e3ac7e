import Dispatch
import Foundation

extension DispatchSource {
    /// A one-shot timer on the wall clock, firing at `date` (or at once if that has passed),
    /// so an NTP step or a daylight-saving change is followed; shared by the schedules that
    /// read the time of day (`[[brightness]]`, live fields, `[[schedule]]`).
    static func wallClockTimer(
        at date: Date, leeway: DispatchTimeInterval, queue: DispatchQueue, handler: @escaping @Sendable () -> Void
    ) -> DispatchSourceTimer {
        let fire = max(date.timeIntervalSince1970, Date().timeIntervalSince1970)
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        let spec = timespec(tv_sec: Int(fire.rounded(.down)), tv_nsec: Int((fire - fire.rounded(.down)) * 1e9))
        timer.schedule(wallDeadline: DispatchWallTime(timespec: spec), leeway: leeway)
        timer.setEventHandler(handler: handler)
        timer.activate()
        return timer
    }
}
