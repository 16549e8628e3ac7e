// The socket types (SOCK_STREAM ...) belong to the C module that parsed sys/socket.h first,
// libsystemd's in this target: a whole-module (release) build finds them only through it.
import CSystemd
import Glibc
import Logging
import NIOCore
import NIOPosix
import SignControl
import Synchronization

/// The control socket: a Unix stream socket served by SwiftNIO on its own event loop, so
/// no client, however slow, can delay a frame.
public final class ControlServer: Sendable {
    /// Why the server could not start.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "control socket \(path): \(message)" }
    }

    /// Most clients connected at once; the next one is told `busy`.
    public static let maxClients = 64

    public let path: String
    /// What carries out the requests.
    public let plane: ControlPlane
    private let group: MultiThreadedEventLoopGroup
    private let connections = Atomic<Int>(0)
    private let channel: Mutex<Channel?> = Mutex(nil)
    /// Whether the socket came from systemd (then signd neither creates nor removes the file).
    private let activated = Atomic<Bool>(false)

    public init(path: String, plane: ControlPlane) {
        self.path = path
        self.plane = plane
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Serves a listening socket passed in by systemd's socket activation.
    public func start(activatedSocket fd: Int32) throws(Error) {
        activated.store(true, ordering: .relaxed)
        do {
            let bound = try bootstrap().withBoundSocket(fd).wait()
            channel.withLock { $0 = bound }
        } catch {
            throw Error(path: path, message: "cannot serve the socket from systemd: \(error)")
        }
    }

    /// Creates the socket file (its directory too, if missing) with `mode` and `group`, and
    /// starts accepting. A stale socket file left by a crash is replaced; a live one is not.
    /// The socket is bound, given its mode and group, and only then listens: until then a
    /// connection is refused, so nobody is served under a mode the umask left. Mode and
    /// group are set through the directory, never through a path that could be swapped for
    /// a link to another file, and the process's umask is never touched (other threads may
    /// be creating files).
    public func start(mode: UInt32, group groupName: String?) throws(Error) {
        try prepareSocketPath()
        var gid: gid_t?
        if let groupName {
            guard let entry = getgrnam(groupName) else { throw Error(path: path, message: "no group \"\(groupName)\"") }
            gid = entry.pointee.gr_gid
        }
        let fd = try bindSocketFile(mode: mode_t(mode), gid: gid)
        do {
            let bound = try bootstrap().withBoundSocket(fd).wait()
            channel.withLock { $0 = bound }
        } catch {
            unlink(path)
            throw Error(path: path, message: "cannot listen: \(error)")
        }
    }

    /// A socket bound at `path` (not yet listening) whose file has `mode` and `gid`.
    private func bindSocketFile(mode: mode_t, gid: gid_t?) throws(Error) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Error(path: path, message: "socket: \(String(cString: strerror(errno)))") }
        guard let bound = UnixSocketAddress.with(path, { bind(fd, $0, $1) }) else {
            close(fd)
            throw Error(path: path, message: "longer than a socket path may be (107 bytes)")
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Error(path: path, message: "cannot bind: \(reason)")
        }
        do throws(Error) {
            try setOwnership(mode: mode, gid: gid)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        return fd
    }

    /// Gives the socket file `mode` and group `gid`, through its directory and without
    /// following links; refuses a file that is no longer the socket signd bound.
    private func setOwnership(mode: mode_t, gid: gid_t?) throws(Error) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "")
        let directory = parts.dropLast().joined(separator: "/")
        let dir = open(
            directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else {
            throw Error(path: path, message: "open its directory: \(String(cString: strerror(errno)))")
        }
        defer { close(dir) }
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFSOCK,
            info.st_uid == geteuid()
        else {
            throw Error(path: path, message: "the socket file was replaced while signd started")
        }
        guard fchmodat(dir, name, mode, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Error(path: path, message: "chmod to \(String(mode, radix: 8)): \(String(cString: strerror(errno)))")
        }
        if let gid, fchownat(dir, name, uid_t.max, gid, AT_SYMLINK_NOFOLLOW) != 0 {
            throw Error(path: path, message: "chown to group \(gid): \(String(cString: strerror(errno)))")
        }
    }

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] channel in
                let count = connections.add(1, ordering: .relaxed).newValue
                channel.closeFuture.whenComplete { _ in self.connections.subtract(1, ordering: .relaxed) }
                return channel.eventLoop.makeCompletedFuture {
                    if count > Self.maxClients {
                        try channel.pipeline.syncOperations.addHandler(
                            AnswerAndClose.socketBusy(limit: Self.maxClients))
                    } else {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(ControlConnectionHandler(plane: plane))
                    }
                }
            }
    }

    private func prepareSocketPath() throws(Error) {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty, access(directory, F_OK) != 0, mkdir(directory, 0o755) != 0 {
            throw Error(path: path, message: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw Error(path: path, message: "exists and is not a socket")
        }
        if (try? ControlClient(path: path)) != nil {
            throw Error(path: path, message: "another signd is already listening there")
        }
        unlink(path)
    }

    /// Stops accepting, closes every connection and removes the socket file it created
    /// (an activated socket's file belongs to systemd).
    public func stop() {
        if let bound = channel.withLock({ $0 }) {
            try? bound.close().wait()
            if !activated.load(ordering: .relaxed) { unlink(path) }
        }
        try? group.syncShutdownGracefully()
    }
}
