/// One `[[schedule]]` entry: on `days` (1 Sunday ... 7 Saturday), from `from` to `to`
/// (seconds after midnight; `to` before `from` runs past midnight into the next day; neither:
/// all day). ShowSchedule (in SignDaemon) finds the entry in effect at an instant.
public struct ScheduleEntry: Sendable, Equatable {
    /// What the entry shows: a `[[playlist]]` by name, or a scene file.
    public enum Target: Sendable, Equatable {
        case playlist(String)
        case scene(String)
    }

    public var days: Set<Int>
    public var from: Int?
    public var to: Int?
    public var target: Target

    public init(days: Set<Int> = Set(1...7), from: Int? = nil, to: Int? = nil, target: Target) {
        self.days = days
        self.from = from
        self.to = to
        self.target = target
    }

    /// Day names and ranges (`"mon-fri"`, `"sat"`, `"fri-mon"`, `"daily"`) to weekdays
    /// (1 Sunday ... 7 Saturday); `nil` when a word is not a day.
    public static func days(_ words: [String]) -> Set<Int>? {
        let names = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]
        var days = Set<Int>()
        for word in words {
            let w = word.lowercased()
            if w == "daily" || w == "all" {
                days.formUnion(1...7)
                continue
            }
            let ends = w.split(separator: "-", omittingEmptySubsequences: false).map { names[String($0)] }
            guard (1...2).contains(ends.count), let first = ends[0], let last = ends[ends.count - 1] else {
                return nil
            }
            var d = first
            while true {
                days.insert(d)
                if d == last { break }
                d = d % 7 + 1
            }
        }
        return days
    }
}
