import SignConfig
import Testing

/// `[[schedule]].days`, read as weekdays.
@Suite("ScheduleEntry")
struct ScheduleEntryTests {
    @Test("day names and ranges, wrapping round the week; a word that is not a day is refused")
    func days() {
        #expect(ScheduleEntry.days(["mon-fri"]) == [2, 3, 4, 5, 6])
        #expect(ScheduleEntry.days(["fri-mon"]) == [6, 7, 1, 2])
        #expect(ScheduleEntry.days(["sat", "Sun"]) == [7, 1])
        #expect(ScheduleEntry.days(["daily"]) == Set(1...7))
        #expect(ScheduleEntry.days(["weekdays"]) == nil)
        #expect(ScheduleEntry.days(["mon-"]) == nil)
    }
}
