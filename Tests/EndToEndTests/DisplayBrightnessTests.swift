import Foundation
import Glibc
import SignControl
import Testing

/// `display.brightness`, `set-brightness` and `display` as a DDP receiver sees them: the
/// levels in linear light, black while off with frames still coming, and all of it back
/// after a restart.
@Suite("Brightness and display, end to end", .serialized)
struct DisplayBrightnessTests {
    /// A 16x2 board filled with grey 200, a straight (gamma 1) undithered DDP output, so
    /// every LED byte is 200 times the brightness.
    static func config(_ scratch: Scratch, port: Int, brightness: Double, extra: String = "") throws -> String {
        try scratch.write(
            """
            [display]
            width = 16
            height = 2
            fps = 30
            background = "#c8c8c8"
            brightness = \(brightness)
            [[layer]]
            id = "main"
            text = ""
            [preview]
            terminal = "off"
            [[output]]
            name = "net"
            type = "ddp"
            host = "127.0.0.1"
            port = \(port)
            gamma = 1.0
            dithering = false
            [[output.panel]]
            width = 16
            height = 2
            \(extra)
            """)
    }

    /// The level every LED of the newest frame shows, once it is `expected` (waits up to
    /// `timeout` for a change to arrive); otherwise the last level seen, or nil.
    static func level(_ receiver: WireReceiver, settlesAt expected: Int, timeout: Double = 10) -> Int? {
        var seen: Int?
        eventually(timeout: timeout) {
            if let bytes = receiver.frames().last.map(WireReceiver.bytes), bytes.count == 96, let first = bytes.first,
                bytes.allSatisfy({ $0 == first })
            {
                seen = Int(first)
            }
            return seen == expected
        }
        return seen
    }

    @Test(
        "brightness scales every LED in linear light; display off sends black while frames keep coming; both survive a restart, an edited config brightness wins"
    )
    func brightnessAndDisplay() throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(scratch, "ddp", leds: 32, seconds: 60)
        defer { receiver.finish() }
        var config = try Self.config(scratch, port: receiver.port, brightness: 0.5)
        let environment = ["STATE_DIRECTORY": scratch.dir.path]
        var signd = try scratch.startSignd(config: config, environment: environment)
        defer { scratch.stop(signd) }

        #expect(Self.level(receiver, settlesAt: 100) == 100, "the config's 0.5 halves 200")
        var status = try scratch.request("status")
        #expect(status["brightness"]?.doubleValue == 0.5 && status["display"] == "on")

        _ = try scratch.request("set-brightness", ["value": 0.25])
        #expect(Self.level(receiver, settlesAt: 50) == 50)

        _ = try scratch.request("display", ["state": "off"])
        #expect(Self.level(receiver, settlesAt: 0) == 0)
        let before = receiver.frames().count
        #expect(eventually { receiver.frames().count >= before + 10 }, "frames keep coming while the display is off")
        #expect(
            receiver.frames()[before...].allSatisfy { WireReceiver.bytes($0).allSatisfy { $0 == 0 } },
            "and they are black")
        status = try scratch.request("status")
        #expect(status["display"] == "off" && status["brightness"]?.doubleValue == 0.25)
        #expect((status["frames"]?.doubleValue ?? 0) > 0)

        // A restart comes back dark, at the brightness set by hand.
        scratch.stop(signd)
        signd = try scratch.startSignd(config: config, environment: environment)
        status = try scratch.request("status")
        #expect(status["display"] == "off" && status["brightness"]?.doubleValue == 0.25)
        _ = try scratch.request("display", ["state": "on"])
        #expect(Self.level(receiver, settlesAt: 50) == 50)

        // The config's brightness edited since: the file wins over the saved value.
        scratch.stop(signd)
        config = try Self.config(scratch, port: receiver.port, brightness: 0.8)
        signd = try scratch.startSignd(config: config, environment: environment)
        #expect(try scratch.request("status")["brightness"]?.doubleValue == 0.8)
        #expect(Self.level(receiver, settlesAt: 160) == 160)
    }

    @Test("set-brightness refuses a value outside 0 to 1 and names it; a fade is reported while it runs")
    func refusalsAndFade() throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(scratch, "ddp", leds: 32, seconds: 30)
        defer { receiver.finish() }
        let config = try Self.config(scratch, port: receiver.port, brightness: 1)
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        for bad: JSONValue in [1.5, -0.1, "half"] {
            #expect(throws: ControlError.self) { try scratch.request("set-brightness", ["value": bad]) }
        }
        #expect(throws: ControlError.self) { try scratch.request("display", ["state": "dim"]) }
        _ = try scratch.request("set-brightness", ["value": 0, "duration": 20])
        let status = try scratch.request("status")
        let fade = try #require(status["brightness_fade"]?.objectValue)
        #expect(fade["to"]?.doubleValue == 0)
        let shown = try #require(status["brightness"]?.doubleValue)
        #expect(shown > 0.9 && shown <= 1)
    }

    @Test("[[brightness]] steps on the frame its time of day comes, by the wall clock in display.timezone")
    func scheduleSteps() throws {
        let scratch = try Scratch()
        let receiver = try WireReceiver(scratch, "ddp", leds: 32, seconds: 30)
        defer { receiver.finish() }
        func timeOfDay(_ date: Date) -> String {
            let f = DateFormatter()
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "HH:mm:ss"
            return f.string(from: date)
        }
        let change = Date().addingTimeInterval(6).timeIntervalSince1970.rounded(.up)
        let extra = """
            [[brightness]]
            at = "\(timeOfDay(Date(timeIntervalSince1970: change)))"
            value = 0.5
            [[brightness]]
            at = "\(timeOfDay(Date(timeIntervalSince1970: change + 43200)))"
            value = 1
            """
        let config = try Self.config(scratch, port: receiver.port, brightness: 1, extra: extra)
        try scratch.write(
            (try String(contentsOfFile: config, encoding: .utf8)).replacingOccurrences(
                of: "brightness = 1\n", with: "brightness = 1\ntimezone = \"UTC\"\n"))
        let signd = try scratch.startSignd(config: config)
        defer { scratch.stop(signd) }
        // Before the change: the entry of twelve hours ago, full.
        #expect(Self.level(receiver, settlesAt: 200) == 200)
        #expect(Date().timeIntervalSince1970 < change, "the daemon started well before the change")
        // The change is six seconds off by the wall clock.
        #expect(Self.level(receiver, settlesAt: 100, timeout: 20) == 100)
        // No frame showed 0.5 before the change (its frame is due at or after the instant;
        // the receiver stamps arrival on the same monotonic clock).
        let frames = receiver.frames()
        let firstDim = try #require(frames.firstIndex { WireReceiver.bytes($0).first == 100 })
        let shown = try #require(frames[firstDim]["t"] as? Double)
        let monotonicAtChange = Double(monotonicNow()) / 1e9 - (Date().timeIntervalSince1970 - change)
        #expect(shown >= monotonicAtChange - 0.002, "the first dimmed frame came \(monotonicAtChange - shown) s early")
    }
}
