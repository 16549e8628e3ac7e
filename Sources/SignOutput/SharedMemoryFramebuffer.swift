import CSeqlock
import Glibc
import SignGraphics
import Synchronization

/// An output that publishes every frame into a POSIX shared-memory framebuffer that other
/// programs map and read (CONTRACTS.md section 1), with a seqlock so readers never see a
/// torn frame.
public final class SharedMemoryFramebuffer: FrameSink {
    /// A system call that failed while creating the framebuffer.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let objectName: String
        public let operation: String
        public let errno: Int32
        public var description: String {
            "\(operation) \(objectName): \(String(cString: strerror(errno)))"
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

    public var state: OutputState { .ok }

    /// Creates (or takes over) `/signd.<name>` with `mode` and optionally group `gid`, sized
    /// for `width x height`, and writes its header.
    public init(name: String, width: Int, height: Int, fps: Double, mode: mode_t = 0o640, gid: gid_t? = nil)
        throws(Error)
    {
        self.name = name
        self.objectName = FramebufferLayout.objectName(forOutput: name)
        self.width = width
        self.height = height
        self.fps = fps
        self.size = FramebufferLayout.size(width: width, height: height)
        let fd = shm_open(objectName, O_CREAT | O_RDWR | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Error(objectName: objectName, operation: "shm_open", errno: errno) }
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

    deinit { munmap(base, size) }

    private func writeHeader(fps: Double) {
        typealias L = FramebufferLayout
        // A reader that maps the object mid-way sees an odd sequence until the header is whole.
        let sequence = signd_load_u64_relaxed(base + L.sequenceOffset)
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
        signd_store_u64_release(base + L.sequenceOffset, (sequence | 1) &+ 1)
    }

    private func store<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    /// Copies the frame into the buffer readers are not reading, then publishes it.
    public func send(_ frame: Frame, number: UInt64, deadline: UInt64) {
        typealias L = FramebufferLayout
        guard frame.width == width, frame.height == height else { return }
        let target = 1 - published.load(ordering: .relaxed)
        let bufferBytes = width * 3 * height
        frame.pixels.withUnsafeBytes { src in
            (base + L.headerSize + target * bufferBytes).copyMemory(from: src.baseAddress!, byteCount: bufferBytes)
        }
        let sequence = signd_load_u64_relaxed(base + L.sequenceOffset)
        signd_store_u64_relaxed(base + L.sequenceOffset, sequence &+ 1)
        signd_fence_release()
        store(UInt32(target), at: L.indexOffset)
        store(number, at: L.frameNumberOffset)
        store(deadline, at: L.timeOffset)
        signd_store_u64_release(base + L.sequenceOffset, sequence &+ 2)
        published.store(target, ordering: .relaxed)
    }

    /// Sets the header's "stopped" flag; the object stays so readers keep the last frame.
    public func stop() {
        typealias L = FramebufferLayout
        let sequence = signd_load_u64_relaxed(base + L.sequenceOffset)
        signd_store_u64_relaxed(base + L.sequenceOffset, sequence &+ 1)
        signd_fence_release()
        let flags = UInt32(littleEndian: base.load(fromByteOffset: L.flagsOffset, as: UInt32.self))
        store(flags | L.flagStopped, at: L.flagsOffset)
        signd_store_u64_release(base + L.sequenceOffset, sequence &+ 2)
    }
}
