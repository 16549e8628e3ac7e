import Dispatch
import SignTiming
import Synchronization

/// The frame clock: a strict `DispatchSourceTimer` on its own serial queue that fires for
/// frame n at `origin + n / fps` on CLOCK_MONOTONIC. A late tick renders the newest due frame
/// and counts the ones it skipped; it never works through a backlog.
public final class FrameClock: Sendable {
    /// One tick of the clock: which frame, and for which moment.
    public struct Tick: Sendable {
        /// Frame number, from 1.
        public let number: UInt64
        /// The frame's deadline on CLOCK_MONOTONIC, ns.
        public let deadline: UInt64
        /// Scene time of the frame in seconds: `number / fps` until the clock is re-timed.
        public let time: Double
        /// One frame period, ns.
        public let period: UInt64
        /// The clock thread's CPU time when the tick began, ns (`getrusage`): what a slow
        /// frame's own work cost is told from.
        public var cpuAtStart: UInt64 = 0
        /// The clock thread's voluntary context switches when the tick began: more at its end
        /// means the frame slept, waited on a lock or for I/O.
        public var switchesAtStart = 0
    }

    /// Counters `status` reports.
    public struct Statistics: Sendable {
        public var frames: UInt64 = 0
        public var dropped: UInt64 = 0
        /// Ticks that came three or more frame periods late (and so skipped three or more
        /// frames at once): stalls, as opposed to the odd late frame.
        public var stalls: UInt64 = 0
        /// Of `stalls`, the ones signd caused: its own work on the clock's queue overran a
        /// frame period (see `Stall.signdCaused`). The others waited for a CPU.
        public var ownStalls: UInt64 = 0
        public var lateness = LatenessHistogram()
    }

    /// A tick that came three or more frame periods late, for the log: how late, and what
    /// held the clock's queue before it (the frame before and any swap made between frames).
    public struct Stall: Sendable {
        public let frame: UInt64
        public let skipped: UInt64
        /// From the first skipped frame's deadline to this tick, ms.
        public let lateMilliseconds: Double
        /// How long the previous tick's rendering took, wall clock, ms.
        public let previousRenderMilliseconds: Double
        /// signd's work on the clock's queue since the frame before began: wall time, the CPU
        /// time of it, and whether it blocked (slept, waited on a lock or for I/O).
        public let work: QueueWork
        /// One frame period, ms.
        public let periodMilliseconds: Double

        /// Whether signd caused the stall: its work on the clock's queue took a frame period of
        /// CPU, or blocked for a frame period. Otherwise the work fitted in the frame and the
        /// tick came late because its thread was not given a CPU in time: the machine's doing
        /// (other processes, a busy host), which signd cannot prevent from inside.
        public var signdCaused: Bool {
            work.cpuMilliseconds >= periodMilliseconds || (work.blocked && work.wallMilliseconds >= periodMilliseconds)
        }
    }

    /// Work done on the clock's queue, measured with the thread's own CPU clock and its
    /// voluntary context switches (`getrusage(RUSAGE_THREAD)`), so time spent runnable but
    /// off the CPU is told apart from time signd itself spent.
    public struct QueueWork: Sendable {
        public var wallMilliseconds: Double = 0
        public var cpuMilliseconds: Double = 0
        /// The work gave up the CPU on its own at least once (a sleep, a lock, I/O).
        public var blocked = false

        public init(wallMilliseconds: Double = 0, cpuMilliseconds: Double = 0, blocked: Bool = false) {
            (self.wallMilliseconds, self.cpuMilliseconds, self.blocked) = (wallMilliseconds, cpuMilliseconds, blocked)
        }

        static func + (a: QueueWork, b: QueueWork) -> QueueWork {
            QueueWork(
                wallMilliseconds: a.wallMilliseconds + b.wallMilliseconds,
                cpuMilliseconds: a.cpuMilliseconds + b.cpuMilliseconds, blocked: a.blocked || b.blocked)
        }
    }

