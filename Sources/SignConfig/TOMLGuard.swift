/// Checks a config's text before TOMLKit parses it, for the few inputs on which its bundled
/// toml++ asserts (and so aborts signd) instead of reporting an error, and for nesting deep
/// enough to exhaust the stack: a table header whose key does not start like a key, a
/// closing brace where an array expects a value, a date followed by a space and a lone digit,
/// a character beyond ASCII outside strings and comments, and arrays, inline tables or dotted keys nested past `maxDepth`; and for a NUL
/// written as an escape (`\u0000`), which TOMLKit would silently cut the string at, so that
/// `node_id = "ab\u0000+"` would be read as `ab`. Everything else is left to the parser, which
/// reports it as a syntax error.
enum TOMLGuard {
    /// Deepest nesting of arrays and inline tables, and most segments in a dotted key.
    static let maxDepth = 32
    /// Largest config or scene file read, in bytes.
    static let maxFileSize = 1 << 20

    /// A problem with `source` that the parser must not see, with its line and whether it is
    /// inside a string (so a key's value); `nil` when none.
    static func check(_ source: String) -> (line: Int, message: String, inString: Bool)? {
        let bytes = Array(source.utf8)
        guard bytes.count <= maxFileSize else {
            return (1, "the file is larger than \(maxFileSize / 1024) KiB", false)
        }
        if let nul = bytes.firstIndex(of: 0) {
            return (line(of: nul, in: bytes), "the file contains a NUL byte", false)
        }
        var i = 0
        var line = 1
        /// The arrays (`[`) and inline tables (`{`) open around the current position.
        var open: [UInt8] = []
        var depth: Int { open.count }
        var atLineStart = true
        /// Set when a string holds an escaped NUL: the refusal `check` returns.
        var refusal: (line: Int, message: String, inString: Bool)?
        func peek(_ k: Int) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }
        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= bytes.count && Array(bytes[i..<(i + u.count)]) == u
        }
        /// Skips a string starting at `i`; false when it does not end (the parser reports that).
        func skipString() -> Bool {
            let quote = bytes[i]
            let triple = starts(quote == UInt8(ascii: "\"") ? "\"\"\"" : "'''")
            i += triple ? 3 : 1
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\n") {
                    guard triple else { return false }
                    line += 1
                } else if c == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                    if starts("\\u0000") || starts("\\U00000000") {
                        refusal = (
                            line,
                            "a string holds a NUL character (\\u0000), which no value may contain: "
                                + "the text after it would be lost", true
                        )
                        return false
                    }
                    i += 2
                    continue
                } else if c == quote {
                    if !triple {
                        i += 1
                        return true
                    }
                    if starts(quote == UInt8(ascii: "\"") ? "\"\"\"" : "'''") {
                        i += 3
                        // Up to two more quotes may close a multi-line string.
                        while i < bytes.count, bytes[i] == quote { i += 1 }
                        return true
                    }
                }
                i += 1
            }
            return false
        }
        /// Counts a key's dotted parts from `i` up to `end` or the line's end, quoted parts
        /// skipped whole; `nil` when a quoted part does not end.
        func keyParts(endingAt end: UInt8) -> Int? {
            var parts = 1
            while i < bytes.count, bytes[i] != end, bytes[i] != UInt8(ascii: "\n") {
                if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    guard skipString() else { return nil }
                    continue
                }
                if bytes[i] == UInt8(ascii: ".") { parts += 1 }
                i += 1
            }
            return parts
        }
        while i < bytes.count {
            // Outside strings and comments TOML is ASCII (a byte-order mark may open the file);
            // toml++ asserts on some characters beyond it where a key or value should be.
            if bytes[i] >= 0x80 {
                if i == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    i = 3
                    continue
                }
                return (line, "TOML syntax: a character beyond ASCII outside a string or comment", false)
            }
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\n"):
                line += 1
                i += 1
                atLineStart = true
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
                continue
            case UInt8(ascii: "#"):
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            case UInt8(ascii: "[") where atLineStart && depth == 0:
                // A table header: `[key]` or `[[key]]`.
                i += 1
                if peek(0) == UInt8(ascii: "[") { i += 1 }
                while let s = peek(0), s == UInt8(ascii: " ") || s == UInt8(ascii: "\t") { i += 1 }
                guard let first = peek(0) else { return nil }
                guard
                    isBareKey(first) || first == UInt8(ascii: "\"") || first == UInt8(ascii: "'")
                        || first == UInt8(ascii: "]")
                else {
                    return (
                        line,
                        "TOML syntax: a table header must start with a key, not \"\(Character(Unicode.Scalar(first)))\"",
                        false
                    )
                }
                guard let segments = keyParts(endingAt: UInt8(ascii: "]")) else { return refusal }
                if segments > maxDepth { return (line, "TOML: table names are limited to \(maxDepth) dotted parts", false) }
                while i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1 }
            case _ where atLineStart && depth == 0:
                // A key (`a.b.c = 1` nests tables as deeply as a header does): its dotted parts
                // are counted once, up to the `=`.
                guard let segments = keyParts(endingAt: UInt8(ascii: "=")) else { return refusal }
                if segments > maxDepth { return (line, "TOML: dotted keys are limited to \(maxDepth) parts", false) }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard skipString() else { return refusal }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(c)
                if open.count > maxDepth {
                    return (line, "TOML: arrays and inline tables are limited to \(maxDepth) levels of nesting", false)
                }
                i += 1
            case UInt8(ascii: "}") where open.last == UInt8(ascii: "["):
                // Where an array expects a value, the parser asserts on a closing brace.
                return (line, "TOML syntax: \"}\" inside an array, where a value or \"]\" belongs", false)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                _ = open.popLast()
                i += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where i == 0 || valueOpeners.contains(bytes[i - 1]):
                if isDateThenLoneDigit(bytes, at: i) {
                    return (line, "TOML syntax: a date followed by a space and a single digit (a time needs hh:mm:ss)", false)
                }
                i += 1
            default:
                i += 1
            }
            atLineStart = false
        }
        return nil
    }

    /// Bytes after which a value may start.
    private static let valueOpeners: Set<UInt8> = Set(" \t=[{,".utf8)

    /// Whether a value at `start` is ten characters shaped like a date (`-` fifth and eighth,
    /// underscores not counted, any character beyond ASCII counted once), a space, one digit and then a value's end: toml++ looks past the
    /// space for a time and asserts at that end instead of reporting it.
    private static func isDateThenLoneDigit(_ bytes: [UInt8], at start: Int) -> Bool {
        func ends(_ c: UInt8) -> Bool { " \t\r\n],}#".utf8.contains(c) }
        var chars: [UInt8] = []
        var j = start
        while j < bytes.count, !ends(bytes[j]), chars.count <= 10 {
            // Characters, not bytes: a UTF-8 continuation byte adds none.
            if bytes[j] != UInt8(ascii: "_") && bytes[j] & 0xC0 != 0x80 { chars.append(bytes[j]) }
            j += 1
        }
        guard chars.count == 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-") else { return false }
        guard j + 2 < bytes.count, bytes[j] == UInt8(ascii: " ") else { return false }
        let digit = bytes[j + 1]
        return digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") && ends(bytes[j + 2])
    }

    static func isBareKey(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    private static func line(of index: Int, in bytes: [UInt8]) -> Int {
        bytes[..<index].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}
