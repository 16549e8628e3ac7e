import Foundation
import Testing

@testable import SignConfig
@testable import SignDaemon

/// `[[schedule]]` as a pure function of its entries, the time zone and the instant.
@Suite("ShowSchedule")
struct ShowScheduleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static func at(_ iso: String) -> Date { LiveFields.instant(iso)! }
    static func hm(_ text: String) -> Int { ConfigReader.timeOfDay(text)! }

    /// Opening hours on weekdays, late opening on Saturday, a night programme past midnight
    /// on Friday, closed otherwise (no entry: the config's own layers).
    static let storefront = ShowSchedule(
        entries: [
            .init(days: ScheduleEntry.days(["mon-fri"])!, from: hm("09:00"), to: hm("18:00"), target: .playlist("open")),
            .init(days: ScheduleEntry.days(["sat"])!, from: hm("10:00"), to: hm("14:00"), target: .playlist("open")),
            .init(days: ScheduleEntry.days(["fri"])!, from: hm("22:00"), to: hm("02:00"), target: .scene("night.toml")),
            .init(days: ScheduleEntry.days(["daily"])!, from: hm("08:00"), to: hm("20:00"), target: .playlist("closed")),
        ], timeZone: berlin)

    @Test("weekdays and hours choose the entry; the first that matches wins over a later overlapping one")
    func weekdaysAndOverlap() {
        let s = Self.storefront
        #expect(s.entry(at: Self.at("2026-11-23T08:59:59+01:00")) == 3, "Monday before opening: the daily one")
        #expect(s.entry(at: Self.at("2026-11-23T09:00:00+01:00")) == 0, "opening wins from its minute")
        #expect(s.entry(at: Self.at("2026-11-23T17:59:59+01:00")) == 0)
        #expect(s.entry(at: Self.at("2026-11-23T18:00:00+01:00")) == 3, "to is the first moment after it")
        #expect(s.entry(at: Self.at("2026-11-28T09:30:00+01:00")) == 3, "Saturday opens at ten")
        #expect(s.entry(at: Self.at("2026-11-28T10:00:00+01:00")) == 1)
        #expect(s.entry(at: Self.at("2026-11-29T12:00:00+01:00")) == 3, "Sunday: only the daily one")
        #expect(s.entry(at: Self.at("2026-11-29T21:00:00+01:00")) == nil, "none: the config's layers")
    }

    @Test("an entry past midnight belongs to the day it starts on, the small hours of the next day included")
    func acrossMidnight() {
        let s = Self.storefront
        #expect(s.entry(at: Self.at("2026-11-27T21:59:59+01:00")) == nil, "Friday evening before the night")
        #expect(s.entry(at: Self.at("2026-11-27T22:00:00+01:00")) == 2, "Friday 22:00")
        #expect(s.entry(at: Self.at("2026-11-28T01:59:00+01:00")) == 2, "Saturday's small hours are Friday's night")
        #expect(s.entry(at: Self.at("2026-11-28T02:00:00+01:00")) == nil)
        #expect(s.entry(at: Self.at("2026-11-24T01:00:00+01:00")) == nil, "Monday night is not Friday's")
        #expect(s.nextBoundary(after: Self.at("2026-11-27T23:30:00+01:00")) == Self.at("2026-11-28T00:00:00+01:00"))
        #expect(s.nextBoundary(after: Self.at("2026-11-28T00:00:00+01:00")) == Self.at("2026-11-28T02:00:00+01:00"))
    }

    @Test(
        "on the night summer time begins in Berlin a time the clocks skip comes at 03:00; the hour that comes twice in autumn is one hour of the clock"
    )
    func daylightSaving() {
        let night = ShowSchedule(
            entries: [.init(from: Self.hm("02:30"), to: Self.hm("04:00"), target: .playlist("night"))],
            timeZone: Self.berlin)
        // 29 March 2026: 02:00 CET becomes 03:00 CEST.
        #expect(night.entry(at: Self.at("2026-03-29T01:59:59+01:00")) == nil)
        #expect(night.entry(at: Self.at("2026-03-29T03:00:00+02:00")) == 0)
        #expect(night.nextBoundary(after: Self.at("2026-03-29T01:30:00+01:00")) == Self.at("2026-03-29T03:00:00+02:00"))
        // 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 comes twice, the entry covers both.
        #expect(night.entry(at: Self.at("2026-10-25T02:30:00+02:00")) == 0)
        #expect(night.entry(at: Self.at("2026-10-25T02:30:00+01:00")) == 0)
        #expect(night.entry(at: Self.at("2026-10-25T04:00:00+01:00")) == nil)
    }
}
