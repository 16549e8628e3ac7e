import CMalloc
import Foundation
import Glibc

/// How much memory signd holds: what the kernel counts (resident set) and what is
/// allocated and not yet freed (the heap in use). The resident set also holds the pages
/// glibc keeps in each thread's arena for reuse, so it steps up and down with the work of
/// the moment; the heap in use moves only with what signd keeps, which makes it the
/// measure of a leak.
public struct ProcessMemory: Sendable, Equatable {
    public var residentBytes: Int
    public var heapInUseBytes: Int

    /// Now, from /proc/self/statm and glibc's mallinfo2.
    public static func current() -> ProcessMemory {
        var resident = 0
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { resident = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        let info = mallinfo2()
        return ProcessMemory(residentBytes: resident, heapInUseBytes: Int(info.uordblks + info.hblkhd))
    }

    /// Most malloc arenas signd's threads share. glibc gives each thread that meets a locked
    /// arena a new one, up to eight per core, and each keeps the pages its frees leave; for a
    /// daemon whose frame path allocates nothing, two are plenty.
    public static let maxArenas: Int32 = 2

    /// Limits glibc to `maxArenas` arenas; call before the threads start.
    public static func limitArenas() { _ = mallopt(M_ARENA_MAX, maxArenas) }

    /// Hands the free pages inside every arena back to the kernel (glibc trims only the top
    /// of an arena on its own, so pages freed below live allocations stay resident).
    public static func releaseFreePages() { _ = malloc_trim(0) }
}
