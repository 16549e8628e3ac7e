import Dispatch
import Glibc
import SignGraphics
import Synchronization

/// The `shm` output: a `SharedMemoryFramebuffer` that is created again and again until it
/// can be. An object at its name that another user made (or any other failure to create it)
/// never stops signd: the output reports `error`, with the reason and the owner, every other
/// output runs on, and creating it is tried again every `retryInterval` on the output's own
/// queue (never on the frame clock's), until the object is gone and the framebuffer opens.
public final class SharedMemoryOutput: FrameSink {
    /// How it is made: the framebuffer's arguments.
    public struct Settings: Sendable, Equatable {
        public var name: String
        public var width: Int
        public var height: Int
        public var fps: Double
        public var mode: mode_t
        public var gid: gid_t?

        public init(name: String, width: Int, height: Int, fps: Double, mode: mode_t = 0o640, gid: gid_t? = nil) {
            (self.name, self.width, self.height, self.fps, self.mode, self.gid) = (name, width, height, fps, mode, gid)
        }
    }

    /// Seconds between attempts while the framebuffer cannot be created.
    public static let retryInterval = 2.0

    public let settings: Settings
    public var name: String { settings.name }
    public let kind = "shm"
    public var width: Int { settings.width }
    public var height: Int { settings.height }
    public var fps: Double { settings.fps }

    private let framebuffer = Mutex<SharedMemoryFramebuffer?>(nil)
    private let tally = Mutex(OutputCounters())
    /// Frames published, counted apart from `tally` so a frame takes no second lock.
    private let published = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "signd.shm")
    private let retry = Mutex<DispatchSourceTimer?>(nil)
    private let log: @Sendable (String) -> Void

    /// Creates the framebuffer now; when that fails, the output starts in `error` and tries
    /// again every `retryInterval`, telling `log` when it fails first and when it opens.
    public init(_ settings: Settings, log: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.log = log
        if !attempt() {
            log("output \(settings.name): \(tally.withLock { $0.lastError ?? "" }); trying again every \(Int(Self.retryInterval)) s")
            retry.withLock {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(
                    deadline: .now() + Self.retryInterval, repeating: Self.retryInterval, leeway: .milliseconds(200))
                timer.setEventHandler { [weak self] in self?.tryAgain() }
                timer.activate()
                $0 = timer
            }
        }
    }

    /// Creates the framebuffer; false (with the reason counted) when it cannot be.
    private func attempt() -> Bool {
        do {
            let created = try SharedMemoryFramebuffer(
                name: settings.name, width: settings.width, height: settings.height, fps: settings.fps,
                mode: settings.mode, gid: settings.gid)
            framebuffer.withLock { $0 = created }
            return true
        } catch {
            tally.withLock {
                $0.errors += 1
                $0.lastError = error.description
            }
            return false
        }
    }

    private func tryAgain() {
        guard !stopped.load(ordering: .relaxed), framebuffer.withLock({ $0 == nil }) else { return }
        guard attempt() else { return }
        retry.withLock {
            $0?.cancel()
            $0 = nil
        }
        tally.withLock {
            $0.reconnects += 1
            $0.lastError = nil
        }
        log("output \(settings.name): the framebuffer is open now")
        if stopped.load(ordering: .relaxed) { framebuffer.withLock { $0 }?.stop() }
    }

    public var state: OutputState { framebuffer.withLock { $0 == nil } ? .error : .ok }

    /// What `status` shows of it: frames published, failed attempts to create the object,
    /// and why the last failed (the owner's uid and name when it is another user's).
    public var counters: OutputCounters? {
        var counters = tally.withLock { $0 }
        counters.framesSent = published.load(ordering: .relaxed)
        counters.device = "/dev/shm" + FramebufferLayout.objectName(forOutput: settings.name)
        return counters
    }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        guard let framebuffer = framebuffer.withLock({ $0 }) else { return }
        framebuffer.send(frame, number: number, deadline: deadline, display: display)
        published.add(1, ordering: .relaxed)
    }

    public func stop() {
        stopped.store(true, ordering: .relaxed)
        retry.withLock {
            $0?.cancel()
            $0 = nil
        }
        framebuffer.withLock { $0 }?.stop()
    }
}
