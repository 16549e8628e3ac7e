import Foundation

/// Days and times of day in a time zone, by the calendar: a 23- or 25-hour day is one day,
/// and a time the clocks skip is the first moment after the gap. Shared by the schedules
/// that read the wall clock (`[[brightness]]`, `[[schedule]]`).
struct LocalDay: Sendable {
    let calendar: Calendar

    init(_ timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Local midnight of the day `offset` days from the one containing `date`.
    func midnight(_ offset: Int, from date: Date) -> Date {
        let today = calendar.startOfDay(for: date)
        return calendar.date(byAdding: .day, value: offset, to: today).map(calendar.startOfDay(for:)) ?? today
    }

    /// The instant `seconds` after midnight (as a clock reads, not elapsed) on the local day
    /// starting at `midnight`; a time the clocks skip is the first moment after the gap.
    func instant(_ seconds: Int, onDayStarting midnight: Date) -> Date {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return calendar.date(bySettingHour: h, minute: m, second: s, of: midnight, matchingPolicy: .nextTime)
            ?? midnight.addingTimeInterval(Double(seconds))
    }

    /// The weekday (1 Sunday ... 7 Saturday) and the time of day as the clock reads it, in
    /// seconds after midnight.
    func clock(at date: Date) -> (weekday: Int, seconds: Int) {
        let c = calendar.dateComponents([.weekday, .hour, .minute, .second], from: date)
        return (c.weekday ?? 1, (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0))
    }
}
