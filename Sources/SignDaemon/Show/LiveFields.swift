import Foundation
import SignConfig

/// Live fields expanded: `{time:FORMAT}` and `{date:FORMAT}` in the display's time zone,
/// `{countdown:...}` as `D days HH:MM:SS` or FORMAT with `%d %H %M %S`, and `{var:NAME}` (a
/// value set with `set-var`; empty until set); other markup is left to the rich-text pass.
/// Expanding is a pure function of the text, a wall-clock instant, the time zone and the
/// variables, so it is tested at any instant. The fields' syntax is SignConfig's
/// (LiveFieldSyntax.swift), where the config reader checks texts against it.
extension LiveFields {
    /// How often a text's fields can change their shown value.
    public enum Granularity: Int, Sendable, Comparable {
        case second = 1
        case minute = 60
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// Everything a text's fields are expanded with.
    public struct Values: Sendable {
        public var timeZone: TimeZone
        public var variables: [String: String]

        public init(timeZone: TimeZone = .current, variables: [String: String] = [:]) {
            self.timeZone = timeZone
            self.variables = variables
        }
    }

    /// Most variables `set-var` keeps.
    public static let maxVariables = 256
    /// Longest expanded text, in Unicode scalars (what `set-text` allows): a text using a long
    /// variable many times is cut there.
    public static let maxExpandedLength = 8192
    /// Before this year a clock has not been set (no RTC, no NTP yet): times show as dashes.
    static let firstSetYear = 2020

    /// How often `text`'s shown value can change without a `set-var`: nil for a text with no
    /// clock or countdown.
    public static func granularity(of text: String) -> Granularity? {
        guard text.contains("{") else { return nil }
        var finest: Granularity?
        for case .field(let field) in (try? pieces(text)) ?? [] {
            let g: Granularity?
            switch field {
            case .time(let f), .date(let f): g = showsSeconds(f) ? .second : .minute
            case .countdown(_, let f): g = f.map { showsSeconds($0) ? .second : .minute } ?? .second
            case .variable: g = nil
            }
            if let g { finest = min(finest ?? g, g) }
        }
        return finest
    }

    /// Whether a strftime format shows seconds (or something finer than minutes).
    static func showsSeconds(_ format: String) -> Bool {
        var percent = false
        for c in format.unicodeScalars {
            if percent {
                if "STsrcX+".unicodeScalars.contains(c) { return true }
                if c == "%" || !"EO_-0^#".unicodeScalars.contains(c) { percent = false }
                continue
            }
            percent = c == "%"
        }
        return false
    }

    /// The first instant after `date` at which a text of `granularity` can change: the next
    /// whole second or minute of Unix time (every time zone in use today is whole minutes
    /// from UTC, so the local minute turns then too).
    public static func nextChange(after date: Date, granularity: Granularity) -> Date {
        let step = Double(granularity.rawValue)
        let t = date.timeIntervalSince1970
        return Date(timeIntervalSince1970: ((t / step).rounded(.down) + 1) * step)
    }

    /// `text` with its fields expanded at `date`; a field's value is shown as written
    /// (its braces doubled, so a variable cannot add markup). A text with a malformed field
    /// is returned as it is.
    public static func expand(_ text: String, at date: Date, _ values: Values) -> String {
        guard text.contains("{"), let pieces = try? pieces(text),
            pieces.contains(where: { if case .field = $0 { true } else { false } })
        else { return text }
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let s): out += s
            case .field(let field):
                out += value(of: field, at: date, values).replacingOccurrences(of: "{", with: "{{")
            }
        }
        if out.unicodeScalars.count > maxExpandedLength {
            out = String(String.UnicodeScalarView(out.unicodeScalars.prefix(maxExpandedLength)))
        }
        return out
    }

    /// A field's value at `date`.
    static func value(of field: Field, at date: Date, _ values: Values) -> String {
        switch field {
        case .time(let format), .date(let format):
            return clock(format, at: date, in: values.timeZone)
        case .countdown(let target, let format):
            return countdown(to: target, at: date, format: format)
        case .variable(let name):
            return values.variables[name] ?? ""
        }
    }

    /// `format` by strftime for `date` in `zone`, digits as dashes while the clock is unset.
    static func clock(_ format: String, at date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        var tm = tm()
        tm.tm_year = Int32((c.year ?? 1970) - 1900)
        tm.tm_mon = Int32((c.month ?? 1) - 1)
        tm.tm_mday = Int32(c.day ?? 1)
        tm.tm_hour = Int32(c.hour ?? 0)
        tm.tm_min = Int32(c.minute ?? 0)
        tm.tm_sec = Int32(c.second ?? 0)
        tm.tm_wday = Int32((c.weekday ?? 1) - 1)
        tm.tm_yday = Int32((calendar.ordinality(of: .day, in: .year, for: date) ?? 1) - 1)
        tm.tm_isdst = zone.isDaylightSavingTime(for: date) ? 1 : 0
        tm.tm_gmtoff = zone.secondsFromGMT(for: date)
        let abbreviation = format.contains("%Z") ? Self.abbreviation(of: zone, at: date) : ""
        var buffer = [CChar](repeating: 0, count: 256)
        let count = abbreviation.withCString { zoneName in
            tm.tm_zone = zoneName
            return strftime(&buffer, buffer.count, format, &tm)
        }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard (c.year ?? 0) >= firstSetYear else {
            return String(text.map { $0.isASCII && $0.isNumber ? "-" : $0 })
        }
        return text
    }

    /// The zone's short name at `date` for `%Z`: ICU's English names (EST, CEST, BST), which
    /// are the tz database's where ICU has one, else its `GMT+9` form.
    static func abbreviation(of zone: TimeZone, at date: Date) -> String {
        if ["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Zulu", "Etc/Zulu"].contains(zone.identifier) { return "UTC" }
        let style: NSTimeZone.NameStyle = zone.isDaylightSavingTime(for: date) ? .shortDaylightSaving : .shortStandard
        var fallback: String?
        for locale in ["en_US", "en_GB"] {
            guard let name = zone.localizedName(for: style, locale: Locale(identifier: locale)) else { continue }
            if !name.hasPrefix("GMT") || name == "GMT" && zone.secondsFromGMT(for: date) == 0 { return name }
            fallback = fallback ?? name
        }
        return fallback ?? zone.abbreviation(for: date) ?? ""
    }

    /// The time from `date` to `target` (none once it has passed): `D days HH:MM:SS`, or
    /// `format` with `%d` days, `%H` hours (of the day), `%M`, `%S` and `%%`.
    static func countdown(to target: Date, at date: Date, format: String?) -> String {
        let left = max(0, Int(target.timeIntervalSince(date).rounded(.up)))
        let (d, h, m, s) = (left / 86400, left / 3600 % 24, left / 60 % 60, left % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        guard let format else { return "\(d) \(d == 1 ? "day" : "days") \(two(h)):\(two(m)):\(two(s))" }
        var out = ""
        var percent = false
        for c in format {
            if percent {
                switch c {
                case "d": out += "\(d)"
                case "H": out += two(h)
                case "M": out += two(m)
                case "S": out += two(s)
                case "%": out += "%"
                default: out += "%\(c)"
                }
                percent = false
            } else if c == "%" {
                percent = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
