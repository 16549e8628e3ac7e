import Dispatch
import Foundation
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignOutput
import SignScene
import Synchronization

/// What the sign shows and everything that changes it at run time, behind one typed API: the
/// scene store, the display, the playlists and the schedule, notifications, live fields, the
/// stream layers' receivers, the run-time changes and the state file that keeps them.
///
/// The control plane's command table turns each request into one call here; the Show's own
/// timers (playlists, the `[[schedule]]`, `[[brightness]]`) call the same methods with
/// `source: .schedule`. A
/// change a client asked for is remembered and saved; when what is shown changes, the Show
/// saves its state (debounced by the state file) and tells systemd's STATUS line itself.
public final class Show: Sendable {
    /// Where the frames of the show go, as far as a reload changes it: the outputs, the render
    /// loop's window on the canvas, and the sinks that are not the config's (the terminal
    /// preview, the web page's live frame), which a reload keeps.
    struct Stage: Sendable {
        var outputs = OutputSet([])
        var renderLoop: RenderLoop?
        var extras: [any FrameSink] = []
    }

    /// The scene store and the display as the state file left them: what the frame clock
    /// renders, so they are made before the clock, and the Show (which times its changes on
    /// that clock) after it.
    struct Restored: Sendable {
        let store: SceneStore
        let display: DisplayControl
        let saved: PersistedState
    }

    public let store: SceneStore
    /// The display's brightness and on/off state.
    public let display: DisplayControl
    public let clock: FrameClock
    public let events: EventBus
    /// Notifications over the layers' content.
    let notifications: NotificationQueue
    /// The stream layers' receivers.
    let streams: StreamReceiverSet
    /// Keeps clock and countdown fields current.
    let fieldClock: FieldClock
    let logger: Logger
    private let stateFile: StateFile?
    /// The config file `reload` reads again; nil: a show made in a test, which has none.
    let configPath: String?
    /// How `reload` and `load-scene` parse a file: in a child process in signd.
    let parser: ConfigParser.Mode
    /// The config in effect; reload compares against it and replaces it.
    let config: Mutex<DaemonConfig>
    let stage: Stage
    /// The config in effect now.
    var running: DaemonConfig { config.withLock { $0 } }
    /// The playlist position saved at start, resumed by `start`.
    private let savedPlaylist: PlaylistPlayer.Position?
    /// The Show's own timers: the playlists and the `[[schedule]]`, and `[[brightness]]`.
    /// They change the show through its API, as requests do, so they hold the Show: made
    /// last in `init`, with the Show itself, and never replaced.
    private struct Timers {
        let player: PlaylistPlayer
        let brightness: BrightnessScheduler
    }
    private nonisolated(unsafe) var timers: Timers!
    /// The playlists and the schedule.
    var player: PlaylistPlayer { timers.player }
    /// Follows `[[brightness]]` through the day.
    var brightnessScheduler: BrightnessScheduler { timers.brightness }

    /// Where the timer for a pending text runs.
    private let queue = DispatchQueue(label: "signd.show")
    /// The timer behind `announceChange` and the scene time it is armed for (on `queue` only).
    private nonisolated(unsafe) var pendingTimer: (any ScheduledWork)?
    private nonisolated(unsafe) var pendingAt: Double?

    /// A show of `config` from the restored store and display, timed on `clock`; `stateFile`
    /// keeps its run-time changes, `configPath` is what `reload` reads.
    init(
        config: DaemonConfig, restored: Restored, clock: FrameClock, events: EventBus = EventBus(),
        logger: Logger = Logger(label: "signd"), stateFile: StateFile? = nil, configPath: String? = nil,
        parser: ConfigParser.Mode = .isolated, stage: Stage = Stage()
    ) {
        self.store = restored.store
        self.display = restored.display
        self.clock = clock
        self.events = events
        self.logger = logger
        self.stateFile = stateFile
        self.configPath = configPath
        self.parser = parser
        self.config = Mutex(config)
        self.stage = stage
        self.savedPlaylist = restored.saved.playlist
        self.notifications = NotificationQueue(store: restored.store, events: events, clock: clock)
        self.streams = StreamReceiverSet(events: events, logger: logger)
        self.fieldClock = FieldClock(store: restored.store, clock: clock)
        self.timers = Timers(player: PlaylistPlayer(show: self), brightness: BrightnessScheduler(show: self))
    }

