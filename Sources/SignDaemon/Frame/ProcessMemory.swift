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

    /// Hands back the resident pages of code, signd's and its shared libraries': the pages
    /// start-up ran once (the argument parser, the config's reading, Foundation's and the
    /// runtime's first calls) leave the resident set, and the code that runs again is mapped
    /// again from the page cache on its first instruction (a minor fault, no I/O). The kernel
    /// maps code in 64 KB runs around each fault, so start-up's scattered calls otherwise
    /// keep most of signd's 20 MB of code resident for good (docs/performance.md). Called at
    /// steps of start-up, never in the frame path. Returns the bytes handed back.
    ///
    /// A debugger's breakpoint lives in its own copy of a code page, which this would drop:
    /// under a tracer (gdb, strace) nothing is handed back. A uprobe set before the call is
    /// still lost with its page (`tools/measure` attaches its probes after READY=1).
    @discardableResult
    public static func releaseCodePages() -> Int {
        guard !isTraced else { return 0 }
        // Each mapping of code: read and executable, private, from a file (the vDSO has no
        // file). The kernel maps exactly the segments that are executable and not writable
        // so; data, relocated data and RELRO never are. Their pages are the page cache's own,
        // unless a debugger wrote into one.
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return 0 }
        var released = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1] == "r-xp", fields[4] != "0" else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            if madvise(address, Int(end - start), MADV_DONTNEED) == 0 { released += Int(end - start) }
        }
        return released
    }

    /// Whether a debugger or tracer is attached (`TracerPid` in /proc/self/status).
    static var isTraced: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return false }
        return tracerAttached(status: status)
    }

    /// Whether a /proc/PID/status text names a tracer (`TracerPid:` other than 0).
    static func tracerAttached(status: String) -> Bool {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }) else {
            return false
        }
        return line.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces) != "0"
    }
}
