import Glibc

/// CLOCK_REALTIME minus CLOCK_MONOTONIC, in nanoseconds: how to turn a wall-clock instant
/// into a frame deadline. Read between two monotonic readings, the closest pair of three.
public enum RealtimeOffset {
    public static func now() -> Int64 {
        var best: (gap: UInt64, offset: Int64) = (.max, 0)
        for _ in 0..<3 {
            var a = timespec(), r = timespec(), b = timespec()
            clock_gettime(CLOCK_MONOTONIC, &a)
            clock_gettime(CLOCK_REALTIME, &r)
            clock_gettime(CLOCK_MONOTONIC, &b)
            let ma = Int64(a.tv_sec) * 1_000_000_000 + Int64(a.tv_nsec)
            let mb = Int64(b.tv_sec) * 1_000_000_000 + Int64(b.tv_nsec)
            let real = Int64(r.tv_sec) * 1_000_000_000 + Int64(r.tv_nsec)
            let gap = UInt64(mb - ma)
            if gap < best.gap { best = (gap, real - (ma + (mb - ma) / 2)) }
        }
        return best.offset
    }
}
