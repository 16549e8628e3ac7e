import Foundation
import Testing

@testable import SignControl

/// Typed results write what the dictionaries they replaced wrote: ints as ints, doubles as
/// doubles, `null` where the contract writes it and nothing where it leaves a key out.
@Suite("Result")
struct ResultTests {
    func line(_ value: some Encodable) throws -> String { try JSONValue(encoding: value).jsonString }

    @Test("the small results: {}, scheduled, subscribe's sorted events, notify's id")
    func smallResults() throws {
        #expect(try line(EmptyResult()) == "{}")
        #expect(try line(Scheduled()) == #"{"scheduled":true}"#)
        #expect(try line(Subscribed(events: [.loopEnd, .streamBack])) == #"{"events":["loop-end","stream-back"]}"#)
        #expect(try line(Notified(notification: 3)) == #"{"notification":3}"#)
    }

    @Test("outputs: counters beside the name, or none; a device's serial and output are null when unknown")
    func outputs() throws {
        let result = OutputsResult(
            outputs: [
                OutputStatus(name: "a", type: "terminal", state: .ok),
                OutputStatus(
                    name: "b", type: "ddp", state: .error,
                    counters: .init(
                        framesSent: 1, dropped: 0, errors: 4, reconnects: 0, lastError: nil,
                        device: "ddp 10.0.0.2:4048")),
            ],
            devices: [
                USBDevice(type: "fadecandy", vid: "1d50", pid: "607a", serial: nil, bus: 1, address: 7, output: nil)
            ])
        let expected =
            #"{"devices":[{"address":7,"bus":1,"output":null,"pid":"607a","serial":null,"type":"fadecandy","vid":"1d50"}],"#
            + #""outputs":[{"name":"a","state":"ok","type":"terminal"},{"device":"ddp 10.0.0.2:4048","dropped":0,"#
            + #""errors":4,"frames_sent":1,"last_error":null,"name":"b","reconnects":0,"state":"error","type":"ddp"}]}"#
        #expect(try line(result) == expected)
        #expect(try JSONValue.parse(Array(expected.utf8)).decode(OutputsResult.self) == result)
    }

    @Test("a key written as null may also be absent when read (a daemon older than the key)")
    func nullableMayBeAbsent() throws {
        let device = try JSONValue.parse(Array(#"{"type":"bulk","vid":"1234","pid":"5678","bus":1,"address":2}"#.utf8))
            .decode(USBDevice.self)
        #expect(device.serial == nil && device.output == nil)
    }

    @Test("a layer leaves out what does not apply; the realtime keys and a stream's age appear when set")
    func optionalKeys() throws {
        #expect(try line(Status.Layer(id: "x")) == #"{"id":"x"}"#)
        #expect(
            try line(Status.Layer(id: "s", zone: "left", stopped: true)) == #"{"id":"s","stopped":true,"zone":"left"}"#)
        let stream = StreamStatus(
            layer: "feed", protocol: "e131", listen: "0.0.0.0:5568", state: .ok, showing: true, packets: 9, frames: 3,
            rejected: ["short": 1], lastFrame: 0.017, lastError: nil)
        #expect(
            try line(stream)
                == #"{"frames":3,"last_error":null,"last_frame_s":0.017,"layer":"feed","listen":"0.0.0.0:5568","#
                + #""packets":9,"protocol":"e131","rejected":{"short":1},"showing":true,"state":"ok"}"#)
        var status = try JSONValue.parse(Array(StatusSample.line.utf8)).decode(Status.self)
        #expect(try line(status) == StatusSample.line)
        #expect(status.clockSteps == nil && status.shown == nil && status.canvas == nil)
        status.timeline = "realtime"
        status.clockSteps = 2
        status.lastClockStep = -1.5
        status.shown = "In Oslo"
        let json = try JSONValue(encoding: status)
        #expect(json["clock_steps"] == 2 && json["last_clock_step_ms"] == -1.5 && json["shown"] == "In Oslo")
        #expect(json["canvas"] == nil && json["scene"] == .null && json["notification"] == .null)
    }
}

/// A `status` result with every `null` and no optional key.
private enum StatusSample {
    static let line =
        #"{"brightness":0.5,"commit":"unknown","display":"off","dropped":0,"fps":30,"frames":12,"height":16,"#
        + #""lateness_ms":{"max":1.25,"p50":0.01,"p99":0.5},"layers":[],"memory":{"heap_mb":1,"rss_mb":2.5},"#
        + #""mqtt":null,"notification":null,"outputs":[],"playlist":null,"playlists":[],"queued":0,"scene":null,"#
        + #""stalls":0,"stalls_own":0,"streams":[],"text":"","timeline":"monotonic","uptime_s":1.5,"vars":{},"#
        + #""version":"0.9.0","web":null,"width":64}"#
}
