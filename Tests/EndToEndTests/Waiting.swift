import Foundation
import Glibc
import SignControl
import Testing

/// Polls `condition` until it holds or `timeout` seconds pass; whether it held. The timeout
/// only bounds a hang: it is generous, and never the behaviour's own timing.
@discardableResult
func eventually(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    try firstValue(timeout: timeout) { try condition() ? true : nil } ?? false
}

/// Polls `produce` every `interval` seconds until it gives a value or `timeout` seconds
/// pass; the value, or nil.
func firstValue<T>(timeout: Double = 10, every interval: Double = 0.02, _ produce: () throws -> T?) rethrows -> T? {
    let end = monotonicNow() + UInt64(timeout * 1e9)
    while true {
        if let value = try produce() { return value }
        guard monotonicNow() < end else { return nil }
        // Real time, in this one place: what the tests poll (a status field, a peer's output
        // file, a framebuffer, a process's exit) tells nobody when it changes. 20 ms keeps
        // the polling light beside the daemon under test.
        Thread.sleep(forTimeInterval: interval)
    }
}

extension Scratch {
    /// The frames signd's clock has rendered, from `status`.
    func clockFrames() throws -> Int { Int(try request("status")["frames"]?.doubleValue ?? 0) }

    /// Waits until signd's clock has rendered at least `count` frames; the count then. A
    /// run measured in frames holds on a machine of any speed, where one measured by the
    /// wall clock does not.
    @discardableResult
    func waitForClock(frames count: Int, timeout: Double = 60) throws -> Int {
        var frames = 0
        // Every 0.1 s: status is asked of the daemon being measured.
        _ = try firstValue(timeout: timeout, every: 0.1) { () throws -> Bool? in
            frames = try clockFrames()
            return frames >= count ? true : nil
        }
        #expect(frames >= count, "signd's clock reached only frame \(frames) of \(count)")
        return frames
    }

    /// The shm framebuffer's published frame, read by the contract's reader: its number and
    /// its pixels.
    func published(_ object: String? = nil) throws -> (number: Int, pixels: [UInt8]) {
        let out = dir.appendingPathComponent("frame-\(UInt32.random(in: 0...UInt32.max)).rgb").path
        defer { unlink(out) }
        let read = try run("/usr/bin/python3", [Paths.shmReader, object ?? name, "frame", out])
        let number = try JSONValue.parse(Array(read.stdout.utf8))["frame"]?.doubleValue ?? -1
        return (Int(number), [UInt8](try #require(FileManager.default.contents(atPath: out))))
    }

    /// The pixels of the published frame.
    func frame() throws -> [UInt8] { try published().pixels }

    /// The first published frame numbered `number` or later (for "after this many frames").
    func published(_ object: String? = nil, atLeast number: Int) throws -> (number: Int, pixels: [UInt8]) {
        try #require(
            try firstValue { () throws -> (number: Int, pixels: [UInt8])? in
                let now = try published(object)
                return now.number >= number ? now : nil
            }, "the framebuffer never reached frame \(number)")
    }

    /// A frame rendered wholly after every request answered so far: the one two past the
    /// frame published now (a request lands on the frame being rendered or the next).
    func settled() throws -> (number: Int, pixels: [UInt8]) { try published(atLeast: try published().number + 2) }

    /// A connection subscribed to `events`, whose reads give up after `seconds` (failing the
    /// test, never hanging it).
    func subscribe(_ events: [String], seconds: Int = 10) throws -> ControlClient {
        let client = try ControlClient(path: socket)
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(client.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let answer = try client.request("subscribe", ["events": .array(events.map(JSONValue.string))])
        let subscribed = Set(answer["events"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(subscribed == Set(events), "subscribed to \(answer)")
        return client
    }
}

extension ControlClient {
    /// The next event line (skipping responses); nil when the daemon closed the connection.
    func nextEvent() throws -> JSONValue? {
        while let line = try readLine() {
            let object = try JSONValue.parse(line)
            if object["event"] != nil { return object }
        }
        return nil
    }
}
