import Foundation
import SignControl
import SignGraphics
import SignOutput
import SignScene
import SignTiming
import Synchronization

/// What the frame clock does every tick: render the current scene at the frame's time into
/// the one frame buffer it owns and hand it to every output.
final class RenderLoop: Sendable {
    private let store: SceneStore
    private let outputs: OutputSet
    // Only touched on the frame clock's serial queue.
    private nonisolated(unsafe) var frame: Frame
    /// The whole sign, when this board shows a window of it (only on the clock's queue).
    private nonisolated(unsafe) var canvasFrame: Frame?
    /// This board's window on the canvas: its size and top-left corner; nil, the whole scene.
    private let window = Mutex<(width: Int, height: Int, x: Int, y: Int)?>(nil)
    private nonisolated(unsafe) var renderer: Renderer
    /// Test-only: block forever at this frame, to show that a stalled loop stops the
    /// watchdog pings (`SIGND_TEST_STALL_AT_FRAME`).
    private let stallAt: UInt64?
    private let events: EventBus
    private let display: DisplayControl
    /// Per scene layer: the loops seen so far of the motion that began at `begin`.
    private nonisolated(unsafe) var loopsSeen: [(begin: Double, loops: Int)] = []
    /// Told of a frame that took more than half its period, at most once every
    /// `slowFrameInterval` ns (a slow machine would otherwise log every frame), and of every
    /// frame that took three periods or more.
    private let onSlowFrame: @Sendable (SlowFrameReport, _ unreported: Int) -> Void
    private let slowFrameInterval: UInt64
    /// Where `onSlowFrame` is called, off the frame clock's queue.
    private let reportQueue: DispatchQueue
    /// CLOCK_MONOTONIC, ns: how the frame's drawing and sending are timed.
    private let clock: @Sendable () -> UInt64
    private nonisolated(unsafe) var lastSlowReport: UInt64?
    /// This frame's time in each output's `send`, in the order of `outputs.all` (kept for
    /// the slow-frame report, which names the output a slow send spent its time in).
    private nonisolated(unsafe) var sendTimes: [UInt64] = []
    private nonisolated(unsafe) var unreportedSlowFrames = 0

    init(
        store: SceneStore, outputs: OutputSet, events: EventBus, display: DisplayControl = DisplayControl(),
        slowFrameInterval: UInt64 = 10_000_000_000, clock: @escaping @Sendable () -> UInt64 = MonotonicClock.now,
        reportQueue: DispatchQueue = .global(),
        onSlowFrame: @escaping @Sendable (SlowFrameReport, _ unreported: Int) -> Void = { _, _ in }
    ) {
        self.onSlowFrame = onSlowFrame
        self.reportQueue = reportQueue
        self.clock = clock
        self.slowFrameInterval = slowFrameInterval
        self.store = store
        self.outputs = outputs
        self.events = events
        self.display = display
        let scene = store.scene.scene
        self.frame = Frame(width: scene.width, height: scene.height, fill: scene.background)
        self.renderer = Renderer(width: scene.width, height: scene.height)
        self.stallAt = ProcessInfo.processInfo.environment["SIGND_TEST_STALL_AT_FRAME"].flatMap(UInt64.init)
    }

