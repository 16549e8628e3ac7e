import Foundation
import Glibc
import SignControl
import Testing

/// A `signd run` started for a test, in a scratch directory with its own socket and
/// framebuffer names, stopped and cleaned up by `finish()`.
final class Scratch {
    let dir: URL
    let name = "t\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
    var socket: String { dir.appendingPathComponent("control.sock").path }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "signd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: dir)
        shm_unlink("/signd.\(name)")
    }

    /// A config for a 64x16 board with one layer and this scratch's shm output.
    func config(text: String, fps: Int = 60, extra: String = "") -> String {
        """
        [display]
        width = 64
        height = 16
        fps = \(fps)
        [[layer]]
        text = "\(text)"
        speed = 0
        fade = 0
        [[output]]
        type = "shm"
        name = "\(name)"
        [preview]
        terminal = "off"
        \(extra)
        """
    }

    @discardableResult
    func write(_ text: String, _ file: String = "signd.toml") throws -> String {
        let path = dir.appendingPathComponent(file).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts `executable arguments` with extra environment, stderr captured to a file.
    func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let log = dir.appendingPathComponent("stderr-\(UInt32.random(in: 0...UInt32.max)).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        logs[ObjectIdentifier(process)] = log
        try process.run()
        return process
    }
    private var logs: [ObjectIdentifier: URL] = [:]

    /// What a launched process has written to standard error so far.
    func stderr(of process: Process) -> String {
        logs[ObjectIdentifier(process)].flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    /// Starts `signd run` on `config` and waits until its socket answers; with `umask`, signd
    /// starts under that umask (set by a shell that then execs it, never in this process,
    /// whose umask every concurrent test shares).
    func startSignd(config: String, environment: [String: String] = [:], umask mask: mode_t? = nil) throws -> Process {
        let arguments = ["run", "--config", config, "--socket", socket]
        let process =
            if let mask {
                try launch(
                    "/bin/sh",
                    ["-c", "umask \(String(mask, radix: 8)) && exec \"$0\" \"$@\"", Paths.signd] + arguments,
                    environment: environment)
            } else {
                try launch(Paths.signd, arguments, environment: environment)
            }
        try waitForSocket(process)
        return process
    }

    func waitForSocket(_ process: Process, path: String? = nil) throws {
        var answered = false
        eventually(timeout: 30) {
            answered = (try? ControlClient(path: path ?? socket).request("ping")) != nil
            return answered || !process.isRunning
        }
        if answered { return }
        process.terminate()
        throw ControlClient.Unreachable(path: path ?? socket, reason: "signd did not come up: \(stderr(of: process))")
    }

    func request(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        try ControlClient(path: socket).request(command, arguments)
    }

    /// Sends SIGTERM and waits; the seconds it took to exit. A process still running after
    /// ten seconds is killed and the test fails, rather than the run hanging.
    @discardableResult
    func stop(_ process: Process) -> Double {
        let start = monotonicNow()
        kill(process.processIdentifier, SIGTERM)
        if !exits(process, within: 10) {
            Issue.record(
                """
                the process did not exit within 10 s of SIGTERM; killed. Its threads:
                \(Self.backtraces(of: process.processIdentifier))
                Its standard error:
                \(stderr(of: process).suffix(4000))
                """)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return Double(monotonicNow() - start) / 1e9
    }

    /// Every thread's stack of `pid` and of its children (a wrapper's signd), from gdb: what
    /// a process that ignored SIGTERM was waiting for.
    static func backtraces(of pid: Int32) -> String {
        let children =
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8))?
            .split(separator: " ").compactMap { Int32($0) } ?? []
        return ([pid] + children).map { p in
            let trace = try? run(
                "/usr/bin/gdb", ["-p", "\(p)", "-batch", "-nx", "-ex", "thread apply all bt 30"],
                environment: [:])
            return "pid \(p):\n"
                + (trace.map {
                    $0.stdout.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread") }.joined(
                        separator: "\n")
                } ?? "(gdb failed)")
        }.joined(separator: "\n")
    }

    /// Whether `process` has ended within `seconds`.
    func exits(_ process: Process, within seconds: Double) -> Bool {
        eventually(timeout: seconds) { !process.isRunning }
    }
}
