import Foundation
import SignScene

/// `[[playlist]]`: texts or scene files shown one after another on a layer, each for its
/// loops or its duration, round and round.
public struct Playlist: Sendable, Equatable {
    /// One item: a text (fields and markup allowed) or a scene file.
    public struct Item: Sendable, Equatable {
        public enum Content: Sendable, Equatable {
            case text(String)
            /// A config file's layers (a path as `load-scene` takes it).
            case scene(String)
        }

        public var content: Content
        /// Seconds shown; `nil`: its loops (a text that does not scroll, and a scene: 5 s a loop).
        public var duration: Double?
        public var loops: Int

        public init(_ content: Content, duration: Double? = nil, loops: Int = 1) {
            self.content = content
            self.duration = duration
            self.loops = loops
        }

        /// The item as `status` and the `playlist-item` event name it: its text or scene path.
        public var label: String {
            switch content {
            case .text(let t): return t
            case .scene(let path): return path
            }
        }
    }

    public var name: String
    /// The layer a text item is shown on; `nil`: the main layer.
    public var layer: String?
    /// How one item gives way to the next; `nil`: the layer's own transition.
    public var transition: Transition.Kind?
    public var items: [Item]

    public init(name: String, layer: String? = nil, transition: Transition.Kind? = nil, items: [Item]) {
        self.name = name
        self.layer = layer
        self.transition = transition
        self.items = items
    }

    /// Seconds a loop of an item lasts when it does not scroll.
    public static let standingLoop = 5.0
}

/// `[[schedule]]`: which playlist or scene the board shows by day of the week and time of day,
/// in the display's time zone. The first entry that matches wins; with none, the config's own
/// layers. A pure function of the entries, the time zone and a wall-clock instant.
public struct ShowSchedule: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case playlist(String)
        case scene(String)
    }

    /// One entry: on `days` (1 Sunday ... 7 Saturday), from `from` to `to` (seconds after
    /// midnight; `to` before `from` runs past midnight into the next day; neither: all day).
    public struct Entry: Sendable, Equatable {
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

        /// Whether the entry covers a moment `seconds` into a local day that is `weekday`.
        func covers(weekday: Int, seconds: Int) -> Bool {
            let start = from ?? 0, end = to ?? 86400
            if start < end { return days.contains(weekday) && seconds >= start && seconds < end }
            if start == end { return days.contains(weekday) }
            // Past midnight: the evening belongs to the day it starts on, the small hours too.
            let yesterday = weekday == 1 ? 7 : weekday - 1
            return (days.contains(weekday) && seconds >= start) || (days.contains(yesterday) && seconds < end)
        }
    }

    public let entries: [Entry]
    public let timeZone: TimeZone

    public init(entries: [Entry], timeZone: TimeZone) {
        self.entries = entries
        self.timeZone = timeZone
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The index of the entry in effect at `date`: the first that covers it.
    public func entry(at date: Date) -> Int? {
        let (weekday, seconds) = LocalDay(timeZone).clock(at: date)
        return entries.firstIndex { $0.covers(weekday: weekday, seconds: seconds) }
    }

    /// The next instant after `date` at which an entry begins or ends (or a day turns), where
    /// what is in effect may change.
    public func nextBoundary(after date: Date) -> Date? {
        guard !entries.isEmpty else { return nil }
        let day = LocalDay(timeZone)
        var best: Date?
        for offset in 0...1 {
            let midnight = day.midnight(offset, from: date)
            var times: Set<Int> = [0]
            for entry in entries {
                if let from = entry.from { times.insert(from) }
                if let to = entry.to { times.insert(to) }
            }
            for seconds in times {
                let instant = day.instant(seconds, onDayStarting: midnight)
                if instant > date, best.map({ instant < $0 }) ?? true { best = instant }
            }
        }
        return best
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