    /// The grid frames fall on: frame `baseNumber` is due at `baseDeadline` and shows scene
    /// time `baseTime`; later ones follow every `1 / fps` seconds. Re-timing moves the base
    /// to the last frame, so numbers keep rising and scene time runs on without a jump.
    private struct Timeline {
        var fps: Double
        var baseNumber: UInt64 = 0
        var baseDeadline: UInt64
        var baseTime: Double = 0
        /// On the realtime timeline: the epoch (Unix ns) and the CLOCK_REALTIME minus
        /// CLOCK_MONOTONIC offset the grid was laid with.
        var realtime: (epoch: Int64, offset: Int64)?

        /// The realtime grid at `fps`: frame n due at `epoch + n / fps` of CLOCK_REALTIME and
        /// showing scene time n / fps, based at the first frame at or after `monotonic`
        /// (and after `after`).
        static func realtime(fps: Double, epoch: Int64, offset: Int64, monotonic: UInt64, after: UInt64) -> Timeline {
            let sinceEpoch = Double(Int64(monotonic) + offset - epoch) / 1e9
            let n = max(UInt64(max(0, (sinceEpoch * fps).rounded(.up))), after + 1)
            let deadline = epoch + Int64((Double(n) * 1e9 / fps).rounded()) - offset
            return Timeline(
                fps: fps, baseNumber: n, baseDeadline: UInt64(max(0, deadline)), baseTime: Double(n) / fps,
                realtime: (epoch, offset))
        }

        func deadline(ofFrame n: UInt64) -> UInt64 {
            if let grid = realtime {
                return UInt64(max(0, grid.epoch + Int64((Double(n) * 1e9 / fps).rounded()) - grid.offset))
            }
            return baseDeadline + UInt64((Double(n - baseNumber) * 1e9 / fps).rounded())
        }

        /// On the realtime grid exactly n / fps, computed the same way on every board, so
        /// boards that show frame n draw the very same picture.
        func time(ofFrame n: UInt64) -> Double {
            realtime == nil ? baseTime + Double(n - baseNumber) / fps : Double(n) / fps
        }
    }

    /// CLOCK_MONOTONIC time of scene time 0, ns.
    public let origin: UInt64
    /// The time and timers scene time follows (the machine's, or a test's virtual clock).
    public let time: any SignClock
    private let timeline: Mutex<Timeline>
    private let queue: DispatchQueue
    private let render: @Sendable (Tick) -> Void
    private let statistics = Mutex(Statistics())
    private let lastNumber = Atomic<UInt64>(0)
    private nonisolated(unsafe) var timer: DispatchSourceTimer?  // set once in start(), used on `queue`
    /// The frame the repeating schedule was last anchored at (used on `queue`).
    private nonisolated(unsafe) var anchor: UInt64 = 0
    /// How long the last tick's rendering took, ns (used on `queue`).
    private nonisolated(unsafe) var lastRenderDuration: UInt64 = 0
    /// signd's work on the queue since the last tick began: its rendering, then any `sync`
    /// work (used on `queue`).
    private nonisolated(unsafe) var workSinceTick = QueueWork()
    private let stallHandler = CallbackSlot<Stall>()

    /// Calls `handler`, off the clock's queue, for every stall from now on.
    public func onStall(_ handler: @escaping @Sendable (Stall) -> Void) { stallHandler.set(handler) }

