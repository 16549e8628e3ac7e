import Foundation
import SignConfig
import SignControl
import SignGraphics
import SignScene
import Synchronization

/// The scene being shown and the run-time changes behind it. The frame clock copies the
/// prepared scene out for every frame; a change builds a changed copy (FreeType work
/// included) and swaps it in, so a frame never waits for a change being prepared. A change
/// a client asked for is also remembered in the run-time state, so what is saved, reported
/// and shown after a reload comes from one place.
///
/// Two words, one meaning each: to *show* is to put a prepared scene on screen from the
/// next frame; to *remember* is to keep a change in the run-time state (what a reload keeps
/// and the state file saves). A playlist's text is shown and not remembered.
public final class SceneStore: Sendable {
    public let fonts: FontLibrary
    /// The wall clock live fields are expanded at, and the monotonic clock retired scenes wait on.
    private let time: any SignClock
    private let current: Mutex<PreparedScene>

    /// What changes prepare from besides the scene on screen.
    private struct State {
        /// The config's scene.
        var config: Scene
        /// The run-time changes remembered.
        var runtime: RuntimeState
        /// What live fields are expanded with: the time zone and `set-var`'s variables.
        var fieldValues: LiveFields.Values
        /// The minute (or second) turn whose new field values are already prepared, with the
        /// scene time of its frame: a text set after that is brought up to it too.
        var preparedTurn: (date: Date, from: Double)?
    }

    /// Written only under `changes`, read from anywhere. One lock for the three: each was
    /// already written only under `changes` and read on its own, never two together, so
    /// holding one lock for a read of any of them orders nothing differently. Who must hear
    /// of a change of texts (the field clock) hears it from the Show, which made the change.
    private let state: Mutex<State>
    /// Serialises changes, so two clients changing different layers both take effect. Held
    /// while a change is prepared (FreeType work), so readers never wait on it.
    private let changes = Mutex(())

    /// Prepares `config` with the `saved` changes that still apply, its motion starting at 0,
    /// its live fields expanded with `fieldValues` and the saved variables as they stand at
    /// `date` (default: `time`'s wall clock, which later changes read, and whose monotonic
    /// clock retired scenes wait on).
    public init(
        config: Scene, saved: PersistedState = PersistedState(), fonts: FontLibrary,
        fieldValues: LiveFields.Values = LiveFields.Values(), at date: Date? = nil,
        time: any SignClock = SystemClock()
    ) throws(FreeTypeError) {
        self.time = time
        let date = date ?? time.date()
        var values = fieldValues
        for (name, value) in saved.variables
        where Request.SetVar.isValidName(name) && value.unicodeScalars.count <= Request.maxTextLength
            && values.variables.count < LiveFields.maxVariables
        {
            values.variables[name] = value
        }
        let restored = values
        let (scene, runtime) = RuntimeState.shown(config: config, runtime: RuntimeState(saved: saved))
        var prepared = try PreparedScene(
            scene, beginTime: 0, fonts: fonts, fields: { LiveFields.expand($0, at: date, restored) })
        for id in runtime.active.stopped {
            if let i = prepared.slotIndex(of: id) { prepared = prepared.setting(running: false, ofLayer: i, now: 0) }
        }
        self.current = Mutex(prepared)
        self.state = Mutex(State(config: config, runtime: runtime, fieldValues: restored))
        self.fonts = fonts
    }

    /// The scene as it is now.
    public var scene: PreparedScene { current.withLock { $0 } }

    /// Scenes replaced lately, kept until no frame can still be drawing them (with the
    /// monotonic time each may go), so that the frame clock's thread never frees a scene: a
    /// frame holding the last copy of one would free its layers' storage on the frame path,
    /// waiting on malloc's locks behind the threads that allocate.
    private let retired = Mutex<[(scene: PreparedScene, until: UInt64)]>([])
    /// How long a replaced scene is kept: far longer than any frame takes to draw.
    static let retiredFor: UInt64 = 100_000_000
    /// Most scenes kept; beyond, the oldest goes (a storm of changes faster than this could
    /// make a frame free one again, nothing worse).
    static let maxRetired = 16

