import Dispatch
import Foundation
import Glibc
import Logging
import SignGraphics
import Synchronization

/// The persisted state on disk (`state.json` in the state directory), written atomically
/// (a temporary file, fsync, rename, fsync of the directory) on a queue of its own, so a
/// crash or power cut at any moment leaves either the old state or the new one.
public final class StateFile: Sendable {
    public let directory: String
    public var path: String { directory + "/state.json" }
    private let logger: Logger
    private let queue = DispatchQueue(label: "signd.state")
    private let pending = Mutex<(state: PersistedState?, scheduled: Bool)>((nil, false))
    /// Test-only: milliseconds to pause half-way through writing, so a test can kill signd
    /// in the middle of a save (`SIGND_TEST_PAUSE_IN_STATE_WRITE_MS`).
    private let pauseMilliseconds: UInt32

    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
        self.pauseMilliseconds =
            ProcessInfo.processInfo.environment["SIGND_TEST_PAUSE_IN_STATE_WRITE_MS"].flatMap(UInt32.init) ?? 0
    }

    /// Largest state file read back.
    public static let maxFileSize = 4 << 20

    /// Refuses a state directory that other users could plant files in (writable by others,
    /// or owned by another user than signd's or root): signd would read what they wrote, or
    /// be led to write where they chose.
    func checkDirectory() throws(DaemonError) {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw DaemonError("state directory \(directory): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw DaemonError("state directory \(directory) is not a directory (a symbolic link is not accepted)")
        }
        guard info.st_mode & S_IWOTH == 0 else {
            throw DaemonError(
                "state directory \(directory) is writable by other users; make it signd's alone (chmod o-w)")
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw DaemonError(
                "state directory \(directory) belongs to another user (uid \(info.st_uid)); it must be signd's or root's"
            )
        }
    }

    /// Reads the saved state. A missing file is no state; a corrupt one is renamed aside
    /// with a warning and treated as no state. Temporary files of an interrupted save are removed.
    public func load() -> PersistedState? {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where name.hasPrefix(".state.json.") {
            unlink(directory + "/" + name)
        }
        guard access(path, F_OK) == 0 else { return nil }
        do {
            let data = Data(try RegularFile.read(path, limit: Self.maxFileSize))
            let state = try JSONDecoder().decode(PersistedState.self, from: data)
            guard state.version == 1 else { throw DaemonError("unknown state version \(state.version)") }
            return state
        } catch {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            rename(path, aside)
            logger.warning(
                "the saved state was unreadable and is set aside; starting from the config",
                metadata: ["file": "\(aside)", "error": "\(error)"])
            return nil
        }
    }

    /// Saves `state` soon, off the caller's thread; a newer state replaces one not yet written.
    public func save(_ state: PersistedState) {
        let schedule = pending.withLock { p -> Bool in
            p.state = state
            defer { p.scheduled = true }
            return !p.scheduled
        }
        if schedule { queue.async { self.writePending() } }
    }

    /// Waits until every requested save is on disk.
    public func flush() { queue.sync {} }

    private func writePending() {
        guard
            let state = pending.withLock({ p -> PersistedState? in
                defer { p = (nil, false) }
                return p.state
            })
        else { return }
        do {
            try write(state)
        } catch {
            logger.error("could not save state", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }

    func write(_ state: PersistedState) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes = Array(try encoder.encode(state)) + [UInt8(ascii: "\n")]
        let temporary = directory + "/.state.json.\(getpid())"
        // A new file of our own: never through a link, never one someone else left there.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw DaemonError("create \(temporary): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let half = bytes.count / 2
        try writeAll(fd, bytes[..<half])
        if pauseMilliseconds > 0 { usleep(pauseMilliseconds * 1000) }
        try writeAll(fd, bytes[half...])
        guard fsync(fd) == 0 else { throw DaemonError("fsync \(temporary): \(String(cString: strerror(errno)))") }
        guard rename(temporary, path) == 0 else {
            throw DaemonError("rename to \(path): \(String(cString: strerror(errno)))")
        }
        // The rename itself is durable only once the directory is synced.
        let dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw DaemonError("write state: \(String(cString: strerror(errno)))") }
                offset += n
            }
        }
    }
}
