import Glibc
import SignTiming

/// Runs a short-lived helper: `posix_spawn`, its standard input written from memory, its
/// standard output read back, a deadline after which it is killed. No threads, no shell.
enum ChildProcess {
    /// How a run ended.
    enum Outcome: Equatable {
        /// Exited 0 within the time, having written at most the limit: its standard output.
        case output([UInt8])
        /// It could not be started at all (no such program, not allowed).
        case notStarted
        /// It failed, crashed, hung, or said too much.
        case failed
    }

    /// Runs `executable` with `arguments`, `input` on its standard input. Writing to a helper
    /// that has gone fails with EPIPE rather than a signal: signd ignores SIGPIPE.
    static func run(
        _ executable: String, _ arguments: [String], input: [UInt8], timeoutMilliseconds: Int32, maxOutput: Int
    ) -> Outcome {
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { return .notStarted }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return .notStarted
        }
        // Only the helper's ends reach it, through dup2; no other program gets them.
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The helper needs none of the daemon's systemd handshakes.
        let environment = environ.toArray().filter { entry in
            !["NOTIFY_SOCKET=", "LISTEN_FDS=", "LISTEN_PID=", "LISTEN_FDNAMES=", "WATCHDOG_USEC=", "WATCHDOG_PID="]
                .contains { entry.hasPrefix($0) }
        }
        var pid: pid_t = 0
        let spawned = withCStrings([executable] + arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&pid, executable, &actions, nil, argv, envp) }
        }
        close(toChild[0])
        close(fromChild[1])
        defer { close(fromChild[0]) }
        guard spawned == 0 else {
            close(toChild[1])
            return .notStarted
        }
        var output: [UInt8] = []
        var ok = write(all: input, to: toChild[1])
        close(toChild[1])
        if ok {
            ok = read(from: fromChild[0], into: &output, limit: maxOutput, timeoutMilliseconds: timeoutMilliseconds)
        }
        if !ok { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited (not signalled) with status 0.
        guard ok, status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return .failed }
        return .output(output)
    }

    private static func write(all bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func read(from fd: Int32, into output: inout [UInt8], limit: Int, timeoutMilliseconds: Int32)
        -> Bool
    {
        let deadline = MonotonicClock.now() + UInt64(timeoutMilliseconds) * 1_000_000
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return false }
            if n == 0 { return true }
            output.append(contentsOf: chunk[..<n])
            guard output.count <= limit else { return false }
        }
    }

    /// Calls `body` with `strings` as a NULL-terminated C array.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

extension UnsafeMutablePointer where Pointee == UnsafeMutablePointer<CChar>? {
    /// A NULL-terminated C array of strings, read into Swift strings.
    func toArray() -> [String] {
        var strings: [String] = []
        var p = self
        while let s = p.pointee {
            strings.append(String(cString: s))
            p += 1
        }
        return strings
    }
}