    /// Shows `scene` from the next frame; the one it replaces is retired, not freed here.
    private func show(_ scene: PreparedScene) {
        let old = current.withLock { current in
            let old = current
            current = scene
            return old
        }
        // Only kept here: this may run on the frame clock's queue (a reload's swap). The
        // change's own thread frees what has expired, once it is done (`releaseRetired`).
        retired.withLock { $0.append((old, time.now() + Self.retiredFor)) }
    }

    /// Frees the replaced scenes no frame can be drawing any more (called now and then, so a
    /// board left alone does not keep its last changes' scenes).
    public func releaseRetired() {
        let now = time.now()
        // The list is in the order scenes were retired: what may go is a prefix.
        let expired: [(scene: PreparedScene, until: UInt64)] = retired.withLock { list in
            let over = max(list.count - Self.maxRetired, list.prefix { $0.until <= now }.count)
            defer { list.removeFirst(over) }
            return Array(list.prefix(over))
        }
        _ = expired  // freed here, on this thread
    }

    /// The run-time changes now.
    public var runtime: RuntimeState { state.withLock { $0.runtime } }

    /// The variables `set-var` set.
    public var variables: [String: String] { state.withLock { $0.fieldValues.variables } }

    /// Expands live fields as they stand at `date`.
    public func fields(at date: Date) -> @Sendable (String) -> String {
        let values = state.withLock { $0.fieldValues }
        return { LiveFields.expand($0, at: date, values) }
    }

    /// The file's scene under the layers shown now (the config's, or a loaded scene's).
    var fileScene: Scene { state.withLock { $0.runtime.fileScene(config: $0.config) } }

    /// Shows `config` (a reload) or a loaded scene, with the run-time changes that still
    /// apply; changed layers start at `beginTime`, unchanged ones keep moving. `install` is
    /// given the swap to run (between two frames, with whatever must change with it); nothing
    /// changes if preparing throws.
    public func replace(
        config: Scene, loaded: RuntimeState.LoadedScene?, beginTime: Double,
        install: (() -> Void) -> Void = { $0() }
    ) throws(FreeTypeError) {
        defer { releaseRetired() }
        try changes.withLock { _ throws(FreeTypeError) in
            var runtime = self.runtime
            runtime.loaded = loaded
            let (scene, kept) = RuntimeState.shown(config: config, runtime: runtime)
            var prepared = try PreparedScene(
                scene, replacing: self.scene, beginTime: beginTime, fonts: fonts, fields: fields(at: time.date()))
            for (i, layer) in scene.layers.enumerated() {
                prepared = prepared.setting(
                    running: !kept.active.stopped.contains(layer.id), ofLayer: i, now: beginTime)
            }
            install { self.show(prepared) }
            state.withLock {
                $0.config = config
                $0.runtime = kept
            }
            bringUpToPreparedTurn(now: beginTime)
        }
    }

    /// Remembers a change of the active layers' run-time state.
    private func remember(_ change: (inout PersistedState) -> Void) {
        state.withLock { change(&$0.runtime.active) }
    }

