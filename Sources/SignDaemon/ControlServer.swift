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
    /// The file has its mode from the moment it exists (the umask is set around `bind`), and
    /// its group is set through the directory, never through a path that could be swapped
    /// for a link to another file.
    public func start(mode: UInt32, group groupName: String?) throws(Error) {
        try prepareSocketPath()
        var gid: gid_t?
        if let groupName {
            guard let entry = getgrnam(groupName) else { throw Error(path: path, message: "no group \"\(groupName)\"") }
            gid = entry.pointee.gr_gid
        }
        let bootstrap = bootstrap()
        // The umask is the process's: nothing else creates files while signd starts.
        let previous = umask(mode_t(~mode & 0o777))
        let bound: Result<Channel, Swift.Error> = Result { try bootstrap.bind(unixDomainSocketPath: path).wait() }
        umask(previous)
        switch bound {
        case .success(let c): channel.withLock { $0 = c }
        case .failure(let error): throw Error(path: path, message: "cannot listen: \(error)")
        }
        if let gid { try setGroup(gid) }
    }

    /// Gives the socket file group `gid`, through its directory and without following links.
    private func setGroup(_ gid: gid_t) throws(Error) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let name = String(parts.last ?? "")
        let directory = parts.dropLast().joined(separator: "/")
        let dir = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else {
            throw Error(path: path, message: "open its directory: \(String(cString: strerror(errno)))")
        }
        defer { close(dir) }
        var info = stat()
        guard fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            throw Error(path: path, message: "the socket file was replaced while signd started")
        }
        guard fchownat(dir, name, uid_t.max, gid, AT_SYMLINK_NOFOLLOW) == 0 else {
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
