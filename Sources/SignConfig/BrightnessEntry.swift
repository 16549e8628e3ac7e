/// One `[[brightness]]` entry: every day from `at` (seconds after local midnight, in the
/// display's time zone) the brightness moves to `value` over `fade` seconds (0: a step).
/// BrightnessSchedule (in SignDaemon) gives the level at an instant.
public struct BrightnessEntry: Sendable, Equatable {
    public var at: Int
    public var value: Double
    public var fade: Double

    public init(at: Int, value: Double, fade: Double = 0) {
        self.at = at
        self.value = value
        self.fade = fade
    }
}

extension ConfigReader {
    /// Parses `HH:MM` or `HH:MM:SS` (00:00 to 23:59:59) to seconds after midnight.
    static func timeOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2]) : 0
        guard let s, (0..<60).contains(s) else { return nil }
        return h * 3600 + m * 60 + s
    }
}