    /// Moves spotlight `id` (the first spotlight when `nil`) to the zone named or numbered `zone`.
    public func selectZone(_ zone: String, layer id: String?, now: Double) throws(ControlError) {
        defer { releaseRetired() }
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let spotlights = base.scene.layers.compactMap { if case .spotlight(let s) = $0 { s } else { nil } }
            guard let spotlight = id.map({ id in spotlights.first { $0.id == id } }) ?? spotlights.first else {
                throw ControlError(.notFound, id.map { "no spotlight layer \"\($0)\"" } ?? "the scene has no spotlight")
            }
            guard let index = spotlight.zoneIndex(named: zone) else {
                let names = spotlight.zones.enumerated().map { $0.element.name ?? String($0.offset) }
                throw ControlError(
                    .notFound,
                    "spotlight \"\(spotlight.id)\" has no zone \"\(zone)\" (zones: \(names.joined(separator: ", ")))")
            }
            guard let slot = base.slotIndex(of: spotlight.id) else { return }
            let changed: PreparedScene?
            do {
                changed = try base.selectingZone(index, ofLayer: slot, now: now, fonts: fonts)
            } catch {
                throw ControlError(.internal, "could not prepare the spotlight: \(error)")
            }
            if let changed { show(changed) }
            remember { $0.zones[spotlight.id] = spotlight.zones[index].name ?? String(index) }
        }
    }

    /// Sets `property` of a layer (`layer`, or a sublayer or mask inside it by id) to `value`
    /// (written as `raw` in the request).
    public func setProperty(
        _ property: LayerProperty, to value: AnimatableValue, raw: JSONValue, layer id: String, now: Double
    ) throws(ControlError) {
        defer { releaseRetired() }
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let found =
                base.scene.layers.firstIndex { $0.id == id }
                ?? base.scene.layers.firstIndex {
                    if case .layer(let l) = $0 { return l.layer(withID: id) != nil }
                    return false
                }
            guard let index = found else { throw base.noLayer(id) }
            let top = base.scene.layers[index].id
            do throws(PreparedScene.PropertyChangeError) {
                let changed = try base.settingProperty(
                    property, to: value, ofLayer: index, sublayer: top == id ? nil : id, now: now, fonts: fonts)
                show(changed)
            } catch {
                switch error {
                case .notALayer(let layer):
                    throw ControlError(
                        .invalidArgument,
                        "layer \"\(layer)\" is a marquee or spotlight; set-property changes declared layers")
                case .noProperty(let layer, let property):
                    throw ControlError(.notFound, "layer \"\(layer)\" has no property \"\(property.keyPath)\"")
                case .font(let e): throw ControlError(.internal, "could not prepare the layer: \(e)")
                }
            }
            // The file's value it replaces, so that an edit of the file there wins later.
            guard case .layer(let fileTree)? = fileScene.layers.first(where: { $0.id == top }),
                let fileValue = fileTree.layer(withID: id)?[property]
            else { return }
            let configValue = PropertyValue.json(fileValue)
            remember { state in
                let kept = state.properties[id]?[property.keyPath]?.configValue ?? configValue
                state.properties[id, default: [:]][property.keyPath] = .init(raw, replacing: kept)
            }
        }
    }

    /// Stops (`running` false) or restarts a layer's motion where it stood.
    public func setRunning(_ running: Bool, layer id: String?, now: Double) throws(ControlError) {
        defer { releaseRetired() }
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let target = id ?? base.scene.mainLayerID ?? ""
            guard let index = base.slotIndex(of: target) else { throw base.noLayer(target) }
            let changed = base.setting(running: running, ofLayer: index, now: now)
            show(changed)
            remember { state in
                if running { state.stopped.remove(target) } else { state.stopped.insert(target) }
            }
        }
    }

    /// Shows `text` in layer `id` (the main layer when `nil`), from scene time `now` (or
    /// `from`, when later) or from the end of the layer's loop then. Returns the scene time
    /// the text appears at when that is later than `now`. `remember` false (a playlist's item)
    /// shows it without keeping it as a run-time change.
    @discardableResult
    public func setText(
        _ text: String, layer id: String?, when: PreparedScene.When, now: Double, from: Double? = nil,
        transition: Transition? = nil, remember: Bool = true
    ) throws(ControlError) -> Double? {
        defer { releaseRetired() }
        guard text.unicodeScalars.count <= Request.maxTextLength else {
            throw ControlError(.invalidArgument, "text is longer than \(Request.maxTextLength) characters")
        }
        if let problem = LiveFields.problems(in: text).first {
            throw ControlError(.invalidArgument, "text: \(problem)")
        }
        return try changes.withLock { _ throws(ControlError) -> Double? in
            let base = scene
            for name in RichText.iconNames(in: text) where base.scene.icons[name] == nil {
                let known = base.scene.icons.keys.sorted()
                throw ControlError(
                    .invalidArgument,
                    "no icon \"\(name)\" (icons: \(known.isEmpty ? "none configured" : known.joined(separator: ", ")))")
            }
            let target = id ?? base.scene.mainLayerID ?? ""
            guard let index = base.slotIndex(of: target) else { throw base.noLayer(target) }
            let changed: PreparedScene
            do throws(PreparedScene.TextChangeError) {
                changed = try base.settingText(
                    text, ofLayer: index, when: when, now: now, from: from, fonts: fonts, transition: transition,
                    fields: fields(at: time.date()))
            } catch {
                switch error {
                case .noText(let id): throw ControlError(.invalidArgument, "layer \"\(id)\" shows no text")
                case .font(let error): throw ControlError(.internal, "could not lay out the text: \(error)")
                }
            }
            show(changed)
            bringUpToPreparedTurn(now: now, layer: index)
            guard remember else { return changed.pendingText(ofLayer: index, at: now)?.from }
            let configText = fileScene.layers.first { $0.id == target }?.text
            self.remember { state in
                guard let configText else { return }
                if text == configText {
                    state.layers[target] = nil
                } else {
                    state.layers[target] = .init(text: text, configText: configText)
                }
            }
            return changed.pendingText(ofLayer: index, at: now)?.from
        }
    }

    /// The text layer `id` shows by the file and the run-time `set-text`s, without what a
    /// playlist showed over them.
    public func ownText(ofLayer id: String) -> String? {
        state.withLock {
            RuntimeState.shown(config: $0.config, runtime: $0.runtime).scene.layers.first { $0.id == id }?.text
        }
    }

    /// Lays notifications out over layer `id` from scene time `begin` (its content holding
    /// still from then), or, with none, folds a finished run into the layer's clock. Each is
    /// the layer's own text style with another text, for its loops or its duration.
    func showNotifications(
        _ items: [(id: Int, text: String, loops: Int, duration: Double?)], layer id: String, begin: Double,
        firstStart: Double? = nil, transition: Transition?, now: Double
    ) throws(ControlError) -> NotificationRun? {
        defer { releaseRetired() }
        return try changes.withLock { _ throws(ControlError) -> NotificationRun? in
            let base = scene
            guard let index = base.slotIndex(of: id) else { throw base.noLayer(id) }
            guard !items.isEmpty else {
                show(base.setting(notifications: nil, ofLayer: index, now: now))
                return nil
            }
            let slot = base.slots[index].folded(at: begin, beginning: true)
            let frozenAt = slot.pausedAt ?? (begin - slot.lag)
            let shown = slot.layer(at: frozenAt)
            var sources: [(id: Int, source: SceneLayer, loops: Int, duration: Double?)] = []
            for item in items {
                guard let source = shown.source.withText(item.text) else {
                    throw ControlError(.invalidArgument, "layer \"\(id)\" shows no text")
                }
                sources.append((item.id, source, item.loops, item.duration))
            }
            var effective = transition ?? .cut
            if transition == nil, case .marquee(let marquee) = shown.source { effective = marquee.transition }
            let run: NotificationRun
            do {
                run = try NotificationRun(
                    sources, begin: begin, firstStart: firstStart, content: slot.tree(at: frozenAt), frozenAt: frozenAt,
                    lag: slot.lag,
                    transition: effective, rect: shown.rect,
                    context: PreparationContext(base.scene, fonts: fonts, fields: fields(at: time.date())),
                    previous: slot.notifications)
            } catch {
                throw ControlError(.internal, "could not lay out the notification: \(error)")
            }
            show(base.setting(notifications: run, ofLayer: index, now: now))
            return run
        }
    }

    // MARK: Live fields

    /// Sets variable `name` (empty: unset) for every `{var:NAME}` field; the texts showing
    /// it are laid out again and shown from scene time `now`, marquees going on where they are.
    public func setVariable(_ name: String, to value: String, now: Double) throws(ControlError) {
        defer { releaseRetired() }
        guard Request.SetVar.isValidName(name) else {
            throw ControlError(.invalidArgument, "name must be 1 to 64 of A-Z a-z 0-9 _ . -")
        }
        guard value.unicodeScalars.count <= Request.maxTextLength else {
            throw ControlError(.invalidArgument, "value is longer than \(Request.maxTextLength) characters")
        }
        try changes.withLock { _ throws(ControlError) in
            try state.withLock { state throws(ControlError) in
                if value.isEmpty {
                    state.fieldValues.variables[name] = nil
                } else {
                    let variables = state.fieldValues.variables
                    guard variables[name] != nil || variables.count < LiveFields.maxVariables else {
                        throw ControlError(.busy, "\(LiveFields.maxVariables) variables are set; unset one first")
                    }
                    state.fieldValues.variables[name] = value
                }
            }
            refresh(at: time.date(), from: now, now: now) { LiveFields.variables(in: $0).contains(name) }
        }
    }

    /// Reads times of day in `zone` from now on; clock fields are shown again at once.
    public func setTimeZone(_ zone: TimeZone, now: Double) {
        defer { releaseRetired() }
        changes.withLock { _ in
            guard state.withLock({ $0.fieldValues.timeZone }) != zone else { return }
            state.withLock { $0.fieldValues.timeZone = zone }
            refresh(at: time.date(), from: now, now: now) { LiveFields.granularity(of: $0) != nil }
        }
    }

    /// Prepares every text whose fields show another value at `date` (a minute turning) and
    /// swaps each in at scene time `from`, the frame due at that instant.
    public func refreshFields(at date: Date, from: Double, now: Double) {
        defer { releaseRetired() }
        changes.withLock { _ in
            state.withLock { $0.preparedTurn = (date, from) }
            refresh(at: date, from: from, now: now) { LiveFields.granularity(of: $0) != nil }
        }
    }

    /// The next instant after `date` at which a text shown or waiting may show another value.
    public func nextFieldChange(after date: Date) -> Date? {
        let slots = scene.slots
        var finest: LiveFields.Granularity?
        for slot in slots {
            for layer in [slot.current, slot.next?.layer].compactMap({ $0 }) {
                if let text = layer.source.text, let g = LiveFields.granularity(of: text) {
                    finest = min(finest ?? g, g)
                }
            }
        }
        return finest.map { LiveFields.nextChange(after: date, granularity: $0) }
    }

    /// Lays out again, from `from`, the slots whose text passes `affected` (under `changes`).
    private func refresh(at date: Date, from: Double, now: Double, layer: Int? = nil, _ affected: (String) -> Bool) {
        let expand = fields(at: date)
        var scene = self.scene
        var changed = false
        for index in layer.map({ [$0] }) ?? Array(scene.slots.indices) {
            guard let text = scene.slots[index].current.source.text, affected(text) else { continue }
            do {
                if let next = try scene.refreshingFields(
                    ofLayer: index, fields: expand, from: from, now: now, fonts: fonts)
                {
                    scene = next
                    changed = true
                }
            } catch {
                continue  // the text shown stays; the next turn tries again
            }
        }
        if changed { show(scene) }
    }

    /// A text laid out after the next turn's values were prepared gets them too (under `changes`).
    private func bringUpToPreparedTurn(now: Double, layer: Int? = nil) {
        guard let turn = state.withLock({ $0.preparedTurn }), turn.from > now else { return }
        refresh(at: turn.date, from: turn.from, now: now, layer: layer) { LiveFields.granularity(of: $0) != nil }
    }
}

extension PreparedScene {
    /// `not-found` for a layer id a request named, with the layers there are (and the one
    /// it is nearest), so every command that takes a layer says the same.
    func noLayer(_ id: String) -> ControlError {
        let ids = scene.layers.map(\.id)
        return ControlError(
            .notFound, "no layer \"\(id)\"\(NearestWord.hint(ids, for: id)) (layers: \(ids.joined(separator: ", ")))")
    }
}
