import Foundation
import SignControl

/// What signd-matrix is doing, as a small JSON file it rewrites (whole, by rename) when
/// its state changes and once a second while frames flow; `signctl status` prints it.
public struct MatrixStatus: Sendable, Equatable {
    /// `showing` (frames reach the panels), `waiting` (for signd, its framebuffer, or the
    /// library), `stopped` (signd stopped: the panels are black) or `error` (a mismatch
    /// that signd's config must fix; retried).
    public var state = "waiting"
    public var framebuffer = ""
    /// The panels' size, `WxH`, once the library has opened them.
    public var panels: String?
    public var framesShown: UInt64 = 0
    /// The number of the last frame shown, as signd numbered it.
    public var lastFrame: UInt64 = 0
    public var reconnects = 0
    public var message = ""
    public var pid = Int(getpid())
    /// Unix time of the write, seconds.
    public var updated = 0.0

    public init() {}

    public var json: JSONValue {
        [
            "state": .string(state), "framebuffer": .string(framebuffer), "panels": panels.map { .string($0) } ?? .null,
            "frames_shown": .int(Int64(framesShown)), "last_frame": .int(Int64(lastFrame)),
            "reconnects": .int(Int64(reconnects)), "message": .string(message), "pid": .int(Int64(pid)),
            "updated": .double(updated),
        ]
    }

    /// Writes the file through a temporary beside it; failures are returned, not thrown
    /// (a status file is never worth stopping the panels for).
    public func write(to path: String) -> String? {
        var copy = self
        copy.updated = Date().timeIntervalSince1970
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((copy.json.jsonString + "\n").utf8))
        else { return "cannot write \(temporary)" }
        guard rename(temporary, path) == 0 else { return "cannot rename \(temporary): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// The file's state in one line, for `signctl status`; nil when there is no such file.
    public static func line(at path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), let value = try? JSONValue.parse(data) else {
            return nil
        }
        func text(_ key: String) -> String { value[key]?.stringValue ?? "" }
        func number(_ key: String) -> Int64 { Int64(value[key]?.doubleValue ?? 0) }
        var line = "\(text("state"))"
        if let panels = value["panels"]?.stringValue { line += ", panels \(panels)" }
        line += ", \(number("frames_shown")) frames shown (last \(number("last_frame")))"
        if number("reconnects") > 0 { line += ", \(number("reconnects")) reconnects" }
        if !text("message").isEmpty { line += ": \(text("message"))" }
        let age = Date().timeIntervalSince1970 - (value["updated"]?.doubleValue ?? 0)
        if age > 5 { line += " (written \(Int(age)) s ago: is signd-matrix running?)" }
        return line.escapingControlCharacters
    }
}
