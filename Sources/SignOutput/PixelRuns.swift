/// A pixel map as runs: LEDs in a row of the map whose frame pixels step evenly (a panel's
/// row or column, forwards or back) or that are all black. Built once per map, so the
/// frame pass walks a pointer along each run instead of reading every LED's pixel index
/// and checking it.
struct PixelRuns: Sendable {
    struct Run: Sendable {
        /// The first LED of the run and how many follow.
        var led: Int
        var count: Int
        /// The first LED's frame pixel, or -1: the run is black.
        var pixel: Int
        /// From one LED's pixel to the next one's.
        var step: Int
    }

    let runs: [Run]
    /// Pixels a frame needs for every run to lie inside it (the largest index plus 1).
    let pixelsNeeded: Int

    /// nil when the map breaks into runs shorter than 8 LEDs on average (a scattered map
    /// goes LED by LED).
    init?(_ source: [Int32]) {
        var runs: [Run] = []
        var needed = 0
        var i = 0
        let n = source.count
        while i < n {
            let first = Int(source[i])
            var j = i + 1
            if first < 0 {
                while j < n, source[j] < 0 { j += 1 }
                runs.append(Run(led: i, count: j - i, pixel: -1, step: 0))
            } else {
                let step = j < n && source[j] >= 0 ? Int(source[j]) - first : 0
                while j < n, source[j] >= 0, Int(source[j]) == Int(source[j - 1]) + step { j += 1 }
                runs.append(Run(led: i, count: j - i, pixel: first, step: step))
                needed = max(needed, first + 1, first + step * (j - i - 1) + 1)
            }
            i = j
            if runs.count > max(16, n / 8) { return nil }
        }
        self.runs = runs
        self.pixelsNeeded = needed
    }

    /// The run that holds `led` (which must be one of the map's LEDs).
    func index(of led: Int) -> Int {
        runs.withUnsafeBufferPointer { Self.index(of: led, in: $0) }
    }

    /// The run of `runs` that holds `led`.
    static func index(of led: Int, in runs: UnsafeBufferPointer<Run>) -> Int {
        var low = 0, high = runs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if runs[mid].led <= led { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
