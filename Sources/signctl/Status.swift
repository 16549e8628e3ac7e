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
        let status = try connection.request("status")
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
        print("text:     \(status["text"]?.stringValue ?? "")")
        if let layers = status["layers"]?.arrayValue, layers.count > 1 {
            for layer in layers {
                let shown =
                    layer["text"]?.stringValue ?? layer["zone"].flatMap { $0.stringValue.map { "zone \($0)" } } ?? ""
                print("  layer \(layer["id"]?.stringValue ?? "?"): \(shown)")
            }
        }
        print("board:    \(number("width"))x\(number("height")) at \(number("fps")) fps")
        print("frames:   \(number("frames")) shown, \(number("dropped")) dropped")
        print("lateness: p50 \(ms("p50")) ms, p99 \(ms("p99")) ms, max \(ms("max")) ms")
        print("uptime:   \(number("uptime_s")) s")
        for output in status["outputs"]?.arrayValue ?? [] {
            let name = output["name"]?.stringValue ?? "?", type = output["type"]?.stringValue ?? "?"
            print("output:   \(name) (\(type)): \(output["state"]?.stringValue ?? "?")")
        }
    }
}