    /// A show of `store` alone, with the default config around it (tests, and planes made
    /// without a daemon).
    convenience init(
        store: SceneStore, display: DisplayControl = DisplayControl(), clock: FrameClock, events: EventBus = EventBus(),
        logger: Logger = Logger(label: "signd"), config: DaemonConfig = DaemonConfig(), stateFile: StateFile? = nil
    ) {
        self.init(
            config: config, restored: Restored(store: store, display: display, saved: PersistedState()), clock: clock,
            events: events, logger: logger, stateFile: stateFile)
    }

    deinit { pendingTimer?.cancel() }

    /// Reads the state file and prepares `config`'s scene with the changes it saved, and the
    /// display as it was left.
    static func restore(
        config: DaemonConfig, stateFile: StateFile?, fonts: FontLibrary, time: any SignClock, logger: Logger
    ) throws -> Restored {
        let saved = stateFile?.load() ?? PersistedState()
        let store = try SceneStore(
            config: config.scene, saved: saved, fonts: fonts,
            fieldValues: LiveFields.Values(timeZone: timeZone(config.display)), time: time)
        return Restored(
            store: store, display: restoredDisplay(saved, config: config.display, logger: logger), saved: saved)
    }

    // MARK: Running

    /// Starts what runs by itself: the stream receivers, the brightness schedule, the field
    /// clock, and the playlists from the position saved at start.
    func start() {
        let config = running
        streams.update(config.streams)
        brightnessScheduler.run(Self.brightnessSchedule(config), keepRequested: true)
        fieldClock.start()
        player.run(playlists: config.playlists, schedule: Self.showSchedule(config), resuming: savedPlaylist)
    }

    /// Stops every timer (the daemon is stopping).
    func stop() {
        brightnessScheduler.stop()
        fieldClock.stop()
        player.stop()
        queue.sync {
            pendingTimer?.cancel()
            pendingTimer = nil
        }
    }

    /// Stops the stream receivers and waits until every requested save is on disk.
    func close() {
        streams.stop()
        stateFile?.flush()
    }

    // MARK: What requests do

    /// Shows `text` in layer `id` (the main layer when `nil`) from scene time `now` (or `from`)
    /// or from the end of the layer's loop. A client's text is remembered and saved, and under
    /// notifications the content that comes back is the new one; a playlist's
    /// (`source: .schedule`) is only shown: the player saves at the frame its item starts.
    func setText(
        _ text: String, layer id: String?, when: PreparedScene.When, transition: Transition?, now: Double,
        from: Double? = nil, source: RequestSource
    ) throws(ControlError) {
        guard source != .schedule else {
            try store.setText(
                text, layer: id, when: when, now: now, from: from, transition: transition, remember: false)
            fieldClock.textsChanged()
            return
        }
        let appears = try store.setText(text, layer: id, when: when, now: now, from: from, transition: transition)
        fieldClock.textsChanged()
        changed()
        // systemd's STATUS line follows the board: told again when a pending text shows.
        if let appears { queue.sync { announceChange(atSceneTime: appears) } }
        notifications.refresh(layer: id ?? store.scene.scene.mainLayerID ?? "", now: now)
    }

    /// Moves spotlight `layer` (the first when nil) to zone `zone`.
    func selectZone(_ zone: String, layer: String?, now: Double) throws(ControlError) {
        try store.selectZone(zone, layer: layer, now: now)
        changed()
    }

    /// Sets `property` of layer `layer` (or a sublayer or mask in it) to `value`, written `raw`.
    func setProperty(
        _ property: LayerProperty, to value: AnimatableValue, raw: JSONValue, layer: String, now: Double
    ) throws(ControlError) {
        try store.setProperty(property, to: value, raw: raw, layer: layer, now: now)
        changed()
    }

    /// Stops (`running` false) or restarts a layer's motion where it stood.
    func setRunning(_ running: Bool, layer: String?, now: Double) throws(ControlError) {
        try store.setRunning(running, layer: layer, now: now)
        changed()
    }

    /// Queues a notification; returns its id.
    func notify(_ request: Request.Notify, transition: Transition?, now: Double) throws(ControlError) -> Int {
        let id = try notifications.notify(request, transition: transition, now: now)
        changed()
        return id
    }

    /// Ends notification `id`, or every one with nil.
    func dismiss(_ id: Int?, now: Double) throws(ControlError) {
        try notifications.dismiss(id, now: now)
        changed()
    }

    /// Sets variable `name` (empty: unsets it) for every `{var:NAME}` field.
    func setVariable(_ name: String, to value: String, now: Double) throws(ControlError) {
        try store.setVariable(name, to: value, now: now)
        fieldClock.textsChanged()
        changed()
    }

    /// Carries out a `playlist` request: select, next, previous, pause, resume.
    func playlist(_ command: Request.Playlist) throws(ControlError) {
        try player.handle(command)
        changed()
    }

