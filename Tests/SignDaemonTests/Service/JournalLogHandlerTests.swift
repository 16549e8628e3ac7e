import Logging
import Testing

@testable import SignDaemon

@Suite("JournalLogHandler")
struct JournalLogHandlerTests {
    @Test(
        "metadata keys become journal field names",
        arguments: [("output", "OUTPUT"), ("device-id", "DEVICE_ID"), ("1x", "F_1X")])
    func fieldNames(key: String, field: String) {
        #expect(JournalLogHandler.fieldName(key) == field)
    }

    @Test("log levels map to syslog priorities")
    func priorities() {
        #expect(JournalLogHandler.priority(.debug) == 7)
        #expect(JournalLogHandler.priority(.info) == 6)
        #expect(JournalLogHandler.priority(.warning) == 4)
        #expect(JournalLogHandler.priority(.error) == 3)
        #expect(JournalLogHandler.priority(.critical) == 2)
    }
}
