/// Maps key paths of a TOML document to the lines that define them, so config problems can
/// name a line (TOMLKit reports lines only for syntax errors).
struct TOMLKeyLines {
    private(set) var lines: [String: Int] = [:]

    init(source: String) {
        var prefix = ""
        // The last index of each array of tables, by resolved path (`layer`, `layer[0].animation`).
        var arrays: [String: Int] = [:]
        for (n, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("[") {
                let isArray = line.hasPrefix("[[")
                let name = Self.unquote(line.drop { $0 == "[" }.prefix { $0 != "]" })
                // Each segment names the latest element when it is an array of tables.
                var resolved = ""
                let segments = name.split(separator: ".").map(String.init)
                for (i, segment) in segments.enumerated() {
                    let candidate = resolved.isEmpty ? segment : "\(resolved).\(segment)"
                    if i == segments.count - 1 && isArray {
                        let index = (arrays[candidate] ?? -1) + 1
                        arrays[candidate] = index
                        resolved = "\(candidate)[\(index)]"
                    } else if let index = arrays[candidate] {
                        resolved = "\(candidate)[\(index)]"
                    } else {
                        resolved = candidate
                    }
                }
                prefix = resolved
                lines[prefix] = n + 1
            } else if let equals = line.firstIndex(of: "=") {
                let key = Self.unquote(line[..<equals])
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if lines[path] == nil { lines[path] = n + 1 }
            }
        }
    }

    /// The key path defined on `line` (the last one when several are), if any: what a problem
    /// found in the text before parsing names.
    func key(at line: Int) -> String? {
        lines.filter { $0.value == line }.keys.max { $0.count < $1.count }
    }

    /// The line of a key, else of its nearest enclosing table, else 1.
    func line(of path: String) -> Int {
        var path = path
        while true {
            if let line = lines[path] { return line }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return 1 }
            path = String(path[..<cut])
        }
    }

    private static func unquote(_ s: Substring) -> String {
        s.trimmingCharacters(in: " \t").split(separator: ".").map {
            $0.trimmingCharacters(in: " \t\"'")
        }.joined(separator: ".")
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