    func render(_ tick: FrameClock.Tick) {
        if let stallAt, tick.number >= stallAt {
            while true { sleep(3600) }
        }
        let scene = store.scene
        let (width, height) = (scene.scene.width, scene.scene.height)
        let window = self.window.withLock { $0 }
        let board = window.map { ($0.width, $0.height) } ?? (width, height)
        if frame.width != board.0 || frame.height != board.1 {
            // Only after a reload that changed the board's size.
            frame = Frame(width: board.0, height: board.1)
        }
        if renderer.width != width || renderer.height != height {
            renderer = Renderer(width: width, height: height)
        }
        let setting = display.setting(at: tick.time)
        let start = clock()
        if setting.on {
            if let window, (window.width, window.height) != (width, height) {
                // This board's part of a larger sign: the whole canvas drawn, its window copied.
                if canvasFrame?.width != width || canvasFrame?.height != height {
                    canvasFrame = Frame(width: width, height: height)
                }
                renderer.render(scene, at: tick.time, into: &canvasFrame!)
                frame.copyWindow(of: canvasFrame!, x: window.x, y: window.y)
            } else {
                renderer.render(scene, at: tick.time, into: &frame)
            }
        } else {
            // Off: black everywhere, the shm framebuffer included; motion runs on in scene time.
            frame.fill(.black)
        }
        let drawn = clock()
        let sinks = outputs.all
        if sendTimes.count != sinks.count { sendTimes = Array(repeating: 0, count: sinks.count) }
        var sent = drawn
        for (i, output) in sinks.enumerated() {
            output.send(frame, number: tick.number, deadline: tick.deadline, display: setting)
            let now = clock()
            sendTimes[i] = now &- sent
            sent = now
        }
        if sinks.isEmpty { sent = clock() }
        if sent &- start > tick.period / 2 {
            reportSlowFrame(
                tick, scene: scene, on: setting.on, render: drawn &- start, send: sent &- drawn, now: sent,
                outputs: sinks)
        }
        noticeLoopEnds(scene, at: tick.time)
    }

    private func reportSlowFrame(
        _ tick: FrameClock.Tick, scene: PreparedScene, on: Bool, render: UInt64, send: UInt64, now: UInt64,
        outputs: [any FrameSink]
    ) {
        // A frame of three periods or more (a stall) is always told; a merely slow one at
        // most once an interval.
        if render &+ send < 3 &* tick.period, let last = lastSlowReport, now &- last < slowFrameInterval {
            unreportedSlowFrames += 1
            return
        }
        // Read only for a slow frame: whether it was signd's work or a wait for a CPU.
        let usage = ThreadUsage.now()
        let cpu = usage.cpuNanoseconds &- tick.cpuAtStart
        let report = SlowFrameReport(
            frame: tick.number, renderNanoseconds: render, sendNanoseconds: send, cpuNanoseconds: cpu,
            blocked: usage.voluntarySwitches != tick.switchesAtStart,
            periodNanoseconds: tick.period,
            outputs: zip(outputs, sendTimes).map { ($0.name, $1) },
            scene: scene, at: tick.time, layerNanoseconds: on ? renderer.layerNanoseconds : [],
            cacheFills: on ? renderer.cacheFills : 0)
        let unreported = unreportedSlowFrames
        (lastSlowReport, unreportedSlowFrames) = (now, 0)
        let handler = onSlowFrame
        reportQueue.async { handler(report, unreported) }
    }

    /// Publishes `loop-end` for every marquee that finished a loop since the last frame.
    private func noticeLoopEnds(_ scene: PreparedScene, at t: Double) {
        if loopsSeen.count != scene.slots.count {
            loopsSeen = Array(repeating: (-.infinity, 0), count: scene.slots.count)
        }
        for (i, slot) in scene.slots.enumerated() {
            let local = slot.localTime(t)
            guard let path = slot.layer(at: local).path, path.animation != nil else { continue }
            let loops = path.loops(at: local)
            let begin = path.timing.beginTime
            defer { loopsSeen[i] = (begin, loops) }
            guard loopsSeen[i].begin == begin, loops > loopsSeen[i].loops else { continue }
            events.publish(
                ControlEvent(
                    .loopEnd,
                    ["layer": .string(scene.scene.layers[i].id), "loop": .int(Int64(loops)), "time": .double(t)]))
        }
    }

    /// Shows the board's window of a larger canvas (`display.canvas` and `viewport`), or, with
    /// nil, the whole scene. Takes effect from the next frame.
    func show(window: (width: Int, height: Int, x: Int, y: Int)?) {
        self.window.withLock { $0 = window }
    }

    /// Sends a black frame numbered after the last one (on stop, when configured).
    func blank(number: UInt64) {
        frame.fill(.black)
        for output in outputs.all {
            output.send(frame, number: number, deadline: MonotonicClock.now())
        }
    }
}
