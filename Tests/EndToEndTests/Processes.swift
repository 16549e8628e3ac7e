import Foundation
import Glibc

/// Where the built executables and the project's tools are.
enum Paths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized
    /// The build directory holding signd and signctl: next to the test bundle.
    static let bin: URL = {
        if let dir = ProcessInfo.processInfo.environment["SIGND_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).standardized
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("signd").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()
    static var signd: String { bin.appendingPathComponent("signd").path }
    static var signctl: String { bin.appendingPathComponent("signctl").path }
    static var shmReader: String { root.appendingPathComponent("tools/shm-read.py").path }
}

/// The result of a finished command.
struct Finished {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs a program to completion and captures its output.
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Finished(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// CLOCK_MONOTONIC in nanoseconds, the clock of frame deadlines.
func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
