import Foundation
import Testing

@testable import SignDaemon

@Suite("ProcessMemory", .serialized)
struct ProcessMemoryTests {
    /// Written before the release, read after: a global in a writable segment, which the
    /// release must leave alone (dropping its page would bring back the file's 0).
    nonisolated(unsafe) static var written = 0

    /// Resident kilobytes of the code mappings (read and executable, private, from a file),
    /// summed from /proc/self/smaps: the kernel counts those by walking the page tables, where
    /// /proc/self/statm's counters are per-CPU sums read without their pending deltas, so a
    /// release could read as no change; and only code, not the heap that tests running beside
    /// this one may grow meanwhile.
    static func residentCodeKilobytes() throws -> Int {
        let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        var total = 0, inCode = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
                inCode = fields[1] == "r-xp" && fields[4] != "0"
            } else if inCode, fields.count >= 2, fields[0] == "Rss:", let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }

    @Test("releasing code pages hands back resident code, and the code runs on")
    func releasingCodePagesLowersTheResidentSet() throws {
        let before = try Self.residentCodeKilobytes()
        let released = ProcessMemory.releaseCodePages()
        let after = try Self.residentCodeKilobytes()
        #expect(released > 0)
        #expect(before > 0 && after < before, "code resident before \(before) kB, after \(after) kB")
        // Code mapped again on its first instruction: a computation after the release.
        #expect((1...100).reduce(0, +) == 5050)
    }

    @Test("releasing code pages leaves data alone: globals and the heap keep what was written")
    func releasingCodePagesKeepsData() {
        Self.written = 4242
        let heap = Array(repeating: UInt8(7), count: 1 << 20)
        ProcessMemory.releaseCodePages()
        #expect(Self.written == 4242)
        #expect(heap.allSatisfy { $0 == 7 })
    }

    @Test("a debugger's breakpoints are kept: under a tracer no code page is handed back")
    func tracerIsRecognised() {
        #expect(ProcessMemory.tracerAttached(status: "Name:\tsignd\nTracerPid:\t4711\nUid:\t0\n"))
        #expect(!ProcessMemory.tracerAttached(status: "Name:\tsignd\nTracerPid:\t0\nUid:\t0\n"))
        #expect(!ProcessMemory.tracerAttached(status: "Name:\tsignd\n"))
        #expect(!ProcessMemory.isTraced)
    }
}
