import Glibc

/// The distribution of frame lateness over a whole run in constant memory: logarithmic
/// buckets (16 per doubling, so quantiles are within about 4.4 %), and an exact maximum.
public struct LatenessHistogram: Sendable {
    private static let bucketsPerDoubling = 16.0
    private static let bucketCount = 16 * 40
    private var buckets = [UInt64](repeating: 0, count: LatenessHistogram.bucketCount)
    public private(set) var count: UInt64 = 0
    /// The largest lateness recorded, in nanoseconds.
    public private(set) var max: UInt64 = 0
    /// Every lateness recorded, added up, in nanoseconds.
    public private(set) var sum: UInt64 = 0

    public init() {}

    private static func bucket(_ ns: UInt64) -> Int {
        guard ns > 1 else { return 0 }
        return Swift.min(Int((log2(Double(ns)) * bucketsPerDoubling).rounded(.down)), bucketCount - 1)
    }

    /// Records one frame's lateness.
    public mutating func record(_ ns: UInt64) {
        buckets[Self.bucket(ns)] += 1
        count += 1
        sum &+= ns
        max = Swift.max(max, ns)
    }

    /// Frames whose lateness fell in buckets wholly at or below `ns` nanoseconds: a
    /// Prometheus bucket's count, low by at most the one bucket `ns` falls in (4.4 % wide).
    public func count(atMost ns: UInt64) -> UInt64 {
        var seen: UInt64 = 0
        for (i, n) in buckets.enumerated() {
            guard exp2(Double(i + 1) / Self.bucketsPerDoubling) <= Double(ns) else { break }
            seen += n
        }
        return seen
    }

    /// The lateness below which a fraction `q` of frames fell (the bucket's upper bound,
    /// never above the maximum), in nanoseconds; 0 before any frame.
    public func quantile(_ q: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = UInt64((Double(count) * q).rounded(.up))
        var seen: UInt64 = 0
        for (i, n) in buckets.enumerated() {
            seen += n
            if seen >= Swift.max(rank, 1) {
                let upper = UInt64(exp2(Double(i + 1) / Self.bucketsPerDoubling))
                return Swift.min(upper, max)
            }
        }
        return max
    }
}
