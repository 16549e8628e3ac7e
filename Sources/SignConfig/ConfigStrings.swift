/// Control characters in a config's strings. A name, path, topic or choice with one in it is
/// never what its writer meant (a `node_id` of `"ab\u0001"`, a `socket` path with a newline),
/// and it would reach logs, topics and file names unseen; only free text (`text`, which a
/// sign shows on one line with each control character as a space) may hold them. A NUL never
/// gets this far: `TOMLGuard` refuses it in the file's text, where it is still whole.
extension ConfigReader {
    /// Keys whose strings are free text shown on the board.
    static let freeTextKeys: Set<String> = ["text"]

    /// Adds a problem for every string, and every key, in `table` (at `path`) that holds a
    /// control character (U+0000 to U+001F, U+007F to U+009F), free text apart.
    mutating func refuseControlCharacters(in table: ConfigTable, at path: String) {
        for key in table.keys {
            let full = join(path, key)
            if let bad = Self.firstControlCharacter(in: key) {
                problem(path.isEmpty ? "-" : path, "the key \(Self.escaped(key)) holds the control character \(bad)")
                continue
            }
            refuseControlCharacters(in: table[key]!, at: full, freeText: Self.freeTextKeys.contains(key))
        }
    }

    private mutating func refuseControlCharacters(in value: ConfigValue, at path: String, freeText: Bool) {
        switch value {
        case .string(let s):
            guard !freeText, let bad = Self.firstControlCharacter(in: s) else { return }
            problem(
                path,
                "\(Self.escaped(s)) holds the control character \(bad): names, paths, topics and choices take printable characters only"
            )
        case .array(let items):
            for (i, item) in items.enumerated() {
                refuseControlCharacters(in: item, at: "\(path)[\(i)]", freeText: freeText)
            }
        case .table(let t):
            refuseControlCharacters(in: t, at: path)
        case .integer, .float, .boolean, .dateTime:
            return
        }
    }

    /// The first control character of `s`, as `U+XXXX`; `nil` when it has none.
    static func firstControlCharacter(in s: String) -> String? {
        guard let scalar = s.unicodeScalars.first(where: isControl) else { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `s` quoted, with control characters written as `\u{XX}` so a problem prints on one line.
    static func escaped(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
