import ArgumentParser
import SignControl

/// `signctl status [--json]`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the daemon shows and how its clock and outputs fare.")

    @Flag(help: "Print the daemon's status object as JSON.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let status = try connection.request(Request.Status())
        if json {
            print(status.jsonString)
            return
        }
        func number(_ key: String) -> String {
            guard let d = status[key]?.doubleValue else { return "?" }
            return d == d.rounded() ? String(Int64(d)) : String(d)
        }
        let lateness = status["lateness_ms"]
        func ms(_ key: String) -> String { lateness?[key]?.doubleValue.map { String($0) } ?? "?" }
        print("text:     \((status["text"]?.stringValue ?? "").escapingControlCharacters)")
        if let shown = status["shown"]?.stringValue {
            print("shown:    \(shown.escapingControlCharacters)")
        }
        if let pending = status["pending"]?["text"]?.stringValue {
            print("next:     \(pending.escapingControlCharacters) (at the end of this loop)")
        }
        if let layers = status["layers"]?.arrayValue, layers.count > 1 {
            for layer in layers {
                let shown =
                    layer["text"]?.stringValue ?? layer["zone"].flatMap { $0.stringValue.map { "zone \($0)" } } ?? ""
                let id = layer["id"]?.stringValue ?? "?"
                print("  layer \(id.escapingControlCharacters): \(shown.escapingControlCharacters)")
            }
        }
        print("board:    \(number("width"))x\(number("height")) at \(number("fps")) fps")
        print("frames:   \(number("frames")) shown, \(number("dropped")) dropped")
        if let brightness = status["brightness"] {
            let fading = status["brightness_fade"]?.objectValue?["to"].map { ", fading to \($0.jsonString)" } ?? ""
            print("display:  \(status["display"]?.stringValue ?? "on"), brightness \(brightness.jsonString)\(fading)")
        }
        if let playlist = status["playlist"], let name = playlist["name"]?.stringValue {
            let index = playlist["index"]?.doubleValue.map { String(Int($0) + 1) } ?? "?"
            let item = (playlist["item"]?.stringValue ?? "").escapingControlCharacters
            let paused = playlist["paused"] == true ? ", paused" : ""
            print("playlist: \(name.escapingControlCharacters), item \(index): \(item)\(paused)")
        }
        if let vars = status["vars"]?.objectValue, !vars.isEmpty {
            for name in vars.keys.sorted() {
                let value = (vars[name]?.stringValue ?? "").escapingControlCharacters
                print("var:      \(name.escapingControlCharacters) = \(value)")
            }
        }
        print("lateness: p50 \(ms("p50")) ms, p99 \(ms("p99")) ms, max \(ms("max")) ms")
        print("uptime:   \(number("uptime_s")) s")
        if let version = status["version"]?.stringValue {
            let commit = (status["commit"]?.stringValue).map { " (commit \($0.escapingControlCharacters))" } ?? ""
            print("signd:    \(version.escapingControlCharacters)\(commit)")
        }
        for output in status["outputs"]?.arrayValue ?? [] {
            print("output:   \(Self.line(output))")
        }
        for stream in status["streams"]?.arrayValue ?? [] {
            print("stream:   \(Self.streamLine(stream))")
        }
        if let memory = status["memory"], let rss = memory["rss_mb"]?.doubleValue,
            let heap = memory["heap_mb"]?.doubleValue
        {
            print("memory:   \(rss) MB resident, \(heap) MB heap in use")
        }
    }

    /// `layer (protocol address): state`, what came, and what was refused.
    static func streamLine(_ stream: JSONValue) -> String {
        func text(_ key: String) -> String { (stream[key]?.stringValue ?? "?").escapingControlCharacters }
        func count(_ value: JSONValue?) -> String { value?.doubleValue.map { String(Int64($0)) } ?? "?" }
        var line = "\(text("layer")) (\(text("protocol")) \(text("listen"))): \(text("state"))"
        line += stream["showing"] == true ? ", showing" : ", transparent"
        line += ", \(count(stream["packets"])) packets, \(count(stream["frames"])) frames"
        let refused = (stream["rejected"]?.objectValue ?? [:]).filter { ($0.value.doubleValue ?? 0) > 0 }
        if !refused.isEmpty {
            line +=
                "\n          refused: "
                + refused.keys.sorted().map { "\($0) \(count(refused[$0]))" }.joined(separator: ", ")
        }
        if let error = stream["last_error"]?.stringValue {
            line += "\n          last error: \(error.escapingControlCharacters)"
        }
        return line
    }

    /// `name (type): state`, then the counters and last error of outputs that keep them.
    static func line(_ output: JSONValue) -> String {
        let name = (output["name"]?.stringValue ?? "?").escapingControlCharacters
        let type = (output["type"]?.stringValue ?? "?").escapingControlCharacters
        var line = "\(name) (\(type)): \(output["state"]?.stringValue ?? "?")"
        func count(_ key: String) -> String { output[key]?.doubleValue.map { String(Int64($0)) } ?? "?" }
        if output["frames_sent"] != nil {
            line += ", \(count("frames_sent")) sent, \(count("dropped")) dropped, \(count("errors")) errors"
            line += ", \(count("reconnects")) reconnects"
            if let device = output["device"]?.stringValue {
                line += "\n          device: \(device.escapingControlCharacters)"
            }
            if let error = output["last_error"]?.stringValue {
                line += "\n          last error: \(error.escapingControlCharacters)"
            }
        }
        return line
    }
}

/// `signctl outputs [--json]`.
struct Outputs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the configured outputs and the USB LED controllers present on the bus.")

    @Flag(help: "Print the daemon's answer as JSON.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let result = try connection.request(Request.Outputs())
        if json {
            print(result.jsonString)
            return
        }
        for output in result["outputs"]?.arrayValue ?? [] {
            print("output:   \(Status.line(output))")
        }
        let devices = result["devices"]?.arrayValue ?? []
        if devices.isEmpty { print("usb:      no Fadecandy, Framework LED Matrix or configured bulk device found") }
        for device in devices {
            let id = "\(device["vid"]?.stringValue ?? "?"):\(device["pid"]?.stringValue ?? "?")"
            let bus = device["bus"]?.doubleValue.map { String(Int($0)) } ?? "?"
            let address = device["address"]?.doubleValue.map { String(Int($0)) } ?? "?"
            var line = "usb:      \(device["type"]?.stringValue ?? "?") \(id) bus \(bus) address \(address)"
            if let serial = device["serial"]?.stringValue { line += " serial \(serial)" }
            line += device["output"]?.stringValue.map { " (output \($0))" } ?? " (not in use)"
            print(line)
        }
    }
}
