import CSeqlock
import Glibc
import SignGraphics

/// Reads frames from a shared-memory framebuffer another process publishes, following
/// the seqlock protocol of docs/contracts.md, "The shared-memory framebuffer". Used by `signctl watch`.
public final class SharedMemoryReader {
    /// Why a framebuffer could not be opened or read.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let objectName: String
        public let message: String
        public var description: String { "\(objectName): \(message)" }
    }

    /// One frame as published, with the header fields that came with it.
    public struct Snapshot: Sendable {
        public let frame: Frame
        public let frameNumber: UInt64
        /// CLOCK_MONOTONIC deadline of the frame, ns.
        public let time: UInt64
        /// Nominal frame rate in millihertz.
        public let rate: UInt32
        /// The writer has shut down cleanly.
        public let stopped: Bool
        /// The display is off: the frame is black, and frames keep coming.
        public let displayOff: Bool
    }

    public let objectName: String
    /// The object's inode and device: a signd that starts again makes a new object under
    /// the same name, which a reader notices by these.
    public let inode: UInt64
    public let device: UInt64
    public let width: Int
    public let height: Int
    private let base: UnsafeRawPointer
    private let size: Int

    /// Maps `/signd.<output>` read-only and checks its header.
    public init(output: String) throws(Error) {
        objectName = FramebufferLayout.objectName(forOutput: output)
        let fd = shm_open(objectName, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw Error(objectName: objectName, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) >= FramebufferLayout.headerSize else {
            throw Error(objectName: objectName, message: "too small to hold a framebuffer header")
        }
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            throw Error(objectName: objectName, message: "mmap: " + String(cString: strerror(errno)))
        }
        let header = UnsafeRawPointer(base)
        self.base = header
        let magic = (0..<4).map { header.load(fromByteOffset: $0, as: UInt8.self) }
        let version = UInt16(littleEndian: header.load(fromByteOffset: 4, as: UInt16.self))
        let format = UInt16(littleEndian: header.load(fromByteOffset: 12, as: UInt16.self))
        width = Int(UInt16(littleEndian: header.load(fromByteOffset: 8, as: UInt16.self)))
        height = Int(UInt16(littleEndian: header.load(fromByteOffset: 10, as: UInt16.self)))
        guard magic == FramebufferLayout.magic, version == FramebufferLayout.version,
            format == FramebufferLayout.formatRGB888,
            size >= FramebufferLayout.size(width: width, height: height), width > 0, height > 0
        else {
            munmap(base, size)
            throw Error(objectName: objectName, message: "not a version 1 RGB888 signd framebuffer")
        }
    }

    /// The header fields that came with a frame `read(into:)` copied.
    public struct Published: Sendable, Equatable {
        public let frameNumber: UInt64
        public let stopped: Bool
        public let displayOff: Bool
    }

    /// Copies the published frame into `pixels` (`width * height * 3` bytes), allocating
    /// nothing; nil when no stable copy came in `attempts` tries (a writer that died while
    /// publishing leaves the sequence odd for good).
    public func read(into pixels: UnsafeMutableRawPointer, attempts: Int = 1000) -> Published? {
        let bytes = width * 3 * height
        for _ in 0..<attempts {
            let before = signd_load_u64_acquire(base + 24)
            if before & 1 == 1 { continue }
            let index = Int(UInt32(littleEndian: base.load(fromByteOffset: 48, as: UInt32.self)))
            let number = UInt64(littleEndian: base.load(fromByteOffset: 32, as: UInt64.self))
            let flags = UInt32(littleEndian: base.load(fromByteOffset: 56, as: UInt32.self))
            guard index < FramebufferLayout.bufferCount else { continue }
            pixels.copyMemory(from: base + 64 + index * bytes, byteCount: bytes)
            signd_fence_acquire()
            if signd_load_u64_relaxed(base + 24) == before {
                return Published(
                    frameNumber: number, stopped: flags & FramebufferLayout.flagStopped != 0,
                    displayOff: flags & FramebufferLayout.flagDisplayOff != 0)
            }
        }
        return nil
    }

    /// The published frame's number, read without copying the frame (0: none yet).
    public var frameNumber: UInt64 { UInt64(littleEndian: signd_load_u64_acquire(base + 32)) }

    /// Whether the writer has set the stopped flag.
    public var stopped: Bool {
        UInt32(littleEndian: base.load(fromByteOffset: 56, as: UInt32.self)) & FramebufferLayout.flagStopped != 0
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// The published frame, retried until a stable copy is read.
    public func read() -> Snapshot {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        while true {
            let before = signd_load_u64_acquire(base + 24)
            if before & 1 == 1 { continue }
            let index = Int(UInt32(littleEndian: base.load(fromByteOffset: 48, as: UInt32.self)))
            let number = UInt64(littleEndian: base.load(fromByteOffset: 32, as: UInt64.self))
            let time = UInt64(littleEndian: base.load(fromByteOffset: 40, as: UInt64.self))
            let rate = UInt32(littleEndian: base.load(fromByteOffset: 52, as: UInt32.self))
            let flags = UInt32(littleEndian: base.load(fromByteOffset: 56, as: UInt32.self))
            let bytes = width * 3 * height
            guard index < FramebufferLayout.bufferCount else { continue }
            pixels.withUnsafeMutableBytes {
                $0.baseAddress!.copyMemory(from: base + 64 + index * bytes, byteCount: bytes)
            }
            signd_fence_acquire()
            if signd_load_u64_relaxed(base + 24) == before {
                return Snapshot(
                    frame: Frame(width: width, height: height, pixels: pixels), frameNumber: number, time: time,
                    rate: rate, stopped: flags & FramebufferLayout.flagStopped != 0,
                    displayOff: flags & FramebufferLayout.flagDisplayOff != 0)
            }
        }
    }
}
