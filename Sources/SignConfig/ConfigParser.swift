import SignControl
import TOMLKit

/// Where a config's text is parsed. The parser, TOMLKit over toml++, never frees
/// what it parses (about 14 KB each time the combined example is read) and aborts on some
/// inputs, so the daemon parses in a short-lived child process (`signd parse-config`) and
/// gets the document back as JSON: a reload or a load-scene, however often a client asks,
/// costs no memory, and a parser crash is a refused file, not a dead sign. One-off commands
/// (check-config, render) parse in their own process.
public enum ConfigParser {
    /// Where parsing happens.
    public enum Mode: Sendable {
        /// In this process.
        case here
        /// In a child process running this executable's `parse-config`.
        case isolated
    }

    /// A document that did not parse: the line, the key path when the problem is in a
    /// key's value, and the parser's message.
    struct Failure: Error, Sendable, Equatable {
        let line: Int
        var key: String? = nil
        let message: String
    }

    /// Longest a child may take, in milliseconds, before it is stopped and the file refused.
    static let childTimeout: Int32 = 10_000
    /// Largest answer accepted from a child.
    static let maxAnswer = 64 << 20

    /// The document in `source`, parsed where `mode` says, after `TOMLGuard` has checked it.
    static func parse(_ source: String, mode: Mode) throws(Failure) -> ConfigTable {
        if let refused = TOMLGuard.check(source) {
            let key = refused.inString ? TOMLKeyLines(source: source).key(at: refused.line) : nil
            throw Failure(line: refused.line, key: key, message: refused.message)
        }
        switch mode {
        case .here: return try parseHere(source)
        case .isolated: return try parseInChild(source)
        }
    }

    /// Parses with TOMLKit in this process.
    static func parseHere(_ source: String) throws(Failure) -> ConfigTable {
        do {
            return ConfigTable(try TOMLTable(string: source))
        } catch let error as TOMLParseError {
            throw Failure(line: error.source.begin.line, message: "TOML syntax: \(error.description)")
        } catch {
            throw Failure(line: 1, message: "\(error)")
        }
    }

    /// What `signd parse-config` prints for `source`: one JSON line.
    public static func answer(for source: String) -> String {
        do {
            return JSONValue.object(["table": ConfigValue.table(try parse(source, mode: .here)).json]).jsonString
        } catch {
            return JSONValue.object(["error": ["line": .int(Int64(error.line)), "message": .string(error.message)]])
                .jsonString
        }
    }

    /// Parses in a child process running this executable.
    static func parseInChild(_ source: String) throws(Failure) -> ConfigTable {
        let answer: [UInt8]
        switch ChildProcess.run(
            "/proc/self/exe", ["parse-config"], input: Array(source.utf8), timeoutMilliseconds: childTimeout,
            maxOutput: maxAnswer)
        {
        case .output(let bytes): answer = bytes
        case .failed: throw Failure(line: 0, message: "the config parser failed on this file (it is not valid TOML)")
        case .notStarted:
            // Without /proc or the right to spawn, parse here: the document's memory is kept.
            return try parseHere(source)
        }
        guard let value = try? JSONValue.parse(answer) else {
            throw Failure(line: 0, message: "the config parser answered what signd cannot read")
        }
        if let error = value["error"] {
            throw Failure(
                line: Int(error["line"]?.doubleValue ?? 0),
                message: error["message"]?.stringValue ?? "the config parser failed on this file")
        }
        guard let table = value["table"].flatMap(ConfigValue.init(json:))?.table else {
            throw Failure(line: 0, message: "the config parser answered what signd cannot read")
        }
        return table
    }
}

extension ConfigTable {
    /// The document TOMLKit parsed, as plain values.
    init(_ table: TOMLTable) {
        var entries: [String: ConfigValue] = [:]
        for key in table.keys {
            if let value = table[key] { entries[key] = ConfigValue(value) }
        }
        self.init(entries)
    }
}

extension ConfigValue {
    init(_ value: TOMLValueConvertible) {
        switch value.type {
        case .string: self = .string(value.string ?? "")
        case .int: self = .integer(value.int ?? 0)
        case .double: self = .float(value.double ?? 0)
        case .bool: self = .boolean(value.bool ?? false)
        case .array: self = .array((value.array.map { Array($0) } ?? []).map(ConfigValue.init))
        case .table: self = .table(value.table.map(ConfigTable.init) ?? ConfigTable())
        case .date, .time, .dateTime: self = .dateTime("\(value)")
        }
    }
}
