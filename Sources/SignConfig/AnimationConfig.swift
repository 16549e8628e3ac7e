import SignGraphics
import SignScene
import SignTiming

/// Reads `[[...animation]]` tables: a key path, its values (from / to / by, or keyframe
/// values, or a spring), and CAMediaTiming's timing.
extension ConfigReader {
    typealias ValueKind = AnimatableValue.Kind
    static var valueKinds: [String: ValueKind] { AnimatableValue.kinds }

    static let animationKeys: Set<String> = [
        "key_path", "from", "to", "by", "values", "key_times", "timing_functions", "calculation_mode", "duration",
        "begin_time", "speed", "time_offset", "repeat_count", "repeat_duration", "autoreverses", "fill_mode",
        "removed_on_completion", "timing_function", "additive", "cumulative", "mass", "stiffness", "damping",
        "initial_velocity",
    ]

    mutating func animations(_ t: ConfigTable, at path: String) -> [LayerAnimation] {
        tables(t, "animation", at: path).enumerated().compactMap { i, table in
            animation(table, at: "\(path.isEmpty ? "" : path + ".")animation[\(i)]")
        }
    }

    mutating func animation(_ t: ConfigTable, at path: String) -> LayerAnimation? {
        rejectUnknownKeys(t, at: path, allowed: Self.animationKeys)
        guard let keyPath = string(t, "key_path", at: path) else {
            problem("\(path).key_path", "missing: the animated property (e.g. \"locations\", \"opacity\")")
            return nil
        }
        guard let property = LayerProperty(keyPath: keyPath) else {
            problem(
                "\(path).key_path",
                "unknown key path \"\(keyPath)\"\(NearestWord.hint(Self.valueKinds.keys, for: keyPath)) (one of: \(Self.valueKinds.keys.sorted().joined(separator: ", ")))"
            )
            return nil
        }
        let kind = property.kind
        let from = value(t, "from", kind, at: path), to = value(t, "to", kind, at: path),
            by = value(t, "by", kind, at: path)
        var timing = mediaTiming(t, at: path)
        let timingFunction = self.timingFunction(t, "timing_function", at: path)

        let motion: LayerPropertyAnimation.Motion
        if let raw = t["values"] {
            guard let array = raw.array else {
                problem("\(path).values", "expected an array of \(kind.example) values")
                return nil
            }
            let values = array.enumerated().compactMap { i, v in parse(v, kind, at: "\(path).values[\(i)]") }
            guard values.count == array.count, !values.isEmpty else {
                if array.isEmpty { problem("\(path).values", "needs at least one value") }
                return nil
            }
            let keyTimes = t["key_times"].flatMap { raw -> [Double]? in
                let times = raw.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
                guard let times, times.count == raw.array?.count,
                    zip(times, times.dropFirst()).allSatisfy({ $0 <= $1 }),
                    times.allSatisfy({ (0...1).contains($0) })
                else {
                    problem("\(path).key_times", "expected non-decreasing numbers from 0 to 1")
                    return nil
                }
                return times
            }
            var functions: [TimingFunction]?
            if let raw = t["timing_functions"] {
                let list = raw.array?.compactMap { $0.string.flatMap(TimingFunction.init(parsing:)) }
                if let list, list.count == raw.array?.count, list.count == values.count - 1 {
                    functions = list
                } else {
                    problem(
                        "\(path).timing_functions", "expected \(values.count - 1) timing functions, one per segment")
                }
            }
            let mode: Keyframes<AnimatableValue>.CalculationMode = choice(t, "calculation_mode", at: path) ?? .linear
            if let keyTimes, keyTimes.count != values.count + (mode == .discrete ? 1 : 0),
                keyTimes.count != values.count
            {
                problem("\(path).key_times", "expected \(values.count) key times, one per value")
            }
            motion = .keyframes(
                Keyframes(values: values, keyTimes: keyTimes, timingFunctions: functions, calculationMode: mode))
        } else if ["mass", "stiffness", "damping", "initial_velocity"].contains(where: { t[$0] != nil }) {
            let spring = Spring(
                mass: number(t, "mass", at: path, in: 0.001...1000) ?? 1,
                stiffness: number(t, "stiffness", at: path, in: 0.001...100_000) ?? 100,
                damping: number(t, "damping", at: path, in: 0...100_000) ?? 10,
                initialVelocity: number(t, "initial_velocity", at: path, in: -100_000...100_000) ?? 0)
            if t["duration"] == nil { timing.duration = spring.settlingDuration }
            motion = .spring(BasicValues(from: from, to: to, by: by), spring)
        } else {
            motion = .basic(BasicValues(from: from, to: to, by: by))
        }
        return .property(
            PropertyAnimation(
                keyPath: property, motion: motion, timing: timing, timingFunction: timingFunction,
                isAdditive: bool(t, "additive", at: path) ?? false,
                isCumulative: bool(t, "cumulative", at: path) ?? false,
                isRemovedOnCompletion: bool(t, "removed_on_completion", at: path) ?? true))
    }

