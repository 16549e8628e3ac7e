import Glibc

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
