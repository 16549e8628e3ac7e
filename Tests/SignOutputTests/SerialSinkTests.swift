import CTermios2
import Dispatch
import Glibc
import SignGraphics
import Synchronization
import Testing

@testable import SignOutput

/// A pseudo-terminal pair standing for a USB serial port: the sink opens the slave by its
/// path, the test reads what arrives at the master.
final class PseudoTerminal: Sendable {
    let master: Int32
    let path: String

    init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        let number = master >= 0 ? signd_pty_unlock(master) : -errno
        guard number >= 0 else { throw DevicePortError("no pseudo-terminal", errno: -number) }
        path = "/dev/pts/\(number)"
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    /// What has arrived, reading until `count` bytes or a quiet half second.
    func read(atLeast count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<200 where out.count < count {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 500) == 1 else { break }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    func close() { Glibc.close(master) }
}

@Suite("Serial outputs through a pseudo-terminal", .serialized)
struct SerialSinkTests {
    static let log: @Sendable (String) -> Void = { _ in }

    static func sink(_ path: String, _ framing: SerialSink.Framing, width: Int = 4, height: Int = 2) -> SerialSink {
        SerialSink(
            name: "t", kind: "serial",
            pipeline: LEDPipeline(
                map: PixelMap(panels: [Panel(width: width, height: height)], frameWidth: width, frameHeight: height),
                correction: .identity, dithering: false),
            framing: framing, device: path, baud: 115_200, cap: FrameRateCap(maxFPS: nil, displayFPS: 60), log: log)
    }

    @Test("a tty opens raw at a non-standard 2,000,000 and 250,000 baud through termios2")
    func opensAnyBaud() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        for baud in [2_000_000, 250_000, 115_200] {
            let port = try SerialPort.open(pty.path, baud: baud).get()
            #expect(port.baud == baud)
            var settings = termios()
            #expect(tcgetattr(port.fd, &settings) == 0)
            #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0 && settings.c_oflag & tcflag_t(OPOST) == 0)
            port.close()
        }
    }

    @Test("a path that is not a tty, a missing one and one held by another program are refused by name")
    func refusals() throws {
        let file = "/tmp/signd-serial-\(getpid())-file"
        FileManager_write(file)
        defer { unlink(file) }
        #expect(SerialPort.open(file, baud: 115_200).failure?.description == "\(file) is not a serial port (not a tty)")
        let missing = "/dev/serial/by-id/usb-signd-test-\(getpid())"
        #expect(SerialPort.path(of: "usb-signd-test-\(getpid())") == missing)
        #expect(SerialPort.open(missing, baud: 115_200).failure?.description.contains("is not there") == true)
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let first = try SerialPort.open(pty.path, baud: 115_200).get()
        defer { first.close() }
        // TIOCEXCL: root may open an exclusive tty anyway; anyone else gets EBUSY.
        if geteuid() != 0 {
            #expect(SerialPort.open(pty.path, baud: 115_200).failure?.description.contains("in use") == true)
        }
    }

    @Test("permission denied names the device's owner and group and the group to join")
    func permissionWords() throws {
        let file = "/tmp/signd-serial-\(getpid())-perm"
        FileManager_write(file)
        defer { unlink(file) }
        chown(file, 65534, 65534)
        chmod(file, 0o660)
        let error = DevicePortError.opening(file, errno: EACCES, group: "usually dialout, or a udev rule")
        let group = getgrgid(65534).map { String(cString: $0.pointee.gr_name) } ?? "65534"
        #expect(error.description.hasPrefix("permission denied opening \(file) (owner "))
        #expect(error.description.contains("group \(group), mode 660): add signd's user to group \(group)"))
    }

    @Test("an Adalight output writes each frame whole down the port, in LED order")
    func adalightFrames() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let sink = Self.sink(pty.path, .adalight)
        #expect(sink.state == .ok && sink.counters?.device == "\(pty.path) at 115200 baud")
        let frame = Frame(width: 4, height: 2, fill: Color(red: 255, green: 128, blue: 0))
        for n in 1...3 { sink.send(frame, number: UInt64(n), deadline: 0) }
        var one: [UInt8] = []
        Adalight.encode([UInt8]((0..<8).flatMap { _ in [255, 128, 0] as [UInt8] }), into: &one)
        #expect(pty.read(atLeast: 3 * one.count) == one + one + one)
        #expect(sink.counters?.framesSent == 3)
        sink.stop()
    }

    @Test("a port that takes nothing more: frames are dropped whole and the byte stream stays frame-aligned")
    func backPressure() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        // The test holds the port open too, so the sink's close on stop is no hangup that
        // could cut off what the reader has not yet read.
        let held = open(pty.path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { close(held) }
        let sink = Self.sink(pty.path, .tpm2, width: 64, height: 16)
        for n in 1...60 {
            sink.send(
                Frame(width: 64, height: 16, fill: Color(red: UInt8(n), green: 0, blue: 0)), number: UInt64(n),
                deadline: 0)
        }
        let counters = try #require(sink.counters)
        #expect(counters.dropped > 0 && counters.framesSent + counters.dropped == 60, "\(counters)")
        // Everything the port took parses as whole TPM2 frames, one red level each, rising;
        // the frame the port took only part of is finished (by stop, here) before anything else.
        let reader = DispatchQueue(label: "pty reader")
        let bytes = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        reader.async {
            let read = pty.read(atLeast: Int.max)
            bytes.withLock { $0 = read }
            done.signal()
        }
        sink.stop()
        done.wait()
        let stream = bytes.withLock { $0 }
        var at = 0
        var reds: [UInt8] = []
        while at + 4 <= stream.count, stream[at] == 0xc9, stream[at + 1] == 0xda {
            let size = Int(stream[at + 2]) << 8 | Int(stream[at + 3])
            guard at + 4 + size < stream.count, stream[at + 4 + size] == 0x36 else { break }
            let data = stream[(at + 4)..<(at + 4 + size)]
            #expect(size == 3072 && data.enumerated().allSatisfy { $0.offset % 3 == 0 || $0.element == 0 })
            reds.append(data.first ?? 0)
            at += 5 + size
        }
        #expect(at == stream.count, "\(stream.count - at) bytes after the last whole frame")
        #expect(UInt64(reds.count) == counters.framesSent && zip(reds, reds.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("a port that goes away makes the output wait with the reason, and the clock's sends never fail")
    func portVanishes() throws {
        let pty = try PseudoTerminal()
        let sink = Self.sink(pty.path, .awa)
        let frame = Frame(width: 4, height: 2)
        sink.send(frame, number: 1, deadline: 0)
        _ = pty.read(atLeast: 1)
        pty.close()
        for n in 2...4 { sink.send(frame, number: UInt64(n), deadline: 0) }
        #expect(sink.state == .waiting)
        let counters = try #require(sink.counters)
        #expect(counters.errors >= 1 && counters.framesSent == 1, "\(counters)")
        #expect(counters.lastError?.hasPrefix("writing to \(pty.path): ") == true, "\(counters)")
        sink.stop()
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Creates `path` holding a few bytes.
func FileManager_write(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = write(fd, "x", 1)
    close(fd)
}
