import Foundation
import SignControl

/// Live fields in a text, as written: `{time:FORMAT}` and `{date:FORMAT}` (strftime),
/// `{countdown:INSTANT}` or `{countdown:INSTANT,FORMAT}` (an ISO-8601 instant) and
/// `{var:NAME}`; `{{` stays a literal brace. This is their syntax, which the config reader
/// checks texts against; expanding them at an instant is the daemon's (LiveFields.swift in
/// SignDaemon).
public enum LiveFields {
    /// One field, as written.
    public enum Field: Sendable, Equatable {
        case time(String)
        case date(String)
        case countdown(to: Date, format: String?)
        case variable(String)
    }

    /// Longest strftime format of a field.
    public static let maxFormatLength = 64

    /// Why a field is not one signd can show.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The field's kind and the problem (never the rest of the text).
        public let description: String
    }

    /// A piece of a text: as written, or a field.
    package enum Piece: Equatable {
        case literal(Substring)
        case field(Field)
    }

    private static let kinds = ["time:", "date:", "countdown:", "var:"]

    /// The text cut into literal pieces and fields; a malformed field is a problem.
    package static func pieces(_ text: String) throws(Problem) -> [Piece] {
        guard text.contains("{") else { return [.literal(text[...])] }
        var pieces: [Piece] = []
        var literalStart = text.startIndex
        var i = text.startIndex
        while let open = text[i...].firstIndex(of: "{") {
            let next = text.index(after: open)
            if next < text.endIndex, text[next] == "{" {
                i = text.index(after: next)
                continue
            }
            guard let kind = kinds.first(where: { text[next...].hasPrefix($0) }),
                let close = text[next...].firstIndex(of: "}")
            else {
                i = next
                continue
            }
            let argument = String(text[text.index(next, offsetBy: kind.count)..<close])
            if literalStart < open { pieces.append(.literal(text[literalStart..<open])) }
            pieces.append(.field(try field(kind: kind, argument)))
            i = text.index(after: close)
            literalStart = i
        }
        if literalStart < text.endIndex { pieces.append(.literal(text[literalStart...])) }
        return pieces
    }

    private static func field(kind: String, _ argument: String) throws(Problem) -> Field {
        switch kind {
        case "time:", "date:":
            guard !argument.isEmpty, argument.utf8.count <= maxFormatLength else {
                throw Problem(description: "a {\(kind)...} field needs a format of 1 to \(maxFormatLength) bytes")
            }
            return kind == "time:" ? .time(argument) : .date(argument)
        case "countdown:":
            let parts = argument.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            guard let date = instant(String(parts[0])) else {
                throw Problem(
                    description: "a {countdown:...} field needs an ISO-8601 instant such as 2026-12-24T18:00:00+01:00")
            }
            let format = parts.count > 1 ? String(parts[1]) : nil
            if let format, format.isEmpty || format.utf8.count > maxFormatLength {
                throw Problem(description: "a {countdown:...} format must be 1 to \(maxFormatLength) bytes")
            }
            return .countdown(to: date, format: format)
        default:
            guard Request.SetVar.isValidName(argument) else {
                throw Problem(description: "a {var:NAME} field needs a name of 1 to 64 of A-Z a-z 0-9 _ . -")
            }
            return .variable(argument)
        }
    }

    /// Parses an ISO-8601 instant with its offset (`Z` or `+01:00`), seconds optional.
    public static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        // Without seconds: 2026-12-24T18:00+01:00 or 2026-12-24T18:00Z.
        let u = Array(text.utf8)
        if u.count == 17 || u.count == 22, u.count > 16, u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"),
            u[16] == UInt8(ascii: "Z") || u[16] == UInt8(ascii: "+") || u[16] == UInt8(ascii: "-")
        {
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.date(from: String(text.prefix(16)) + ":00" + text.dropFirst(16))
        }
        return nil
    }

    /// The problems of `text`'s fields (empty: every field can be shown).
    public static func problems(in text: String) -> [Problem] {
        do {
            _ = try pieces(text)
            return []
        } catch {
            return [error]
        }
    }

    /// Whether `text` has any field.
    public static func hasFields(_ text: String) -> Bool {
        guard text.contains("{") else { return false }
        return ((try? pieces(text)) ?? []).contains { if case .field = $0 { true } else { false } }
    }

    /// Names of the variables `text` shows.
    public static func variables(in text: String) -> Set<String> {
        guard text.contains("{var:") else { return [] }
        return Set(((try? pieces(text)) ?? []).compactMap { if case .field(.variable(let n)) = $0 { n } else { nil } })
    }
}
