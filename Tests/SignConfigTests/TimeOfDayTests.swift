import Testing

@testable import SignConfig

/// `[[brightness]].at` and `[[schedule]].from` / `.to`, read as times of day.
@Suite("Times of day")
struct TimeOfDayTests {
    @Test("times of day: HH:MM and HH:MM:SS from 00:00 to 23:59:59, nothing else")
    func timeOfDay() {
        #expect(ConfigReader.timeOfDay("00:00") == 0)
        #expect(ConfigReader.timeOfDay("22:30") == 81000)
        #expect(ConfigReader.timeOfDay("23:59:59") == 86399)
        for bad in ["24:00", "7:00", "07:60", "07", "07:00:60", "", "07:00:00:00", "aa:bb", "٠٧:٠٠"] {
            #expect(ConfigReader.timeOfDay(bad) == nil, "\(bad)")
        }
    }
}
