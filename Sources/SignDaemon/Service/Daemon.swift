import Dispatch
import Foundation
import Glibc
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignOutput
import SignScene
import Synchronization

/// signd itself: reads the config, restores saved state, opens the outputs, serves the
/// control socket, runs the frame clock, and reloads or stops on signals.
public final class Daemon: Sendable {
    /// signd's version and the commit it was built from, as Home Assistant's device block
    /// and logs show it.
    public static let version = SignVersion.description

    /// How `signd run` was invoked.
    public struct Options: Sendable {
        public var configPath: String
        /// `--socket`, which wins over `$SIGND_SOCKET` and the config.
        public var socket: String?
        /// `--preview` / `--no-preview`, which win over the config.
        public var preview: Bool?

        public init(configPath: String, socket: String? = nil, preview: Bool? = nil) {
            self.configPath = configPath
            self.socket = socket
            self.preview = preview
        }
    }

    let options: Options
    let logger: Logger
    /// What is shown and everything that changes it at run time.
    let show: Show
    let clock: FrameClock
    let outputs: OutputSet
    let renderLoop: RenderLoop
    let server: ControlServer
    let watchdog: Mutex<Watchdog?> = Mutex(nil)
    /// The web page and its API, when `[web]` is configured.
    let web: WebServer?
    /// MQTT, when `[mqtt]` is configured.
    let mqtt: MQTTBridge?
    /// Carries out every request, from the socket and from signals alike.
    let plane: ControlPlane
    /// Every 30 s hands the pages malloc keeps free back to the kernel, so the resident set
    /// follows what signd holds rather than what it once held.
    private let memoryTrim = Mutex<DispatchSourceTimer?>(nil)