    /// CAMediaTiming's keys in `t`: `duration`, `begin_time`, `speed`, `time_offset`,
    /// `repeat_count` (a number or "infinity"), `repeat_duration`, `autoreverses`, `fill_mode`.
    mutating func mediaTiming(_ t: ConfigTable, at path: String) -> MediaTiming {
        var timing = MediaTiming()
        if let v = number(t, "duration", at: path, in: 0...86400) { timing.duration = v }
        if let v = number(t, "begin_time", at: path, in: -86400...86400) { timing.beginTime = v }
        if let v = number(t, "speed", at: path, in: -1000...1000) { timing.speed = v }
        if let v = number(t, "time_offset", at: path, in: -86400...86400) { timing.timeOffset = v }
        if let text = t["repeat_count"]?.string {
            if ["infinity", "inf", "forever"].contains(text) {
                timing.repeatCount = .infinity
            } else {
                problem("\(path).repeat_count", "\"\(text)\" is not a number or \"infinity\"")
            }
        } else if let v = number(t, "repeat_count", at: path, in: 0...1e9) {
            timing.repeatCount = v
        }
        if let v = number(t, "repeat_duration", at: path, in: 0...1e9) { timing.repeatDuration = v }
        if let v = bool(t, "autoreverses", at: path) { timing.autoreverses = v }
        if let v: FillMode = choice(t, "fill_mode", at: path) { timing.fillMode = v }
        return timing
    }

    mutating func timingFunction(_ t: ConfigTable, _ key: String, at path: String) -> TimingFunction? {
        guard let text = string(t, key, at: path) else { return nil }
        guard let f = TimingFunction(parsing: text) else {
            problem(
                join(path, key),
                "\"\(text)\" is not a timing function\(NearestWord.hint(TimingFunction.named.keys.sorted(), for: text)) (a name such as easeInEaseOut or ease-in, \"x1,y1,x2,y2\", or steps(n))"
            )
            return nil
        }
        return f
    }

    mutating func value(_ t: ConfigTable, _ key: String, _ kind: ValueKind, at path: String) -> AnimatableValue? {
        guard let raw = t[key] else { return nil }
        return parse(raw, kind, at: join(path, key))
    }

    /// One value of a key path's kind, or a problem naming the form expected.
    mutating func parse(_ raw: ConfigValue, _ kind: ValueKind, at path: String) -> AnimatableValue? {
        func numbers(_ count: Int?) -> [Double]? {
            guard let array = raw.array else { return nil }
            let values = array.compactMap { $0.double ?? $0.int.map(Double.init) }
            guard values.count == array.count, count == nil || values.count == count else { return nil }
            return values
        }
        // Animation values are checked like requests' values: finite, within the limit.
        let limit = PropertyValue.maxMagnitude
        if let n = raw.double ?? raw.int.map(Double.init), !(n.isFinite && abs(n) <= limit) {
            problem(path, "must be a finite number from -\(Int(limit)) to \(Int(limit))")
            return nil
        }
        if let array = raw.array,
            array.contains(where: { v in
                (v.double ?? v.int.map(Double.init)).map { !($0.isFinite && abs($0) <= limit) } ?? false
            })
        {
            problem(path, "numbers must be finite, from -\(Int(limit)) to \(Int(limit))")
            return nil
        }
        let parsed: AnimatableValue?
        switch kind {
        case .number: parsed = (raw.double ?? raw.int.map(Double.init)).map { .number($0) }
        case .point: parsed = numbers(2).map { .point(Point(x: $0[0], y: $0[1])) }
        case .size: parsed = numbers(2).map { .size(Size(width: $0[0], height: $0[1])) }
        case .rect: parsed = numbers(4).map { .rect(Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])) }
        case .path:
            if let text = raw.string {
                // Path data: its own problem names where in the string it went wrong.
                return pathData(text, at: path)
            }
            parsed = numbers(5).map {
                .path(RoundedRect(rect: Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]), cornerRadius: $0[4]))
            }
        case .numbers: parsed = numbers(nil).map { .numbers(NumberList($0)) }
        case .color: parsed = raw.string.flatMap(Color.init(parsing:)).map { AnimatableValue($0) }
        case .colors:
            let colors = raw.array?.compactMap { $0.string.flatMap(Color.init(parsing:)) }
            parsed = colors.flatMap {
                $0.count == raw.array?.count ? .colors(AnimatableColors(ColorList($0))) : nil
            }
        }
        if parsed == nil { problem(path, "expected \(kind.example)") }
        return parsed
    }
}
