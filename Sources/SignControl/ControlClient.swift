import Glibc

/// A blocking client of the control socket, for signctl and tests: one connection,
/// requests answered in order.
public final class ControlClient {
    /// The daemon could not be reached at all (signctl exits 3 for this).
    public struct Unreachable: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot reach signd at \(path): \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public let path: String
    private let fd: Int32
    /// The connection's socket, for polling (reading it directly skips buffered lines).
    public var descriptor: Int32 { fd }
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1

    /// Connects to the Unix socket at `path`.
    public init(path: String) throws(Unreachable) {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Unreachable(path: path, reason: String(cString: strerror(errno))) }
        guard let result = UnixSocketAddress.with(path, { connect(fd, $0, $1) }) else {
            close(fd)
            throw Unreachable(path: path, reason: "the path is too long for a Unix socket")
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Unreachable(path: path, reason: reason)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends raw bytes (a request line must end in a newline).
    public func send(raw: [UInt8]) throws(Unreachable) {
        var offset = 0
        while offset < raw.count {
            let n = raw.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Unreachable(path: path, reason: String(cString: strerror(errno))) }
            offset += n
        }
    }

    /// Reads one line (without its newline); `nil` when the daemon closed the connection.
    public func readLine() throws(Unreachable) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Unreachable(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Sends a request and returns its result, or throws the daemon's error.
    public func request(_ command: any ControlCommand, at: Double? = nil) throws -> JSONValue {
        let request = Request(id: .int(nextID), at: at, command)
        nextID += 1
        try send(raw: Array((request.line + "\n").utf8))
        guard let line = try readLine() else {
            throw Unreachable(path: path, reason: "the daemon closed the connection")
        }
        return try Response(line: line).result()
    }
}

extension ControlClient {
    /// Sends a request written as raw fields, unchecked (for tools and tests that speak the
    /// wire directly), and returns its result, or throws the daemon's error.
    public func request(_ command: String, _ arguments: [String: JSONValue] = [:]) throws -> JSONValue {
        var object = arguments
        object["cmd"] = .string(command)
        object["id"] = .int(Int64(command.utf8.count))
        try send(raw: Array((JSONValue.object(object).jsonString + "\n").utf8))
        guard let line = try readLine() else {
            throw Unreachable(path: path, reason: "the daemon closed the connection")
        }
        return try Response(line: line).result()
    }
}
