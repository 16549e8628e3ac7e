import Glibc

/// Opening the files configs and requests name: only regular files, opened without blocking,
/// so that a FIFO or a device in their place is refused at once instead of stalling signd,
/// and never larger than a limit.
public enum RegularFile {
    /// A file that was refused or could not be read, with the reason.
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// Opens `path` for reading (following symbolic links), checks that it is a regular file
    /// of at most `limit` bytes, and returns its descriptor and size; the caller closes it.
    public static func open(_ path: String, limit: Int) throws(Error) -> (fd: Int32, size: Int) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(path: path, message: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Error(path: path, message: message)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Error(path: path, message: "not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            close(fd)
            throw Error(path: path, message: "larger than \(limit / 1024) KiB")
        }
        return (fd, Int(info.st_size))
    }

    /// The whole content of the regular file at `path`, at most `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(Error) -> [UInt8] {
        let (fd, size) = try open(path, limit: limit)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, size - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Error(path: path, message: String(cString: strerror(errno))) }
            if n == 0 { break }  // the file shrank while it was read
            offset += n
        }
        return Array(bytes[..<offset])
    }
}