    /// Sets everything up and starts; throws a message for a person if anything cannot start.
    public init(options: Options, logger: Logger) throws {
        var logger = logger
        self.options = options
        // The machine's time, given to every part below that reads the time or arms a timer.
        let time = SystemClock()
        let startedAt = time.now()
        ProcessMemory.limitArenas()
        // Peak RSS: the code pages each step of start-up ran are handed back before the next
        // step (the argument parser's here, then the config's, the restore's, the outputs' and
        // the clock's, the servers' once running), so they do not add up
        // (ProcessMemory.releaseCodePages; docs/performance.md).
        ProcessMemory.releaseCodePages()
        let fonts = try FontLibrary()
        let config = try ConfigLoader.load(path: options.configPath, fonts: fonts, parser: .isolated)
        ProcessMemory.releaseCodePages()

        let stateDirectory =
            ProcessInfo.processInfo.environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? config.state.directory
        let stateFile = stateDirectory.map { StateFile(directory: $0, logger: logger) }
        try stateFile?.checkDirectory()
        // The store and the display first: the frame clock renders them.
        let restored = try Show.restore(config: config, stateFile: stateFile, fonts: fonts, time: time, logger: logger)
        let store = restored.store

        ProcessMemory.releaseCodePages()
        let outputs = OutputSet(try OutputSet.open(config))
        self.outputs = outputs
        let events = EventBus()
        let renderLoop = RenderLoop(
            store: store, outputs: outputs, events: events, display: restored.display,
            onSlowFrame: { [logger] report, unreported in
                let since = unreported > 0 ? " (\(unreported) more slow frame(s) since the last report)" : ""
                logger.warning("\(report.message)\(since)")
            })
        renderLoop.show(window: Show.window(config.display))
        self.renderLoop = renderLoop
        let clock = FrameClock(fps: config.display.fps, realtimeEpoch: config.display.realtimeEpoch, time: time) {
            tick in renderLoop.render(tick)
        }
        clock.onClockStep { [logger] milliseconds in
            logger.warning(
                "the system clock stepped by \((milliseconds * 10).rounded() / 10) ms: the realtime frame grid is laid anew from the next frame"
            )
        }
        clock.onStall { [logger] stall in
            func ms(_ v: Double) -> Double { (v * 100).rounded() / 100 }
            let cause =
                stall.signdCaused
                ? "signd's work overran the frame" : "the work fitted in the frame, so the thread waited for a CPU"
            logger.warning(
                "frame clock stall: frame \(stall.frame) came \(ms(stall.lateMilliseconds)) ms late, \(stall.skipped) frames skipped; signd's work on the clock's queue before it took \(ms(stall.work.wallMilliseconds)) ms (\(ms(stall.work.cpuMilliseconds)) ms of CPU\(stall.work.blocked ? ", blocked" : ""); the frame before rendered in \(ms(stall.previousRenderMilliseconds)) ms, swaps between frames took the rest): \(cause)"
            )
        }
        self.clock = clock

        let socketPath = SocketPath.resolve(flag: options.socket, configured: config.control.socket)
        let wantsPreview =
            options.preview
            ?? {
                switch config.preview.terminal {
                case .on: return true
                case .off: return false
                case .auto: return TerminalPreview.standardOutputIsTerminal
                }
            }()
        // Sinks that are not the config's outputs: the terminal preview, the web page's frame.
        var extras: [any FrameSink] = []
        if wantsPreview {
            // The preview owns the terminal; its caption says what the info lines would.
            logger.logLevel = max(logger.logLevel, .warning)
            extras.append(
                TerminalPreview(name: "preview", maxRate: config.preview.fps) { number in
                    let size = store.scene.scene
                    return "signd \(size.width)x\(size.height) @ \(clock.fps.formatted) fps · frame \(number)"
                        + " · dropped \(clock.stats.dropped) · control \(socketPath) · Ctrl-C quits"
                })
        }
        let live = config.web.map { _ in LiveFrame() }
        if let live { extras.append(live) }
        outputs.replace(with: outputs.all + extras)
        self.logger = logger

        let show = Show(
            config: config, restored: restored, clock: clock, events: events, logger: logger, stateFile: stateFile,
            configPath: options.configPath, stage: Show.Stage(outputs: outputs, renderLoop: renderLoop, extras: extras))
        self.show = show
        let plane = ControlPlane(show: show, startedAt: startedAt, logger: logger)
        self.plane = plane
        self.server = ControlServer(path: socketPath, plane: plane)
        if let web = config.web, let live {
            self.web = try WebServer(config: web, plane: plane, live: live, previewFPS: config.preview.fps, time: time)
        } else {
            self.web = nil
        }
        if let mqtt = config.mqtt {
            let password = try mqtt.passwordFile.map { path throws(DaemonError) -> String in
                try SecretFile.read(path, key: "mqtt.password_file")
            }
            do {
                self.mqtt = try MQTTBridge(
                    config: mqtt, password: password, plane: plane, version: Self.version,
                    logger: Logger(label: "signd.mqtt"), time: time)
            } catch {
                throw DaemonError("mqtt: \(error)")
            }
        } else {
            self.mqtt = nil
        }
        plane.report(web: web, mqtt: mqtt)
        clock.start()
        show.start()
        plane.warmUp()
        ProcessMemory.releaseCodePages()
        // The control socket and the page open once what they answer about runs: a client
        // that connects the moment the socket accepts (a script after `systemctl start`)
        // sees the restored playlist, and a selection it makes is not undone by the start.
        do {
            if let fd = try SystemdNotifier.activatedSocket() {
                try server.start(activatedSocket: fd)
            } else {
                try server.start(mode: config.control.mode, group: config.control.group)
            }
            try web?.start()
        } catch {
            show.stop()
            clock.stop()
            server.stop()
            outputs.all.forEach { $0.stop() }
            show.close()
            throw error
        }
        // The servers' start-up (NIO's bootstrap, binding) is a step of its own: its pages
        // would otherwise add to the logging's below and to a first request's, which may
        // arrive from now on.
        ProcessMemory.releaseCodePages()
        // Last, once everything it may be asked to change is running: a request that waited
        // at the broker while signd was away arrives as soon as it connects.
        do {
            try mqtt?.start()
        } catch {
            logger.error("mqtt: \(error); signd runs on without MQTT")
        }
        if mqtt != nil { ProcessMemory.releaseCodePages() }
        memoryTrim.withLock {
            let trim = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            trim.setEventHandler { [store] in
                store.releaseRetired()
                ProcessMemory.releaseFreePages()
            }
            trim.schedule(deadline: .now() + 30, repeating: 30, leeway: .seconds(5))
            trim.activate()
            $0 = trim
        }
        if let timeout = SystemdNotifier.watchdogTimeout() {
            watchdog.withLock { $0 = Watchdog(timeoutMicroseconds: timeout) { clock.lastFrameNumber } }
        }
        if let web {
            logger.info(
                "web page at http://\(web.config.listen)/",
                metadata: [
                    "token": "\(web.config.tokenFile == nil ? "none (loopback)" : "from \(web.config.tokenFile!)")"
                ])
        }
        for output in outputs.all {
            logger.info("output open", metadata: ["output": "\(output.name)", "type": "\(output.kind)"])
        }
        logger.info(
            "signd running",
            metadata: [
                "config": "\(options.configPath)", "socket": "\(socketPath)", "fps": "\(config.display.fps)",
                "size": "\(config.display.width)x\(config.display.height)",
                "outputs": "\(outputs.all.map(\.name).joined(separator: ","))",
                "state": "\(stateFile?.path ?? "not saved")",
            ])
        SystemdNotifier.notify(["READY=1", statusLine()])
        ProcessMemory.releaseCodePages()
    }

    /// `STATUS=` for systemd: what `status` says, on one line.
    func statusLine() -> String { show.statusLine() }

    /// The time zone times of day and clock fields are read in: `display.timezone`, or the system's.
    public static func timeZone(_ display: DaemonConfig.Display) -> TimeZone { Show.timeZone(display) }

    /// Re-reads the config (the Show's business; SIGHUP asks the control plane, as a client does).
    @discardableResult
    public func reload() -> [ConfigProblem] { show.reload() }

    /// Stops: tells systemd, stops the clock, blanks the outputs if configured, marks them
    /// stopped, closes the control socket and finishes saving state.
    public func shutdown() {
        SystemdNotifier.notify(["STOPPING=1"])
        watchdog.withLock { $0?.stop() }
        show.stop()
        memoryTrim.withLock { $0?.cancel() }
        clock.stop()
        if show.running.display.blankOnStop {
            clock.sync { renderLoop.blank(number: clock.lastFrameNumber + 1) }
        }
        outputs.all.forEach { $0.stop() }
        mqtt?.stop()
        web?.stop()
        server.stop()
        show.close()
        let stats = clock.stats
        logger.info("signd stopped", metadata: ["frames": "\(stats.frames)", "dropped": "\(stats.dropped)"])
    }
}

/// A problem found while starting, in words for a person.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes to standard error without stdio's shared state.
public func writeStandardError(_ s: String) {
    var s = s
    s.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

extension Double {
    /// 60 rather than 60.0.
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
