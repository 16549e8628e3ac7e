import Foundation
import SignConfig
import Testing

@testable import SignDaemon

/// Live fields expanded as a pure function of the text, the instant, the time zone and the
/// variables.
@Suite("LiveFields")
struct LiveFieldsTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static func at(_ iso: String) -> Date { LiveFields.instant(iso)! }
    static func expand(_ text: String, _ iso: String, vars: [String: String] = [:]) -> String {
        LiveFields.expand(text, at: at(iso), LiveFields.Values(timeZone: berlin, variables: vars))
    }

    @Test("a clock reads the display's time zone across the night summer time begins in Berlin")
    func clockAcrossDST() {
        #expect(Self.expand("{time:%H:%M}", "2026-03-29T01:59:59+01:00") == "01:59")
        #expect(Self.expand("{time:%H:%M}", "2026-03-29T02:00:00+01:00") == "03:00")
        #expect(Self.expand("{time:%H:%M %Z}", "2026-03-29T03:00:00+02:00") == "03:00 CEST")
        #expect(Self.expand("{time:%H:%M}", "2026-10-25T02:59:59+02:00") == "02:59")
        #expect(Self.expand("{time:%H:%M}", "2026-10-25T03:00:00+02:00") == "02:00", "the hour comes twice")
    }

    @Test("dates turn at local midnight, not UTC's; weekday and month names are the C locale's")
    func dateAtMidnight() {
        #expect(Self.expand("{date:%a %d %b}", "2026-11-23T23:59:59+01:00") == "Mon 23 Nov")
        #expect(Self.expand("{date:%a %d %b}", "2026-11-24T00:00:00+01:00") == "Tue 24 Nov")
        #expect(Self.expand("{date:%j}", "2026-12-31T12:00:00+01:00") == "365")
    }

    @Test("a clock that has not been set (before 2020) shows dashes, not 1970")
    func unsetClock() {
        #expect(Self.expand("{time:%H:%M}", "1970-01-01T00:05:00Z") == "--:--")
        #expect(Self.expand("Open {date:%d.%m.}", "2019-12-31T12:00:00Z") == "Open --.--.")
    }

    @Test("a countdown shows days and H:M:S left, or its own format, and stops at zero")
    func countdown() {
        let target = "{countdown:2026-12-24T18:00:00+01:00}"
        #expect(Self.expand(target, "2026-12-21T16:59:59+01:00") == "3 days 01:00:01")
        #expect(Self.expand(target, "2026-12-24T17:59:59+01:00") == "0 days 00:00:01")
        #expect(Self.expand(target, "2026-12-25T00:00:00+01:00") == "0 days 00:00:00")
        #expect(
            Self.expand("{countdown:2026-12-24T18:00Z,%d d %H h %M min %%}", "2026-12-23T17:30:00Z")
                == "1 d 00 h 30 min %")
    }

    @Test("a variable's value is shown as written: braces in it add no markup; unset is empty")
    func variables() {
        #expect(
            Self.expand("Now: {var:track}", "2026-01-01T00:00:00Z", vars: ["track": "{#ff0000}Red"])
                == "Now: {{#ff0000}Red")
        #expect(Self.expand("[{var:none}]", "2026-01-01T00:00:00Z") == "[]")
        #expect(
            Self.expand("{{var:track}} {#00ff00}x{/}", "2026-01-01T00:00:00Z", vars: ["track": "a"])
                == "{{var:track}} {#00ff00}x{/}")
    }

    @Test("an expanded text is cut at 8192 characters, however often a long variable is used")
    func expandedLength() {
        let text = String(repeating: "{var:v}", count: 100)
        let long = Self.expand(text, "2026-01-01T00:00:00Z", vars: ["v": String(repeating: "x", count: 8192)])
        #expect(long.unicodeScalars.count == LiveFields.maxExpandedLength)
    }

    @Test("malformed fields are problems naming the field's kind; other braces are left to the markup")
    func problems() {
        #expect(LiveFields.problems(in: "{countdown:tomorrow}").first?.description.contains("countdown") == true)
        #expect(LiveFields.problems(in: "{var:a b}").count == 1)
        #expect(LiveFields.problems(in: "{time:}").count == 1)
        #expect(LiveFields.problems(in: "{time:\(String(repeating: "%H", count: 40))}").count == 1)
        #expect(LiveFields.problems(in: "{#ff0000}Sale{/} {icon:cup} {time").isEmpty)
        #expect(!LiveFields.hasFields("{#ff0000}Sale{/} {{time:%H}"))
    }

    @Test("a minute clock changes at the next whole minute, a seconds clock or a countdown each second")
    func granularity() {
        #expect(LiveFields.granularity(of: "{time:%H:%M}") == .minute)
        #expect(LiveFields.granularity(of: "{time:%H:%M:%S}") == .second)
        #expect(LiveFields.granularity(of: "{time:%T}") == .second)
        #expect(LiveFields.granularity(of: "{date:%a} {time:%H:%M}") == .minute)
        #expect(LiveFields.granularity(of: "{countdown:2026-12-24T18:00Z}") == .second)
        #expect(LiveFields.granularity(of: "{countdown:2026-12-24T18:00Z,%d days}") == .minute)
        #expect(LiveFields.granularity(of: "{var:x} plain") == nil)
        let t = Self.at("2026-03-29T01:59:58.5+01:00")
        #expect(LiveFields.nextChange(after: t, granularity: .minute) == Self.at("2026-03-29T02:00:00+01:00"))
        #expect(LiveFields.nextChange(after: t, granularity: .second) == Self.at("2026-03-29T01:59:59+01:00"))
    }
}
