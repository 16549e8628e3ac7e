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
    let fonts: FontLibrary
    let store: SceneStore
    let clock: FrameClock
    let outputs: OutputSet
    let renderLoop: RenderLoop
    let server: ControlServer
    let stateFile: StateFile?
    let watchdog: Mutex<Watchdog?> = Mutex(nil)
    /// The config in effect; reload compares against it.
    let config: Mutex<DaemonConfig>
    let preview: TerminalPreview?
    /// The web page and its API, when `[web]` is configured.
    let web: WebServer?
    /// The newest frame, for the web page's viewers.
    let live: LiveFrame?
    /// MQTT, when `[mqtt]` is configured.
    let mqtt: MQTTBridge?
    let events: EventBus
    /// The stream layers' receivers.
    let streams: StreamReceiverSet
    /// Carries out every request, from the socket and from signals alike.
    let plane: ControlPlane
    /// The display's brightness and on/off state.
    let display: DisplayControl
    /// Follows `[[brightness]]` through the day.
    let brightnessScheduler: BrightnessScheduler
    let fieldClock: FieldClock
    /// The playlists and the schedule; set once the daemon exists (its parts call back into it).
    let player = Mutex<PlaylistPlayer?>(nil)
    /// The saved state read at start (the playlist's position is resumed from it).
    private let savedAtStart: PersistedState
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
        let fonts = try FontLibrary()
        let config = try ConfigLoader.load(path: options.configPath, fonts: fonts, parser: .isolated)
        self.fonts = fonts
        self.config = Mutex(config)

        let stateDirectory =
            ProcessInfo.processInfo.environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? config.state.directory
        let stateFile = stateDirectory.map { StateFile(directory: $0, logger: logger) }
        try stateFile?.checkDirectory()
        let saved = stateFile?.load() ?? PersistedState()
        self.stateFile = stateFile
        self.savedAtStart = saved
        let store = try SceneStore(
            config: config.scene, saved: saved, fonts: fonts,
            fieldValues: LiveFields.Values(timeZone: Self.timeZone(config.display)), time: time)
        self.store = store

        let outputs = OutputSet(try OutputSet.open(config))
        self.outputs = outputs
        let events = EventBus()
        self.events = events
        let streams = StreamReceiverSet(events: events, logger: logger)
        self.streams = streams
        let display = Self.restoredDisplay(saved, config: config.display, logger: logger)
        self.display = display
        let renderLoop = RenderLoop(
            store: store, outputs: outputs, events: events, display: display,
            onSlowFrame: { [logger] report, unreported in
                let since = unreported > 0 ? " (\(unreported) more slow frame(s) since the last report)" : ""
                logger.warning("\(report.message)\(since)")
            })
        renderLoop.show(window: Self.window(config.display))
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
        self.brightnessScheduler = BrightnessScheduler(display: display, clock: clock)
        self.fieldClock = FieldClock(store: store, clock: clock)

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
        if wantsPreview {
            // The preview owns the terminal; its caption says what the info lines would.
            logger.logLevel = max(logger.logLevel, .warning)
            let preview = TerminalPreview(name: "preview", maxRate: config.preview.fps) { number in
                let size = store.scene.scene
                return "signd \(size.width)x\(size.height) @ \(clock.fps.formatted) fps · frame \(number)"
                    + " · dropped \(clock.stats.dropped) · control \(socketPath) · Ctrl-C quits"
            }
            self.preview = preview
            outputs.replace(with: outputs.all + [preview])
        } else {
            self.preview = nil
        }
        self.logger = logger

        let plane = ControlPlane(
            store: store, clock: clock, events: events, display: display, startedAt: startedAt, logger: logger)
        self.plane = plane
        self.server = ControlServer(path: socketPath, plane: plane)
        if let web = config.web {
            let live = LiveFrame()
            self.live = live
            self.web = try WebServer(
                config: web, plane: plane, live: live, previewFPS: config.preview.fps, time: time)
            outputs.replace(with: outputs.all + [live])
        } else {
            self.live = nil
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
        plane.install(hooks())
        let player = PlaylistPlayer(
            PlaylistPlayer.Parts(
                store: store, clock: clock, events: events, logger: logger,
                loadScene: { [unowned self] path in loadScene(path) },
                unloadScene: { [unowned self] in unloadScene() },
                changed: { [unowned self] in saveState() }))
        self.player.withLock { $0 = player }
        streams.update(config.streams)
        clock.start()
        brightnessScheduler.run(Self.brightnessSchedule(config), keepRequested: true)
        fieldClock.start()
        player.run(
            playlists: config.playlists, schedule: Self.showSchedule(config), resuming: savedAtStart.playlist)
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
            brightnessScheduler.stop()
            fieldClock.stop()
            player.stop()
            clock.stop()
            server.stop()
            outputs.all.forEach { $0.stop() }
            streams.stop()
            throw error
        }
        // Last, once everything it may be asked to change is running: a request that waited
        // at the broker while signd was away arrives as soon as it connects.
        do {
            try mqtt?.start()
        } catch {
            logger.error("mqtt: \(error); signd runs on without MQTT")
        }
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
    }

    /// `STATUS=` for systemd: what `status` says, on one line.
    func statusLine() -> String { plane.statusLine() }

    /// Saves the run-time changes to the config's layers (a loaded scene's are not kept) and
    /// the display's brightness and on/off state.
    func saveState() {
        guard let stateFile else { return }
        var state = store.runtime.saved
        let configured = config.withLock { $0.display.brightness }
        let target = display.target
        state.brightness = target == configured ? nil : PersistedState.Replaced(target, replacing: configured)
        state.displayOff = !display.isOn
        state.brightnessSetAt = state.brightness == nil ? nil : display.setAt
        state.variables = store.variables
        state.playlist = player.withLock { $0 }?.status?.position
        stateFile.save(state)
    }

    /// The display as saved: the saved brightness unless the config's has changed since (the
    /// file wins, as for texts), and off if it was turned off. A saved brightness outside 0 to
    /// 1 (a hand-edited file) is dropped with a warning, as `set-brightness` would refuse it.
    static func restoredDisplay(_ saved: PersistedState, config: DaemonConfig.Display, logger: Logger)
        -> DisplayControl
    {
        var brightness = config.brightness
        if let replaced = saved.brightness, replaced.configValue == config.brightness {
            if replaced.value.isFinite, (0...1).contains(replaced.value) {
                brightness = replaced.value
            } else {
                logger.warning("saved brightness \(replaced.value) is not 0 to 1; using the config's \(brightness)")
            }
        }
        return DisplayControl(brightness: brightness, on: !saved.displayOff, setAt: saved.brightnessSetAt)
    }

    /// The board's window on the canvas, when the config has one.
    static func window(_ display: DaemonConfig.Display) -> (width: Int, height: Int, x: Int, y: Int)? {
        display.canvas.map { _ in (display.width, display.height, display.viewport.a, display.viewport.b) }
    }

    /// The config's `[[brightness]]` in its time zone.
    static func brightnessSchedule(_ config: DaemonConfig) -> BrightnessSchedule {
        BrightnessSchedule(entries: config.brightnessSchedule, timeZone: timeZone(config.display))
    }

    /// The config's `[[schedule]]` in its time zone.
    static func showSchedule(_ config: DaemonConfig) -> ShowSchedule {
        ShowSchedule(entries: config.schedule, timeZone: timeZone(config.display))
    }

    /// The time zone times of day and clock fields are read in: `display.timezone`, or the system's.
    public static func timeZone(_ display: DaemonConfig.Display) -> TimeZone {
        display.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
    }

    /// Re-reads the config. A config with problems is refused, each problem logged, and the
    /// running one stays untouched; a good one is applied between two frames. Texts set at
    /// run time stay unless the new config changes that layer's text.
    @discardableResult
    public func reload() -> [ConfigProblem] {
        SystemdNotifier.notify(SystemdNotifier.reloading())
        defer { SystemdNotifier.notify(["READY=1", statusLine()]) }
        let new: DaemonConfig
        do {
            new = try ConfigLoader.load(path: options.configPath, fonts: fonts, parser: .isolated)
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("config not reloaded: \(error.problems.count) problem(s); still running the previous config")
            return error.problems
        }
        let old = config.withLock { $0 }
        do {
            let extras: [any FrameSink] = (preview.map { [$0] } ?? []) + (live.map { [$0] } ?? [])
            let opened = try OutputSet.open(new, reusing: outputs.all) + extras
            let retired = outputs.all.filter { old in !opened.contains { $0 === old } }
            store.setTimeZone(Self.timeZone(new.display), now: clock.sceneTime())
            // On the realtime timeline changed layers begin at scene time 0 like the rest, so
            // every board shows them alike whenever it reloaded.
            let begin = old.display.realtimeEpoch == nil ? clock.sceneTime() : 0
            try store.replace(config: new.scene, loaded: nil, beginTime: begin) { swap in
                clock.sync {
                    swap()
                    outputs.replace(with: opened)
                    renderLoop.show(window: Self.window(new.display))
                }
            }
            retired.forEach { $0.stop() }
            plane.notifications.refreshAll(now: clock.sceneTime())
            streams.update(new.streams)
            clock.retime(fps: new.display.fps)
        } catch {
            let problem = ConfigProblem(file: options.configPath, line: 0, key: "-", message: "\(error)")
            logger.error("config not reloaded: \(error); still running the previous config")
            return [problem]
        }
        if new.display.brightness != old.display.brightness {
            // An edited brightness wins over one set at run time, as an edited text does.
            display.setBrightness(new.display.brightness, now: clock.sceneTime())
        }
        if new.brightnessSchedule != old.brightnessSchedule || new.display.timeZone != old.display.timeZone {
            brightnessScheduler.run(Self.brightnessSchedule(new), keepRequested: false)
        }
        if new.control != old.control || new.preview != old.preview || new.web != old.web || new.mqtt != old.mqtt
            || new.display.realtimeEpoch != old.display.realtimeEpoch
        {
            logger.warning("control, preview, web, mqtt and timeline settings take effect at the next start")
        }
        config.withLock { $0 = new }
        player.withLock { $0 }?.run(playlists: new.playlists, schedule: Self.showSchedule(new), resuming: nil)
        saveState()
        logger.info("config reloaded", metadata: ["config": "\(options.configPath)", "fps": "\(new.display.fps)"])
        return []
    }

    /// Stops: tells systemd, stops the clock, blanks the outputs if configured, marks them
    /// stopped, closes the control socket and finishes saving state.
    public func shutdown() {
        SystemdNotifier.notify(["STOPPING=1"])
        watchdog.withLock { $0?.stop() }
        brightnessScheduler.stop()
        fieldClock.stop()
        player.withLock { $0 }?.stop()
        memoryTrim.withLock { $0?.cancel() }
        clock.stop()
        if config.withLock({ $0.display.blankOnStop }) {
            clock.sync { renderLoop.blank(number: clock.lastFrameNumber + 1) }
        }
        outputs.all.forEach { $0.stop() }
        streams.stop()
        mqtt?.stop()
        web?.stop()
        server.stop()
        stateFile?.flush()
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
