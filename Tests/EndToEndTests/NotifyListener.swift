import Foundation
import Glibc

/// Plays systemd's side of sd_notify: a datagram socket signd's NOTIFY_SOCKET points at,
/// recording every message with the time it arrived.
final class NotifyListener {
    let path: String
    private let fd: Int32

    struct Message {
        let lines: [String]
        /// CLOCK_MONOTONIC, ns.
        let at: UInt64
        func has(_ line: String) -> Bool { lines.contains(line) }
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
    }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Messages that arrive within `seconds`, stopping early once `until` holds for one.
    func receive(for seconds: Double, until: ((Message) -> Bool)? = nil) -> [Message] {
        var messages: [Message] = []
        let end = monotonicNow() + UInt64(seconds * 1e9)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while monotonicNow() < end {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32((end - min(end, monotonicNow())) / 1_000_000)
            guard poll(&poller, 1, max(remaining, 1)) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { continue }
            let text = String(decoding: buffer[..<n], as: UTF8.self)
            let message = Message(lines: text.split(separator: "\n").map(String.init), at: monotonicNow())
            messages.append(message)
            if let until, until(message) { break }
        }
        return messages
    }
}
