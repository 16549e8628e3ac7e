import CSeqlock
import Glibc
import SignGraphics
import Synchronization

/// An output that publishes every frame into a POSIX shared-memory framebuffer that other
/// programs map and read (docs/contracts.md, "The shared-memory framebuffer"), with a seqlock so readers never see a
/// torn frame.
public final class SharedMemoryFramebuffer: FrameSink {
    /// A system call that failed while creating the framebuffer, or an object that is not
    /// signd's to take.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let objectName: String
        public let operation: String
        public let errno: Int32
        /// Why, when it is not a system call's error.
        public var reason: String?
        /// The user who made the object, when it is another user's.
        public var owner: uid_t?
        public var description: String {
            "\(operation) \(objectName): \(reason ?? String(cString: strerror(errno)))"
        }
    }

    public let name: String
    public let kind = "shm"
    public let objectName: String
    public let width: Int
    public let height: Int
    /// The nominal frame rate in the header.
    public let fps: Double
    // Written only on the frame clock's queue; the seqlock orders it for readers.
    nonisolated(unsafe) private let base: UnsafeMutableRawPointer
    private let size: Int
    /// The buffer holding the published frame; only the frame clock's queue writes frames.
    private let published = Atomic<Int>(0)
    /// The seqlock's sequence, kept here: what is in shared memory is only ever written, so a
    /// value someone else wrote there cannot derail publishing. Frame clock's queue only.
    nonisolated(unsafe) private var sequence: UInt64
    /// The header's flags, likewise.
    nonisolated(unsafe) private var flags: UInt32 = 0

    public var state: OutputState { .ok }

    /// Creates `/signd.<name>` anew with `mode` and optionally group `gid`, sized for
    /// `width x height`, and writes its whole header. A stale object left by an earlier signd
    /// of the same user is removed first (its sequence carried on, so a reader of the old one
    /// sees a change); one that belongs to another user is refused, never adopted.
    public init(name: String, width: Int, height: Int, fps: Double, mode: mode_t = 0o640, gid: gid_t? = nil)
        throws(Error)
    {
        self.name = name
        self.objectName = FramebufferLayout.objectName(forOutput: name)
        self.width = width
        self.height = height
        self.fps = fps
        self.size = FramebufferLayout.size(width: width, height: height)
        self.sequence = try Self.removeStale(objectName)
        let fd = shm_open(objectName, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, mode)
        guard fd >= 0 else {
            var error = Error(objectName: objectName, operation: "shm_open", errno: errno)
            if errno == EEXIST { error.reason = "another process created it at the same moment" }
            throw error
        }
        defer { close(fd) }
        // shm_open's mode passes through the umask; the contract's mode must not.
        guard fchmod(fd, mode) == 0 else { throw Error(objectName: objectName, operation: "fchmod", errno: errno) }
        if let gid, fchown(fd, uid_t.max, gid) != 0 {
            throw Error(objectName: objectName, operation: "fchown", errno: errno)
        }
        guard ftruncate(fd, off_t(size)) == 0 else {
            throw Error(objectName: objectName, operation: "ftruncate", errno: errno)
        }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw Error(objectName: objectName, operation: "mmap", errno: errno)
        }
        self.base = base
        writeHeader(fps: fps)
    }

    /// Removes an object left at `objectName` by signd's own user and returns the even
    /// sequence to carry on from (0 when there was none); refuses another user's.
    private static func removeStale(_ objectName: String) throws(Error) -> UInt64 {
        let fd = shm_open(objectName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else {
            let failure = errno
            guard failure == ENOENT else {
                // Another user's object that this one may not even read: name its owner.
                var info = stat()
                if failure == EACCES, stat("/dev/shm" + objectName, &info) == 0, info.st_uid != geteuid() {
                    throw anotherUsers(objectName, owner: info.st_uid)
                }
                throw Error(objectName: objectName, operation: "shm_open", errno: failure)
            }
            return 0
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Error(objectName: objectName, operation: "fstat", errno: errno) }
        guard info.st_uid == geteuid() else { throw anotherUsers(objectName, owner: info.st_uid) }
        var sequence: UInt64 = 0
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= FramebufferLayout.headerSize,
            let header = mmap(nil, FramebufferLayout.headerSize, PROT_READ, MAP_SHARED, fd, 0), header != MAP_FAILED
        {
            sequence = signd_load_u64_relaxed(header + FramebufferLayout.sequenceOffset)
            munmap(header, FramebufferLayout.headerSize)
        }
        guard shm_unlink(objectName) == 0 || errno == ENOENT else {
            throw Error(objectName: objectName, operation: "shm_unlink", errno: errno)
        }
        // Even, and past the old value: a reader comparing sequences sees that something changed.
        return (sequence | 1) &+ 1
    }

    /// The refusal of an object that `owner` made: signd never writes frames where another
    /// user can, nor deletes what another user made.
    private static func anotherUsers(_ objectName: String, owner: uid_t) -> Error {
        var error = Error(objectName: objectName, operation: "take over", errno: EPERM)
        error.owner = owner
        error.reason =
            "it belongs to another user (\(userName(owner))); signd will not write frames where another user can (remove it, or choose another output name)"
        return error
    }

    /// `uid N, name`, or `uid N` for a uid with no name.
    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else {
            return "uid \(uid)"
        }
        return "uid \(uid), \(String(cString: name))"
    }

    deinit { munmap(base, size) }

    private func writeHeader(fps: Double) {
        typealias L = FramebufferLayout
        // A reader that maps the object mid-way sees an odd sequence until the header is whole.
        signd_store_u64_relaxed(base + L.sequenceOffset, sequence | 1)
        signd_fence_release()
        for (i, byte) in L.magic.enumerated() { base.storeBytes(of: byte, toByteOffset: i, as: UInt8.self) }
        store(L.version, at: L.versionOffset)
        store(UInt16(L.headerSize), at: L.headerSizeOffset)
        store(UInt16(width), at: L.widthOffset)
        store(UInt16(height), at: L.heightOffset)
        store(L.formatRGB888, at: L.formatOffset)
        store(UInt16(3), at: L.bytesPerPixelOffset)
        store(UInt32(width * 3), at: L.strideOffset)
        store(UInt32(L.bufferCount), at: L.bufferCountOffset)
        store(UInt64(0), at: L.frameNumberOffset)
        store(UInt64(0), at: L.timeOffset)
        store(UInt32(0), at: L.indexOffset)
        store(UInt32((fps * 1000).rounded()), at: L.rateOffset)
        store(UInt32(0), at: L.flagsOffset)
        store(UInt32(0), at: 60)
        memset(base + L.headerSize, 0, size - L.headerSize)
        sequence = (sequence | 1) &+ 1
        signd_store_u64_release(base + L.sequenceOffset, sequence)
    }

    private func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    /// Copies the frame into the buffer readers are not reading, then publishes it.
    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        typealias L = FramebufferLayout
        guard frame.width == width, frame.height == height else { return }
        let target = 1 - published.load(ordering: .relaxed)
        let bufferBytes = width * 3 * height
        frame.pixels.withUnsafeBytes { src in
            (base + L.headerSize + target * bufferBytes).copyMemory(from: src.baseAddress!, byteCount: bufferBytes)
        }
        signd_store_u64_relaxed(base + L.sequenceOffset, sequence &+ 1)
        signd_fence_release()
        store(UInt32(target), at: L.indexOffset)
        store(number, at: L.frameNumberOffset)
        store(deadline, at: L.timeOffset)
        let shownFlags = display.on ? flags & ~L.flagDisplayOff : flags | L.flagDisplayOff
        if shownFlags != flags {
            flags = shownFlags
            store(flags, at: L.flagsOffset)
        }
        sequence &+= 2
        signd_store_u64_release(base + L.sequenceOffset, sequence)
        published.store(target, ordering: .relaxed)
    }

    /// Sets the header's "stopped" flag; the object stays so readers keep the last frame.
    public func stop() {
        typealias L = FramebufferLayout
        signd_store_u64_relaxed(base + L.sequenceOffset, sequence &+ 1)
        signd_fence_release()
        flags |= L.flagStopped
        store(flags, at: L.flagsOffset)
        sequence &+= 2
        signd_store_u64_release(base + L.sequenceOffset, sequence)
    }
}