    /// Fades to `value` over `duration` seconds from scene time `now`. A request's level holds
    /// until the brightness schedule's next change and is saved; the schedule's own
    /// (`source: .schedule`) is neither.
    func setBrightness(_ value: Double, duration: Double, now: Double, source: RequestSource) {
        guard source != .schedule else {
            display.setBrightness(value, duration: duration, now: now)
            return
        }
        display.setBrightness(value, duration: duration, now: now, requestedAt: clock.time.date().timeIntervalSince1970)
        changed()
    }

    /// Turns the display on or off.
    func setDisplay(on: Bool) {
        display.setOn(on)
        changed()
    }

    // MARK: Status parts

    /// The outputs `status` reports: the live frame kept for the web page is not the sign's.
    var outputs: [any FrameSink] { stage.outputs.all.filter { !($0 is LiveFrame) } }

    /// The configured playlists' names.
    var playlistNames: [String] { config.withLock { $0.playlists.map(\.name) } }

    /// The playlist playing, for `status`; nil when none.
    var playlistStatus: PlaylistStatus? {
        guard let (position, label) = player.status else { return nil }
        return PlaylistStatus(name: position.playlist, item: label, index: position.index, paused: position.paused)
    }

    /// The board's window on a larger canvas: `(width, height, x, y)` of the board, and the
    /// canvas's size; nil when the board is the whole sign.
    var window: (board: (Int, Int, Int, Int), canvas: (Int, Int))? {
        let display = config.withLock { $0.display }
        guard let window = Self.window(display), let canvas = display.canvas else { return nil }
        return ((window.width, window.height, window.x, window.y), (canvas.a, canvas.b))
    }

    /// `STATUS=` for systemd: frame rate, the main text on screen (and a pending one), the
    /// outputs and their states; one line, whatever the texts contain.
    func statusLine() -> String {
        let main = StatusReport.mainText(store.scene, at: clock.sceneTime())
        func short(_ text: String) -> String {
            let shown = text.escapingControlCharacters
            return shown.count > 60 ? String(shown.prefix(57)) + "..." : shown
        }
        let next = main.pending.map { " (next: \"\(short($0.text))\")" } ?? ""
        let outputs = outputs.map { "\($0.name.escapingControlCharacters) \($0.state.rawValue)" }
            .joined(separator: ", ")
        let shown = display.isOn ? "\"\(short(main.shown))\"\(next)" : "display off"
        return "STATUS=\(clock.fps.formatted) fps · \(shown) · outputs: \(outputs.isEmpty ? "none" : outputs)"
    }

    // MARK: Saving

    /// What is shown changed: saves the state (the state file writes the newest soon, once)
    /// and tells systemd's STATUS line.
    func changed() {
        save()
        SystemdNotifier.notify([statusLine()])
    }

    /// Saves the run-time changes to the config's layers (a loaded scene's are not kept), the
    /// display's brightness and on/off state, the variables and the playlist's position. The
    /// player saves with this alone at its items' frames: systemd's STATUS line is told of
    /// requests' changes, not of each item.
    func save() {
        guard let stateFile else { return }
        var state = store.runtime.saved
        let configured = config.withLock { $0.display.brightness }
        let target = display.target
        state.brightness = target == configured ? nil : PersistedState.Replaced(target, replacing: configured)
        state.displayOff = !display.isOn
        state.brightnessSetAt = state.brightness == nil ? nil : display.setAt
        state.variables = store.variables
        state.playlist = player.status?.position
        stateFile.save(state)
    }

    /// Tells systemd again when a pending text appears at scene time `t`. One timer, re-armed
    /// by each pending change (the one before cancelled): a client scheduling texts a day
    /// ahead leaves nothing behind per request. On `queue` only.
    private func announceChange(atSceneTime t: Double) {
        if let armed = pendingAt, armed > clock.sceneTime(), armed <= t { return }
        pendingAt = t
        pendingTimer?.cancel()
        pendingTimer = clock.time.schedule(at: clock.monotonic(atSceneTime: t), leeway: .nanoseconds(0), on: queue) {
            [weak self] in self?.pendingChangeShown()
        }
    }

    /// A pending change has appeared: save and tell, and wait for the next one, if any.
    private func pendingChangeShown() {
        pendingAt = nil
        changed()
        let scene = store.scene
        let now = clock.sceneTime()
        let next = scene.slots.indices.compactMap { scene.pendingText(ofLayer: $0, at: now)?.from }.min()
        if let next { announceChange(atSceneTime: next) }
    }

    // MARK: The config's words

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
}
