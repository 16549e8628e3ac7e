import Dispatch
import Foundation

extension FrameClock {
    /// How long before a frame's deadline work meant for that frame runs, so the frame
    /// already shows it: 2 ms, time enough to swap a prepared change in, short enough that
    /// the frame before does not show it yet.
    public static let lead: UInt64 = 2_000_000

    /// Runs `work` on `queue` `lead` before the frame due at scene time `t`.
    @discardableResult
    func run(
        beforeFrameAt t: Double, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        time.schedule(at: monotonic(atSceneTime: t) &- Self.lead, leeway: .nanoseconds(0), on: queue, work)
    }

    /// Runs `work` on `queue` `lead` before the wall clock reads `date` (a schedule's change),
    /// so the frame due at `date` already shows it.
    func run(
        beforeFrameAtDate date: Date, leeway: DispatchTimeInterval, on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledWork {
        time.schedule(
            atDate: date.addingTimeInterval(-Double(Self.lead) / 1e9), leeway: leeway, on: queue, work)
    }

    /// The scene time of the first frame due at or after the wall-clock instant `date`.
    func sceneTime(ofFirstFrameAtOrAfter date: Date) -> Double {
        sceneTime(ofFirstFrameAtOrAfterMonotonic: time.monotonic(at: date))
    }
}