    /// A clock at `fps` that calls `render` on its own queue for every frame it shows. With
    /// `realtimeEpoch` (Unix seconds; docs/contracts.md, "The realtime timeline") frame n is due at the
    /// CLOCK_REALTIME instant `epoch + n / fps` and shows scene time n / fps, so boards with
    /// synchronised clocks show the same frame at the same instant whenever each started.
    /// `time` is what scene time is read from, and what the parts that wait for a frame or a
    /// moment (the playlist, notifications, schedules) arm their timers on.
    public init(
        fps: Double, realtimeEpoch: Double? = nil, label: String = "signd.frame-clock",
        time: any SignClock = SystemClock(), realtimeOffset: @escaping @Sendable () -> Int64 = RealtimeOffset.now,
        render: @escaping @Sendable (Tick) -> Void
    ) {
        let now = time.now()
        self.time = time
        self.realtimeOffset = realtimeOffset
        var timeline = Timeline(fps: fps, baseDeadline: now)
        if let realtimeEpoch {
            timeline = .realtime(
                fps: fps, epoch: Int64((realtimeEpoch * 1e9).rounded()), offset: realtimeOffset(), monotonic: now,
                after: 0)
            lastNumber.store(timeline.baseNumber - 1, ordering: .relaxed)
        }
        self.origin = timeline.baseDeadline &- UInt64(max(0, timeline.baseTime * 1e9))
        self.timeline = Mutex(timeline)
        self.queue = DispatchQueue(label: label, qos: .userInteractive)
        self.render = render
    }

    /// `realtime` with the epoch, or `monotonic`; and the clock steps the realtime grid was
    /// laid anew for, with the last one's size.
    public var timelineStatus: (kind: String, steps: Int, lastStepMilliseconds: Double) {
        let kind = timeline.withLock { $0.realtime == nil ? "monotonic" : "realtime" }
        return steps.withLock { (kind, $0.count, $0.last) }
    }

    private let steps = Mutex<(count: Int, last: Double)>((0, 0))
    /// CLOCK_REALTIME minus CLOCK_MONOTONIC now (a test steps it without touching the machine's clock).
    private let realtimeOffset: @Sendable () -> Int64
    private let stepHandler = CallbackSlot<Double>()

    /// Calls `handler`, off the clock's queue, with the size in ms of each step of the system
    /// clock the realtime grid was laid anew for.
    public func onClockStep(_ handler: @escaping @Sendable (Double) -> Void) { stepHandler.set(handler) }

    /// A step of CLOCK_REALTIME larger than this (a late NTP sync, a hand-set clock) lays the
    /// realtime grid anew; slewing (at most 0.5 ms a second) stays below it.
    static let stepThreshold: Int64 = 2_000_000

    /// The frame rate now.
    public var fps: Double { timeline.withLock { $0.fps } }

    /// Scene time now, in seconds.
    public func sceneTime() -> Double { sceneTime(atMonotonic: time.now()) }

    /// Scene time at a moment of CLOCK_MONOTONIC, in seconds.
    public func sceneTime(atMonotonic ns: UInt64) -> Double {
        timeline.withLock { t in t.baseTime + Double(Int64(bitPattern: ns &- t.baseDeadline)) / 1e9 }
    }

    /// The CLOCK_MONOTONIC moment, in ns, at which scene time reaches `t`.
    public func monotonic(atSceneTime t: Double) -> UInt64 {
        timeline.withLock { tl in
            let offset = ((t - tl.baseTime) * 1e9).rounded()
            return offset <= 0
                ? tl.baseDeadline &- UInt64(min(-offset, Double(tl.baseDeadline))) : tl.baseDeadline &+ UInt64(offset)
        }
    }

    /// The scene time of the first frame due at or after the CLOCK_MONOTONIC moment `ns`.
    public func sceneTime(ofFirstFrameAtOrAfterMonotonic ns: UInt64) -> Double {
        timeline.withLock { t in
            let elapsed = Double(Int64(bitPattern: ns &- t.baseDeadline)) * t.fps / 1e9
            // A moment within a nanosecond's rounding of a deadline is that frame's.
            let n = max(0, (elapsed - 1e-6).rounded(.up))
            return t.realtime == nil ? t.baseTime + n / t.fps : t.time(ofFrame: t.baseNumber + UInt64(n))
        }
    }

