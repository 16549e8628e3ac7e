import Glibc

/// CLOCK_MONOTONIC, in nanoseconds: the clock every frame deadline is on.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

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

/// The calling thread's CPU time and voluntary context switches (`getrusage(RUSAGE_THREAD)`):
/// what the frame clock needs to tell its own work from waiting for a CPU.
struct ThreadUsage {
    var cpuNanoseconds: UInt64
    var voluntarySwitches: Int

    static func now() -> ThreadUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, which Glibc does not import by name
        let micros =
            (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
            + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
        return ThreadUsage(cpuNanoseconds: UInt64(max(0, micros)) * 1000, voluntarySwitches: usage.ru_nvcsw)
    }
}
