import Foundation
import SignConfig

/// `[[schedule]]`: which playlist or scene the board shows by day of the week and time of day,
/// in the display's time zone. The first entry that matches wins; with none, the config's own
/// layers. A pure function of the entries, the time zone and a wall-clock instant.
public struct ShowSchedule: Sendable, Equatable {
    /// What an entry shows (ScheduleEntry.swift, in SignConfig).
    public typealias Target = ScheduleEntry.Target
    /// One `[[schedule]]` entry as configured (ScheduleEntry.swift, in SignConfig).
    public typealias Entry = ScheduleEntry

    public let entries: [Entry]
    public let timeZone: TimeZone

    public init(entries: [Entry], timeZone: TimeZone) {
        self.entries = entries
        self.timeZone = timeZone
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The index of the entry in effect at `date`: the first that covers it.
    public func entry(at date: Date) -> Int? {
        let (weekday, seconds) = LocalDay(timeZone).clock(at: date)
        return entries.firstIndex { $0.covers(weekday: weekday, seconds: seconds) }
    }

    /// The next instant after `date` at which an entry begins or ends (or a day turns), where
    /// what is in effect may change.
    public func nextBoundary(after date: Date) -> Date? {
        guard !entries.isEmpty else { return nil }
        let day = LocalDay(timeZone)
        var best: Date?
        for offset in 0...1 {
            let midnight = day.midnight(offset, from: date)
            var times: Set<Int> = [0]
            for entry in entries {
                if let from = entry.from { times.insert(from) }
                if let to = entry.to { times.insert(to) }
            }
            for seconds in times {
                let instant = day.instant(seconds, onDayStarting: midnight)
                if instant > date, best.map({ instant < $0 }) ?? true { best = instant }
            }
        }
        return best
    }
}

extension ScheduleEntry {
    /// Whether the entry covers a moment `seconds` into a local day that is `weekday`.
    func covers(weekday: Int, seconds: Int) -> Bool {
        let start = from ?? 0, end = to ?? 86400
        if start < end { return days.contains(weekday) && seconds >= start && seconds < end }
        if start == end { return days.contains(weekday) }
        // Past midnight: the evening belongs to the day it starts on, the small hours too.
        let yesterday = weekday == 1 ? 7 : weekday - 1
        return (days.contains(weekday) && seconds >= start) || (days.contains(yesterday) && seconds < end)
    }
}