    /// On the realtime timeline, the scene time of the first frame due at or after the
    /// CLOCK_REALTIME instant `unixSeconds`, from the epoch alone: every board on the grid
    /// gets the same frame for the same instant. Nil on the monotonic timeline.
    public func sceneTime(ofFirstFrameAtOrAfterRealtime unixSeconds: Double) -> Double? {
        timeline.withLock { t in
            guard let grid = t.realtime else { return nil }
            let frames = (unixSeconds - Double(grid.epoch) / 1e9) * t.fps
            return t.time(ofFrame: UInt64(max(0, (frames - 1e-6).rounded(.up))))
        }
    }

    /// The deadline of frame `n`, computed from the timeline's base so no error accumulates.
    public func deadline(ofFrame n: UInt64) -> UInt64 { timeline.withLock { $0.deadline(ofFrame: n) } }

    /// Changes the frame rate from the next frame on, keeping frame numbers and scene time
    /// continuous. Waits for a frame being rendered to finish.
    public func retime(fps: Double) {
        sync {
            let last = lastNumber.load(ordering: .relaxed)
            let changed = timeline.withLock { t -> Bool in
                guard t.fps != fps else { return false }
                if let grid = t.realtime {
                    // On the realtime grid the numbers follow the new rate from the epoch; the
                    // next one is the first of the new grid after the last shown.
                    t = .realtime(
                        fps: fps, epoch: grid.epoch, offset: grid.offset, monotonic: time.now(), after: last)
                    return true
                }
                let (deadline, time) = (t.deadline(ofFrame: last), t.time(ofFrame: last))
                t = Timeline(fps: fps, baseNumber: last, baseDeadline: deadline, baseTime: time)
                return true
            }
            guard changed else { return }
            let next = timeline.withLock { $0.realtime == nil ? last + 1 : $0.baseNumber }
            if next > last + 1 { lastNumber.store(next - 1, ordering: .relaxed) }
            if timer != nil { schedule(frame: next) }
        }
    }

    /// On the realtime grid, checks the clocks' offset and lays the grid anew after a step,
    /// so the next frame is the grid's for the new time: after a step forward the numbers
    /// jump ahead (the frames between are not shown, nor counted as dropped); after a step
    /// back the numbers never go back, so the picture holds until the grid reaches the next
    /// one. Only on the clock's queue.
    private func followClockSteps(after last: UInt64) -> UInt64? {
        let offset = realtimeOffset()
        let stepped = timeline.withLock { t -> (UInt64, Double)? in
            guard let grid = t.realtime, abs(offset - grid.offset) > Self.stepThreshold else { return nil }
            t = .realtime(fps: t.fps, epoch: grid.epoch, offset: offset, monotonic: time.now(), after: last)
            return (t.baseNumber, Double(offset - grid.offset) / 1e6)
        }
        guard let (next, milliseconds) = stepped else { return nil }
        steps.withLock { $0 = ($0.count + 1, milliseconds) }
        if stepHandler.isSet { DispatchQueue.global().async { [stepHandler] in stepHandler(milliseconds) } }
        return next
    }

    /// The number of the last frame shown (0 before the first).
    public var lastFrameNumber: UInt64 { lastNumber.load(ordering: .relaxed) }

    public var stats: Statistics { statistics.withLock { $0 } }

    /// Starts ticking; the first frame is due one period after the origin. The ticks are a
    /// Dispatch timer on the machine's clock: a clock on a `VirtualClock` is left unstarted.
    public func start() {
        let timer = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        self.timer = timer
        timer.setEventHandler { [self] in tick() }
        schedule(frame: lastNumber.load(ordering: .relaxed) + 1)
        timer.activate()
    }

    /// Stops ticking; returns once no frame is being rendered.
    public func stop() {
        queue.sync {
            timer?.cancel()
        }
    }

