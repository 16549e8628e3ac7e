import CTermios2
import Glibc

/// Why a serial port (or an SPI device) cannot be used now, in words that name the device
/// and what to do. The output waits and tries again; nothing here is fatal.
public struct DevicePortError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// The C error behind it, when there is one.
    public let errno: Int32

    public init(_ description: String, errno: Int32 = 0) {
        self.description = description
        self.errno = errno
    }

    /// The message for a failed open of `path` with `code`: a missing device, a permission
    /// naming the file's owner and group, or the system's words.
    static func opening(_ path: String, errno code: Int32, group hint: String) -> DevicePortError {
        switch code {
        case ENOENT, ENODEV, ENXIO:
            return DevicePortError("\(path) is not there (unplugged?); waiting for it", errno: code)
        case EACCES, EPERM:
            var info = stat()
            var owner = ""
            if stat(path, &info) == 0 {
                let user = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "\(info.st_uid)"
                let group = getgrgid(info.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(info.st_gid)"
                owner = " (owner \(user), group \(group), mode \(String(info.st_mode & 0o777, radix: 8)))"
                return DevicePortError(
                    "permission denied opening \(path)\(owner): add signd's user to group \(group) (\(hint))",
                    errno: code)
            }
            return DevicePortError("permission denied opening \(path): \(hint)", errno: code)
        case EBUSY:
            return DevicePortError("\(path) is in use by another program", errno: code)
        default:
            return DevicePortError("cannot open \(path): \(String(cString: strerror(code)))", errno: code)
        }
    }
}

/// A tty opened for LED data: raw (no echo, no line editing, no CR/LF translation), 8N1,
/// no flow control, non-blocking, held exclusively, at any baud the driver takes (through
/// termios2, so 2,000,000 and other non-standard rates work).
public struct SerialPort: Sendable {
    public let fd: Int32
    public let path: String
    /// The speed the driver kept.
    public let baud: Int

    /// Where a `device` from the config is: a path as given, a bare name under
    /// /dev/serial/by-id/.
    public static func path(of device: String) -> String {
        device.contains("/") ? device : "/dev/serial/by-id/" + device
    }

    /// Opens `path` at `baud`; a refused speed (the driver keeps another one, more than 3%
    /// off) is an error.
    public static func open(_ path: String, baud: Int) -> Result<SerialPort, DevicePortError> {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(.opening(path, errno: errno, group: "usually dialout, or a udev rule"))
        }
        func fail(_ error: DevicePortError) -> Result<SerialPort, DevicePortError> {
            Glibc.close(fd)
            return .failure(error)
        }
        guard isatty(fd) == 1 else {
            return fail(DevicePortError("\(path) is not a serial port (not a tty)", errno: ENOTTY))
        }
        if signd_tty_exclusive(fd) != 0 {
            return fail(DevicePortError("\(path): cannot claim the port for signd alone", errno: errno))
        }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            return fail(
                DevicePortError("\(path) is not a serial port: \(String(cString: strerror(errno)))", errno: errno))
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB) | tcflag_t(CRTSCTS))
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            return fail(
                DevicePortError("\(path): cannot set raw mode: \(String(cString: strerror(errno)))", errno: errno))
        }
        var kept: UInt32 = 0
        let result = signd_set_baud(fd, UInt32(clamping: baud), &kept)
        if result != 0 {
            return fail(
                DevicePortError("\(path) refused \(baud) baud: \(String(cString: strerror(-result)))", errno: -result))
        }
        if abs(Int(kept) - baud) * 100 > baud * 3 {
            return fail(DevicePortError("\(path) refused \(baud) baud (the driver keeps \(kept))", errno: EINVAL))
        }
        return .success(SerialPort(fd: fd, path: path, baud: Int(kept)))
    }

    /// Writes what the port takes of `bytes` now: the count, or minus the errno (EAGAIN when
    /// its buffer is full).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        let n = Glibc.write(fd, base, bytes.count)
        return n >= 0 ? n : -Int(errno)
    }

    /// Waits at most `seconds` for what was written to leave the port; whether it did.
    @discardableResult
    public func drain(seconds: Double) -> Bool {
        for _ in 0..<max(1, Int(seconds * 100)) {
            if signd_tty_pending(fd) <= 0 { return true }
            usleep(10_000)
        }
        return signd_tty_pending(fd) <= 0
    }

    /// Closes the port. What has not left is discarded first unless it has all left
    /// (`drain`): a USB serial driver's close otherwise waits up to 30 s for a device that
    /// takes nothing, and flushing a pseudo-terminal would throw away what its reader has
    /// not read yet.
    public func close(drained: Bool = false) {
        if !drained { tcflush(fd, TCOFLUSH) }
        Glibc.close(fd)
    }
}
