/// Maps key paths of a TOML document to the lines that define them, so config problems can
/// name a line (TOMLKit reports lines only for syntax errors).
struct TOMLKeyLines {
    private(set) var lines: [String: Int] = [:]

    init(source: String) {
        var prefix = ""
        var arrayCounts: [String: Int] = [:]
        for (n, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("[[") {
                let name = Self.unquote(line.dropFirst(2).prefix { $0 != "]" })
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                prefix = "\(name)[\(index)]"
                lines[prefix] = n + 1
            } else if line.hasPrefix("[") {
                prefix = Self.unquote(line.dropFirst().prefix { $0 != "]" })
                lines[prefix] = n + 1
            } else if let equals = line.firstIndex(of: "=") {
                let key = Self.unquote(line[..<equals])
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if lines[path] == nil { lines[path] = n + 1 }
            }
        }
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
