import CSystemd
import Glibc
import SignTiming

/// signd's surface of libsystemd's service API: readiness and status notifications, the
/// watchdog interval, and sockets passed in by socket activation. Every call is a no-op or
/// `nil` when signd does not run under systemd.
public enum SystemdNotifier {
    /// Sends `KEY=VALUE` lines, e.g. `["READY=1", "STATUS=..."]`, as one message to
    /// `$NOTIFY_SOCKET`; false when there is no listener.
    @discardableResult
    public static func notify(_ lines: [String]) -> Bool {
        sd_notify(0, lines.joined(separator: "\n")) > 0
    }

    /// The message announcing a reload, stamped with CLOCK_MONOTONIC in microseconds as
    /// systemd requires.
    public static func reloading() -> [String] {
        ["RELOADING=1", "MONOTONIC_USEC=\(MonotonicClock.now() / 1000)"]
    }

    /// The watchdog timeout systemd asked for (`WatchdogSec=`), in microseconds, or `nil`.
    public static func watchdogTimeout() -> UInt64? {
        var usec: UInt64 = 0
        return sd_watchdog_enabled(0, &usec) > 0 && usec > 0 ? usec : nil
    }

    /// The listening Unix stream socket passed in by socket activation, or `nil`.
    /// Throws when systemd passed something signd cannot serve.
    public static func activatedSocket() throws(ActivationError) -> Int32? {
        let count = sd_listen_fds(1)
        guard count > 0 else { return nil }
        guard count == 1 else { throw ActivationError(message: "expected one socket from systemd, got \(count)") }
        let fd = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw ActivationError(message: "the socket from systemd is not a listening Unix stream socket")
        }
        return fd
    }

    /// A socket passed by systemd that signd cannot use.
    public struct ActivationError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "socket activation: \(message)" }
    }

    /// Whether standard error is connected to the journal (systemd sets `JOURNAL_STREAM`
    /// to the device and inode of the stream it passed).
    public static var standardErrorIsJournal: Bool {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var info = stat()
        guard parts.count == 2, fstat(STDERR_FILENO, &info) == 0 else { return false }
        return String(info.st_dev) == parts[0] && String(info.st_ino) == parts[1]
    }
}
