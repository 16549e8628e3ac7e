import ArgumentParser
import Foundation
import SignControl
import SignMatrix

/// `signctl status [--json]`.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what the daemon shows and how its clock and outputs fare.")

    @Flag(help: "Print the daemon's status object as JSON.")
    var json = false

    @OptionGroup var connection: Connection

    func run() throws {
        let result = try connection.request(Request.Status())
        if json {
            print(result.jsonString)
            return
        }
        let status: SignControl.Status = try result.decode()
        func number(_ d: Double) -> String { d == d.rounded() ? String(Int64(d)) : String(d) }
        print("text:     \(status.text.escapingControlCharacters)")
        if let shown = status.shown {
            print("shown:    \(shown.escapingControlCharacters)")
        }
        if let pending = status.pending {
            print("next:     \(pending.text.escapingControlCharacters) (at the end of this loop)")
        }
        if status.layers.count > 1 {
            for layer in status.layers {
                let shown = layer.text ?? layer.zone.map { "zone \($0)" } ?? ""
                print("  layer \(layer.id.escapingControlCharacters): \(shown.escapingControlCharacters)")
            }
        }
        print("board:    \(status.width)x\(status.height) at \(number(status.fps)) fps")
        print("frames:   \(status.frames) shown, \(status.dropped) dropped")
        let fading = status.brightnessFade.map { ", fading to \(JSONValue.double($0.to).jsonString)" } ?? ""
        let brightness = JSONValue.double(status.brightness).jsonString
        print("display:  \(status.display.rawValue), brightness \(brightness)\(fading)")
        if let playlist = status.playlist {
            let paused = playlist.paused ? ", paused" : ""
            print(
                "playlist: \(playlist.name.escapingControlCharacters), item \(playlist.index + 1): "
                    + "\(playlist.item.escapingControlCharacters)\(paused)")
        }
        for name in status.vars.keys.sorted() {
            let value = (status.vars[name] ?? "").escapingControlCharacters
            print("var:      \(name.escapingControlCharacters) = \(value)")
        }
        let lateness = status.lateness
        print("lateness: p50 \(lateness.p50) ms, p99 \(lateness.p99) ms, max \(lateness.max) ms")
        print("uptime:   \(number(status.uptime)) s")
        print(
            "signd:    \(status.version.escapingControlCharacters) (commit \(status.commit.escapingControlCharacters))")
        for output in status.outputs {
            print("output:   \(Self.line(output))")
        }
        for stream in status.streams {
            print("stream:   \(Self.streamLine(stream))")
        }
        print("memory:   \(status.memory.rss) MB resident, \(status.memory.heap) MB heap in use")
        // signd-matrix, the HUB75 bridge, when it runs on this machine.
        let matrix = ProcessInfo.processInfo.environment["SIGND_MATRIX_STATUS"] ?? "/run/signd-matrix/status.json"
        if let line = MatrixStatus.line(at: matrix) {
            print("matrix:   \(line)")
        }
    }

    /// `layer (protocol address): state`, what came, and what was refused.
    static func streamLine(_ stream: StreamStatus) -> String {
        func text(_ s: String) -> String { s.escapingControlCharacters }
        var line = "\(text(stream.layer)) (\(text(stream.protocol)) \(text(stream.listen))): \(stream.state.rawValue)"
        line += stream.showing ? ", showing" : ", transparent"
        line += ", \(stream.packets) packets, \(stream.frames) frames"
        let refused = stream.rejected.filter { $0.value > 0 }
        if !refused.isEmpty {
            line +=
                "\n          refused: "
                + refused.keys.sorted().map { "\($0) \(refused[$0] ?? 0)" }.joined(separator: ", ")
        }
        if let error = stream.lastError {
            line += "\n          last error: \(error.escapingControlCharacters)"
        }
        return line
    }

    /// `name (type): state`, then the counters and last error of outputs that keep them.
    static func line(_ output: OutputStatus) -> String {
        var line =
            "\(output.name.escapingControlCharacters) (\(output.type.escapingControlCharacters)): \(output.state.rawValue)"
        if let c = output.counters {
            line += ", \(c.framesSent) sent, \(c.dropped) dropped, \(c.errors) errors"
            line += ", \(c.reconnects) reconnects"
            if let device = c.device {
                line += "\n          device: \(device.escapingControlCharacters)"
            }
            if let error = c.lastError {
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
        let outputs: OutputsResult = try result.decode()
        for output in outputs.outputs {
            print("output:   \(Status.line(output))")
        }
        if outputs.devices.isEmpty {
            print("usb:      no Fadecandy, Framework LED Matrix or configured bulk device found")
        }
        for device in outputs.devices {
            var line =
                "usb:      \(device.type) \(device.vid):\(device.pid) bus \(device.bus) address \(device.address)"
            if let serial = device.serial { line += " serial \(serial)" }
            line += device.output.map { " (output \($0))" } ?? " (not in use)"
            print(line)
        }
    }
}
