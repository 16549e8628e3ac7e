import Foundation
import SignConfig
import Testing

@testable import SignDaemon

@Suite("BrightnessSchedule")
struct BrightnessScheduleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static func instant(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

    /// Day 07:00 full (a 15-minute fade), night 22:00 at 0.2 (a 10-minute fade).
    static let dayAndNight = BrightnessSchedule(
        entries: [.init(at: 22 * 3600, value: 0.2, fade: 600), .init(at: 7 * 3600, value: 1, fade: 900)],
        timeZone: berlin)

    @Test("across midnight: the night's level holds from 22:10 until 07:00 the next day; fades are linear in time")
    func acrossMidnight() throws {
        let s = Self.dayAndNight
        // Berlin is UTC+1 in January.
        #expect(s.level(at: Self.instant("2026-01-15T21:10:00Z")) == 0.2)  // 22:10
        #expect(s.level(at: Self.instant("2026-01-15T23:30:00Z")) == 0.2)  // 00:30
        #expect(s.level(at: Self.instant("2026-01-16T05:59:59Z")) == 0.2)  // 06:59:59
        #expect(s.level(at: Self.instant("2026-01-16T06:00:00Z")) == 0.2)  // 07:00, the fade begins
        let mid = try #require(s.level(at: Self.instant("2026-01-16T06:07:30Z")))  // half way through 15 minutes
        #expect(abs(mid - 0.6) < 1e-12)
        #expect(s.level(at: Self.instant("2026-01-16T06:15:00Z")) == 1)
        let evening = try #require(s.level(at: Self.instant("2026-01-16T21:05:00Z")))  // 22:05
        #expect(abs(evening - 0.6) < 1e-12)
        let next = try #require(s.next(after: Self.instant("2026-01-16T21:05:00Z")))
        #expect(next.start == Self.instant("2026-01-17T06:00:00Z") && next.entry.value == 1)
    }

    @Test("the night summer time begins in Berlin: an entry at 02:30, a time that never comes, begins at 03:00 CEST")
    func springForward() throws {
        let s = BrightnessSchedule(
            entries: [.init(at: 2 * 3600 + 1800, value: 0.5), .init(at: 12 * 3600, value: 1)], timeZone: Self.berlin)
        // 2026-03-29: 02:00 CET becomes 03:00 CEST, i.e. 01:00 UTC.
        let change = try #require(s.next(after: Self.instant("2026-03-29T00:00:00Z")))
        #expect(change.start == Self.instant("2026-03-29T01:00:00Z") && change.entry.value == 0.5)
        #expect(s.level(at: Self.instant("2026-03-29T00:59:59Z")) == 1)
        #expect(s.level(at: Self.instant("2026-03-29T01:00:00Z")) == 0.5)
        // Noon CEST is 10:00 UTC, a day of 23 hours after the midnight before.
        #expect(
            try #require(s.next(after: Self.instant("2026-03-29T01:00:00Z"))).start
                == Self.instant("2026-03-29T10:00:00Z"))
    }

    @Test("the night summer time ends: 22:00 is 21:00 UTC again, and the 25-hour day is one day")
    func fallBack() throws {
        let s = Self.dayAndNight
        // 2026-10-25: 03:00 CEST becomes 02:00 CET.
        #expect(
            try #require(s.next(after: Self.instant("2026-10-25T12:00:00Z"))).start
                == Self.instant("2026-10-25T21:00:00Z"))
        #expect(
            try #require(s.next(after: Self.instant("2026-10-24T12:00:00Z"))).start
                == Self.instant("2026-10-24T20:00:00Z"))
        let morning = try #require(s.latest(atOrBefore: Self.instant("2026-10-25T07:00:00Z")))  // 08:00 CET
        #expect(morning.start == Self.instant("2026-10-25T06:00:00Z") && morning.entry.value == 1)
    }

    @Test("a fade that runs over midnight continues on the next day; no entries: no level")
    func fadeOverMidnight() throws {
        let s = BrightnessSchedule(
            entries: [.init(at: 23 * 3600 + 55 * 60, value: 0, fade: 600), .init(at: 8 * 3600, value: 1)],
            timeZone: TimeZone(identifier: "UTC")!)
        let level = try #require(s.level(at: Self.instant("2026-06-02T00:00:00Z")))
        #expect(abs(level - 0.5) < 1e-12)
        #expect(BrightnessSchedule(entries: [], timeZone: .current).level(at: Date()) == nil)
    }
}
