import ArgumentParser
import Foundation
import Glibc
import SignControl
import SignGraphics
import SignOutput

/// Finds the framebuffer to read: the name given, else the daemon's first shm output, else
/// (no daemon answering) the only one in /dev/shm. An output the daemon reports in error is
/// refused: the object of that name is not signd's (another user may hold it).
func framebufferName(_ given: String?, connection: Connection) throws -> String {
    // A daemon that answers decides; /dev/shm is searched only when none does.
    if let client = try? ControlClient(path: connection.path),
        let status: SignControl.Status = try? client.request(Request.Status()).decode()
    {
        let outputs = status.outputs.filter { $0.type == "shm" }
        guard let shm = given.map({ name in outputs.first { $0.name == name } }) ?? outputs.first else {
            if let given {
                // Another signd's framebuffer may be read by name; a name that is nowhere is a typo.
                try requirePresent(given, known: "the daemon's shm outputs", outputs.map(\.name))
                return given
            }
            printError("signctl: the daemon at \(connection.path) has no shm output; add an [[output]] with type = \"shm\"")
            throw ExitCode(1)
        }
        if shm.state == .error {
            let why = shm.counters?.lastError.map { ": \($0)" } ?? ""
            printError("signctl: the daemon's shm output \(shm.name) is in error\(why); not reading /dev/shm/signd.\(shm.name)")
            throw ExitCode(1)
        }
        return shm.name
    }
    let present = presentFramebuffers()
    if let given {
        try requirePresent(given, known: "framebuffers in /dev/shm", present)
        return given
    }
    guard present.count == 1 else {
        printError(
            present.isEmpty
                ? "signctl: no signd framebuffer in /dev/shm"
                : "signctl: several framebuffers (\(present.joined(separator: ", "))): name one")
        throw ExitCode(1)
    }
    return present[0]
}

/// The names of the signd framebuffers in /dev/shm.
func presentFramebuffers() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
        .filter { $0.hasPrefix("signd.") }.map { String($0.dropFirst(6)) }.sorted()
}

/// Exits 1, naming the names there are, when no framebuffer `name` exists.
func requirePresent(_ name: String, known: String, _ names: [String]) throws {
    guard !FileManager.default.fileExists(atPath: "/dev/shm/signd.\(name)") else { return }
    let listed = names.isEmpty ? "none" : names.joined(separator: ", ")
    printError("signctl: no framebuffer \"\(name)\" (no /dev/shm/signd.\(name)); \(known): \(listed)")
    throw ExitCode(1)
}

/// `signctl watch [OUTPUT]`.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a shared-memory framebuffer live in this terminal (for a board that is somewhere else).")

    @Argument(
        help: "The shm output's name (/dev/shm/signd.NAME); default: the daemon's first shm output.",
        completion: DaemonNames.sharedMemoryOutputs)
    var output: String?

    @Option(help: "Redraws per second.")
    var fps: Double = 30

    @OptionGroup var connection: Connection

    func run() throws {
        let name = try framebufferName(output, connection: connection)
        let reader: SharedMemoryReader
        do { reader = try SharedMemoryReader(output: name) } catch {
            printError("signctl: \(error)")
            throw ExitCode(1)
        }
        let preview = TerminalPreview(name: name, maxRate: fps) { number in
            "signd.\(name) · frame \(number) · Ctrl-C quits"
        }
        signal(SIGINT) { _ in
            // Restore the cursor and colours before leaving.
            _ = TerminalImage.end.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(0)
        }
        var last: UInt64 = .max
        while true {
            let snapshot = reader.read()
            if snapshot.frameNumber != last {
                preview.send(snapshot.frame, number: snapshot.frameNumber, deadline: snapshot.time)
                last = snapshot.frameNumber
            }
            if snapshot.stopped {
                Thread.sleep(forTimeInterval: 0.1)
                preview.stop()
                print("signd.\(name) has stopped")
                return
            }
            Thread.sleep(forTimeInterval: 1 / max(fps, 1))
        }
    }
}

/// `signctl snapshot FILE.png`.
struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save the newest frame of a shared-memory framebuffer as PNG.")

    @Argument(help: "The PNG file to write.", completion: .file(extensions: ["png"]))
    var file: String

    @Option(
        help: "The shm output's name; default: the daemon's first shm output.",
        completion: DaemonNames.sharedMemoryOutputs)
    var output: String?

    @OptionGroup var connection: Connection

    func run() throws {
        let name = try framebufferName(output, connection: connection)
        do {
            let snapshot = try SharedMemoryReader(output: name).read()
            try PNGImage.write(snapshot.frame, to: file)
        } catch {
            printError("signctl: \(error)")
            throw ExitCode(1)
        }
    }
}