    /// Runs `work` on the clock's queue, between frames; its cost counts toward the next
    /// tick's `Stall.work`.
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        try queue.sync {
            let (result, cost) = try Self.measure(work)
            workSinceTick = workSinceTick + cost
            return result
        }
    }

    /// Runs `body`, measuring its wall time, the thread's CPU time and whether it blocked.
    private static func measure<T>(from usage: ThreadUsage? = nil, _ body: () throws -> T) rethrows -> (T, QueueWork) {
        let (wall0, usage0) = (MonotonicClock.now(), usage ?? ThreadUsage.now())
        let result = try body()
        let (wall1, usage1) = (MonotonicClock.now(), ThreadUsage.now())
        let cost = QueueWork(
            wallMilliseconds: Double(wall1 &- wall0) / 1e6,
            cpuMilliseconds: Double(usage1.cpuNanoseconds &- usage0.cpuNanoseconds) / 1e6,
            blocked: usage1.voluntarySwitches != usage0.voluntarySwitches)
        return (result, cost)
    }

    /// Schedules frame `n` and the ones after it, every period rounded to the nanosecond. A
    /// repeating timer is re-armed by dispatch itself as it fires; setting a new deadline
    /// every frame cost one more thread wake-up a frame. The rounding drifts from the exact
    /// grid by under half a nanosecond a frame, so the schedule is anchored again once a
    /// second (and after skipped frames).
    private func schedule(frame n: UInt64) {
        let (deadline, fps) = timeline.withLock { ($0.deadline(ofFrame: n), $0.fps) }
        let period = Int((1e9 / fps).rounded())
        // DispatchTime counts the same monotonic nanoseconds on Linux.
        timer?.schedule(
            deadline: DispatchTime(uptimeNanoseconds: deadline), repeating: .nanoseconds(period),
            leeway: .nanoseconds(0))
        anchor = n
    }

    private func tick() {
        let now = time.now()
        let last = lastNumber.load(ordering: .relaxed)
        let t = timeline.withLock { $0 }
        // The newest frame whose deadline has passed, but always at least the next one.
        let elapsed = Double(Int64(bitPattern: now &- t.baseDeadline))
        let due = t.baseNumber + UInt64(max(0, (elapsed * t.fps / 1e9).rounded(.down)))
        let n = max(due, last + 1)
        let deadline = t.deadline(ofFrame: n)
        let previousRender = lastRenderDuration
        let before = workSinceTick
        let start = ThreadUsage.now()
        let ((), cost) = Self.measure(from: start) {
            render(
                Tick(
                    number: n, deadline: deadline, time: t.time(ofFrame: n), period: UInt64((1e9 / t.fps).rounded()),
                    cpuAtStart: start.cpuNanoseconds, switchesAtStart: start.voluntarySwitches))
        }
        workSinceTick = cost
        lastRenderDuration = time.now() &- now
        lastNumber.store(n, ordering: .relaxed)
        var ownStall = false
        if n - last - 1 >= 3 {
            let stall = Stall(
                frame: n, skipped: n - last - 1,
                lateMilliseconds: Double(now &- t.deadline(ofFrame: last + 1)) / 1e6,
                previousRenderMilliseconds: Double(previousRender) / 1e6, work: before,
                periodMilliseconds: 1e3 / t.fps)
            ownStall = stall.signdCaused
            if stallHandler.isSet { DispatchQueue.global().async { [stallHandler] in stallHandler(stall) } }
        }
        statistics.withLock { s in
            s.frames += 1
            s.dropped += n - last - 1
            if n - last - 1 >= 3 { s.stalls += 1 }
            if ownStall { s.ownStalls += 1 }
            s.lateness.record(now > deadline ? now - deadline : 0)
        }
        if n != last + 1 || n - anchor >= UInt64(max(1, t.fps.rounded())) {
            // Once a second: on the realtime grid, a step of the system clock lays it anew.
            if t.realtime != nil, let next = followClockSteps(after: n) {
                lastNumber.store(next - 1, ordering: .relaxed)
                schedule(frame: next)
            } else {
                schedule(frame: n + 1)
            }
        }
    }
}
