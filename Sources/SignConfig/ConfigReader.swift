import SignGraphics

/// Reads typed values out of a parsed TOML table, collecting a located problem for every
/// value that is missing, of the wrong type or out of range, instead of stopping at the first.
struct ConfigReader {
    let file: String
    let keyLines: TOMLKeyLines
    var problems: [ConfigProblem] = []
    /// The stream layers' inputs met so far (StreamInput.swift).
    var streams: [StreamInput] = []
    /// The keys each kind of table takes, by its path without indices (`layer.animation`):
    /// what signd.toml(5) must document (a test holds it to them).
    var knownKeys: [String: Set<String>] = [:]

    mutating func problem(_ path: String, _ message: String) {
        problems.append(ConfigProblem(file: file, line: keyLines.line(of: path), key: path, message: message))
    }

    /// Reports keys of `table` that are not in `allowed` (usually a typo).
    mutating func rejectUnknownKeys(_ table: ConfigTable, at path: String, allowed: Set<String>) {
        let kind = path.split(separator: ".").map { $0.split(separator: "[").first.map(String.init) ?? "" }
            .joined(separator: ".")
        knownKeys[kind, default: []].formUnion(allowed)
        for key in table.keys.sorted() where !allowed.contains(key) {
            let full = path.isEmpty ? key : "\(path).\(key)"
            problem(
                full,
                "unknown key\(NearestWord.hint(allowed, for: key)) (expected one of: \(allowed.sorted().joined(separator: ", ")))"
            )
        }
    }

    mutating func table(_ parent: ConfigTable, _ key: String, at path: String) -> ConfigTable? {
        guard let value = parent[key] else { return nil }
        guard let table = value.table else {
            problem(join(path, key), "expected a table, found \(value.type)")
            return nil
        }
        return table
    }

    mutating func tables(_ parent: ConfigTable, _ key: String, at path: String) -> [ConfigTable] {
        guard let value = parent[key] else { return [] }
        guard let array = value.array else {
            problem(join(path, key), "expected an array of tables ([[\(key)]]), found \(value.type)")
            return []
        }
        return array.enumerated().compactMap { i, element in
            guard let table = element.table else {
                problem("\(join(path, key))[\(i)]", "expected a table, found \(element.type)")
                return nil
            }
            return table
        }
    }

    mutating func string(_ t: ConfigTable, _ key: String, at path: String) -> String? {
        guard let value = t[key] else { return nil }
        guard let s = value.string else {
            problem(join(path, key), "expected a string, found \(value.type)")
            return nil
        }
        return s
    }

    mutating func bool(_ t: ConfigTable, _ key: String, at path: String) -> Bool? {
        guard let value = t[key] else { return nil }
        guard let b = value.bool else {
            problem(join(path, key), "expected true or false, found \(value.type)")
            return nil
        }
        return b
    }

    mutating func int(_ t: ConfigTable, _ key: String, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = t[key] else { return nil }
        guard let i = value.int else {
            problem(join(path, key), "expected an integer, found \(value.type)")
            return nil
        }
        guard range.contains(i) else {
            problem(join(path, key), "\(i) is out of range \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return i
    }

    /// A number: TOML integers are accepted where a fractional value is allowed.
    mutating func number(_ t: ConfigTable, _ key: String, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = t[key] else { return nil }
        guard let d = value.double ?? value.int.map(Double.init) else {
            problem(join(path, key), "expected a number, found \(value.type)")
            return nil
        }
        guard range.contains(d) else {
            problem(join(path, key), "\(d) is out of range \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return d
    }

    mutating func color(_ t: ConfigTable, _ key: String, at path: String) -> Color? {
        guard let text = string(t, key, at: path) else { return nil }
        guard let color = Color(parsing: text) else {
            problem(join(path, key), "\"\(text)\" is not a colour (use #rrggbb, #rrggbbaa or a name such as amber)")
            return nil
        }
        return color
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ t: ConfigTable, _ key: String, at path: String) -> E?
    where E.RawValue == String {
        guard let text = string(t, key, at: path) else { return nil }
        guard let value = E(rawValue: text) else {
            let options = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            problem(join(path, key), "\"\(text)\" is not one of \(options)")
            return nil
        }
        return value
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A path the config names, relative to the config file's directory unless absolute.
    func fromConfigDirectory(_ name: String) -> String {
        let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return name.hasPrefix("/") || directory.isEmpty ? name : "\(directory)/\(name)"
    }
}
