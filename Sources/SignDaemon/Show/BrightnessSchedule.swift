import Foundation
import SignConfig

/// `[[brightness]]` entries: every day at a time of day, in the display's time zone, the
/// brightness steps or fades to a value. A pure function of the entries, the time zone and
/// a wall-clock instant, so it is tested across midnight and daylight-saving changes.
public struct BrightnessSchedule: Sendable, Equatable {
    /// One `[[brightness]]` entry as configured (BrightnessEntry.swift, in SignConfig).
    public typealias Entry = BrightnessEntry

    /// A change of the schedule: which entry, and the instant it begins.
    public struct Change: Sendable, Equatable {
        public var entry: Entry
        public var start: Date
    }

    /// The entries, in order of their time of day.
    public let entries: [Entry]
    public let timeZone: TimeZone

    public init(entries: [Entry], timeZone: TimeZone) {
        self.entries = entries.sorted { $0.at < $1.at }
        self.timeZone = timeZone
    }

    public var isEmpty: Bool { entries.isEmpty }

    private var day: LocalDay { LocalDay(timeZone) }

    /// Local midnight of the day `offset` days from the one containing `date`.
    func midnight(_ offset: Int, from date: Date) -> Date { day.midnight(offset, from: date) }

    /// When `entry` begins on the local day starting at `midnight`. A time the clocks skip
    /// (02:30 on the night summer time begins) is the first moment after the gap.
    func start(of entry: Entry, onDayStarting midnight: Date) -> Date { day.instant(entry.at, onDayStarting: midnight) }

    /// The latest change at or before `date` (looking back over the day before), if any.
    public func latest(atOrBefore date: Date) -> Change? {
        var best: Change?
        for offset in -1...0 {
            let day = midnight(offset, from: date)
            for entry in entries {
                let start = start(of: entry, onDayStarting: day)
                if start <= date, best.map({ start >= $0.start }) ?? true { best = Change(entry: entry, start: start) }
            }
        }
        return best
    }

    /// The first change after `date`.
    public func next(after date: Date) -> Change? {
        var best: Change?
        for offset in 0...2 {
            let day = midnight(offset, from: date)
            for entry in entries {
                let start = start(of: entry, onDayStarting: day)
                if start > date, best.map({ start < $0.start }) ?? true { best = Change(entry: entry, start: start) }
            }
        }
        return best
    }

    /// The brightness at `date`: the latest entry's value, or, while its fade runs, the way
    /// from the entry before it to it. `nil` without entries.
    public func level(at date: Date) -> Double? {
        guard let latest = latest(atOrBefore: date) else { return nil }
        let into = date.timeIntervalSince(latest.start)
        guard latest.entry.fade > 0, into < latest.entry.fade else { return latest.entry.value }
        let from = self.latest(atOrBefore: latest.start.addingTimeInterval(-0.001))?.entry.value ?? latest.entry.value
        return from + (latest.entry.value - from) * (into / latest.entry.fade)
    }
}
