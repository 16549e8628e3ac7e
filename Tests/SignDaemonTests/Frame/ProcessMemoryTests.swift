import Foundation
import Testing

@testable import SignDaemon

@Suite("ProcessMemory")
struct ProcessMemoryTests {
    /// Written before the release, read after: a global in a writable segment, which the
    /// release must leave alone (dropping its page would bring back the file's 0).
    nonisolated(unsafe) static var written = 0

    /// Resident pages backed by files (/proc/self/statm's third field): code among them, and
    /// none of the heap that tests running beside this one may grow meanwhile.
    static func residentFilePages() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return try #require(Int(fields[2]))
    }

    @Test("releasing code pages hands back resident code, and the code runs on")
    func releasingCodePagesLowersTheResidentSet() throws {
        let before = try Self.residentFilePages()
        let released = ProcessMemory.releaseCodePages()
        let after = try Self.residentFilePages()
        #expect(released > 0)
        #expect(after < before)
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
