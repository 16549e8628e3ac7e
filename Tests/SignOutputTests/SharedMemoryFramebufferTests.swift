import Foundation
import SignGraphics
import Testing

@testable import SignOutput

/// Runs tools/shm-read.py, the reader written from docs/contracts.md alone, in its own process.
func contractReader(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tools")
        .standardized
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [tools.appendingPathComponent("shm-read.py").path] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func json(_ s: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(s.utf8)) as! [String: Any]
}

@Suite("SharedMemoryFramebuffer", .serialized)
struct SharedMemoryFramebufferTests {
    let name = "test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    func uniformFrame(_ n: UInt64, width: Int = 16, height: Int = 4) -> Frame {
        Frame(width: width, height: height, fill: Color(red: UInt8(n % 256), green: 7, blue: 9))
    }

    @Test("a separate reader sees the contract's header and the published frame")
    func headerAndFrame() throws {
        let fb = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        defer { shm_unlink("/signd.\(name)") }
        fb.send(uniformFrame(5), number: 5, deadline: 123_456_789)
        let header = try json(try contractReader([name, "header"]).output)
        #expect(header["magic"] as? String == "SGFB")
        #expect(header["version"] as? Int == 1)
        #expect(header["header_size"] as? Int == 64)
        #expect(header["width"] as? Int == 16 && header["height"] as? Int == 4)
        #expect(header["format"] as? Int == 1 && header["bytes_per_pixel"] as? Int == 3)
        #expect(header["stride"] as? Int == 48 && header["buffers"] as? Int == 2)
        #expect(header["frame"] as? Int == 5 && header["time_ns"] as? Int == 123_456_789)
        #expect(header["rate_mhz"] as? Int == 60000)
        #expect(header["flags"] as? Int == 0 && header["reserved"] as? Int == 0)
        #expect((header["sequence"] as! Int) % 2 == 0)
        #expect(header["object_size"] as? Int == 64 + 2 * 48 * 4)

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).rgb").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try contractReader([name, "frame", out])
        #expect(FileManager.default.contents(atPath: out) == Data(uniformFrame(5).pixels))
    }

    @Test("frames alternate buffers and the frame number advances")
    func alternatesBuffers() throws {
        let fb = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        defer { shm_unlink("/signd.\(name)") }
        fb.send(uniformFrame(1), number: 1, deadline: 10)
        let first = try json(try contractReader([name, "header"]).output)
        fb.send(uniformFrame(2), number: 2, deadline: 20)
        let second = try json(try contractReader([name, "header"]).output)
        #expect(first["frame"] as? Int == 1 && second["frame"] as? Int == 2)
        #expect(first["index"] as? Int != second["index"] as? Int)
        #expect((second["sequence"] as! Int) == (first["sequence"] as! Int) + 2)
    }

    @Test("a reader never sees a torn frame while frames are published as fast as possible")
    func seqlock() throws {
        let fb = try SharedMemoryFramebuffer(name: name, width: 64, height: 32, fps: 1000)
        defer { shm_unlink("/signd.\(name)") }
        let done = Atomic(false)
        let writer = Thread {
            var n: UInt64 = 1
            while !done.value {
                fb.send(self.uniformFrame(n, width: 64, height: 32), number: n, deadline: n)
                n += 1
            }
        }
        writer.start()
        defer { done.value = true }
        let result = try contractReader([name, "check-uniform", "3000", "--distinct", "11", "--timeout", "30"])
        #expect(result.status == 0)
        #expect((try json(result.output)["distinct_frames"] as! Int) > 10)
    }

    @Test("stop sets the stopped flag and keeps the last frame")
    func stopFlag() throws {
        let fb = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        defer { shm_unlink("/signd.\(name)") }
        fb.send(uniformFrame(9), number: 9, deadline: 90)
        fb.stop()
        let header = try json(try contractReader([name, "header"]).output)
        #expect(header["flags"] as? Int == 1 && header["frame"] as? Int == 9)
        let snapshot = try SharedMemoryReader(output: name).read()
        #expect(snapshot.stopped && snapshot.frame == uniformFrame(9))
    }

    // Whatever the umask: signd under umask 000 and 077 in DaemonEndToEndTests (a test that
    // set this process's umask would change every file the concurrent tests create).
    @Test("the object is created with the mode it is given")
    func mode() throws {
        _ = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60, mode: 0o660)
        defer { shm_unlink("/signd.\(name)") }
        var info = stat()
        #expect(stat("/dev/shm/signd.\(name)", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660, "the umask must not take bits away")
    }

    /// The header's sequence, read through a mapping of our own.
    func sequence() -> UInt64 {
        let fd = shm_open("/signd.\(name)", O_RDWR, 0)
        defer { close(fd) }
        let header = mmap(nil, 64, PROT_READ, MAP_SHARED, fd, 0)!
        defer { munmap(header, 64) }
        return header.load(fromByteOffset: 24, as: UInt64.self)
    }

    @Test("an object another user created first is refused, never adopted")
    func squatted() throws {
        let fd = shm_open("/signd.\(name)", O_CREAT | O_EXCL | O_RDWR, 0o666)
        #expect(fd >= 0)
        defer { shm_unlink("/signd.\(name)") }
        fchown(fd, 65534, 65534)
        close(fd)
        #expect {
            try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        } throws: { error in
            "\(error)".contains("belongs to another user (uid 65534, nobody)")
        }
    }

    @Test("a stale object of signd's own is replaced by a new one with a whole header, its sequence carried on")
    func staleReplaced() throws {
        let stale = try SharedMemoryFramebuffer(name: name, width: 8, height: 2, fps: 30)
        defer { shm_unlink("/signd.\(name)") }
        stale.send(uniformFrame(1, width: 8, height: 2), number: 1, deadline: 1)
        let before = sequence()
        var staleInfo = stat()
        stat("/dev/shm/signd.\(name)", &staleInfo)
        let fresh = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        var freshInfo = stat()
        stat("/dev/shm/signd.\(name)", &freshInfo)
        #expect(freshInfo.st_ino != staleInfo.st_ino, "a new object, not the old one taken over")
        #expect(sequence() > before && sequence() % 2 == 0)
        fresh.send(uniformFrame(2), number: 1, deadline: 1)
        let header = try json(try contractReader([name, "header"]).output)
        #expect(header["width"] as? Int == 16 && header["frame"] as? Int == 1)
    }

    @Test("an odd sequence written into shared memory does not derail publishing: the writer counts for itself")
    func ownSequence() throws {
        let fb = try SharedMemoryFramebuffer(name: name, width: 16, height: 4, fps: 60)
        defer { shm_unlink("/signd.\(name)") }
        fb.send(uniformFrame(1), number: 1, deadline: 1)
        let fd = shm_open("/signd.\(name)", O_RDWR, 0)
        let header = mmap(nil, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)!
        header.storeBytes(of: UInt64(12345), toByteOffset: 24, as: UInt64.self)
        munmap(header, 64)
        close(fd)
        fb.send(uniformFrame(2), number: 2, deadline: 2)
        #expect(sequence() % 2 == 0 && sequence() != 12346)
    }
}

/// A flag shared with a writer thread in a test.
final class Atomic<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
