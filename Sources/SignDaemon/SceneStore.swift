import SignControl
import SignGraphics
import SignScene
import Synchronization

/// The scene being shown and the run-time changes behind it. The frame clock copies the
/// prepared scene out for every frame; a change builds a changed copy (FreeType work
/// included) and swaps it in, so a frame never waits for a change being prepared. Every
/// change also records itself in the run-time state, so what is saved, reported and shown
/// after a reload comes from one place.
public final class SceneStore: Sendable {
    public let fonts: FontLibrary
    private let current: Mutex<PreparedScene>
    /// The config's scene and the run-time changes; written only under `changes`.
    private let show: Mutex<(config: Scene, runtime: RuntimeState)>
    /// Serialises changes, so two clients changing different layers both take effect.
    private let changes = Mutex(())

    /// Prepares `config` with the `saved` changes that still apply, its motion starting at 0.
    public init(config: Scene, saved: PersistedState = PersistedState(), fonts: FontLibrary) throws(FreeTypeError) {
        let (scene, runtime) = RuntimeState.shown(config: config, runtime: RuntimeState(saved: saved))
        var prepared = try PreparedScene(scene, beginTime: 0, fonts: fonts)
        for id in runtime.active.stopped {
            if let i = prepared.slotIndex(of: id) { prepared = prepared.setting(running: false, ofLayer: i, now: 0) }
        }
        self.current = Mutex(prepared)
        self.show = Mutex((config, runtime))
        self.fonts = fonts
    }

    /// The scene as it is now.
    public var scene: PreparedScene { current.withLock { $0 } }

    /// The run-time changes now.
    public var runtime: RuntimeState { show.withLock { $0.runtime } }

    /// The file's scene under the layers shown now (the config's, or a loaded scene's).
    var fileScene: Scene { show.withLock { $0.runtime.fileScene(config: $0.config) } }

    /// Shows `config` (a reload) or a loaded scene, with the run-time changes that still
    /// apply; changed layers start at `beginTime`, unchanged ones keep moving. `install` is
    /// given the swap to run (between two frames, with whatever must change with it); nothing
    /// changes if preparing throws.
    public func replace(
        config: Scene, loaded: RuntimeState.LoadedScene?, beginTime: Double,
        install: (() -> Void) -> Void = { $0() }
    ) throws(FreeTypeError) {
        try changes.withLock { _ throws(FreeTypeError) in
            var runtime = self.runtime
            runtime.loaded = loaded
            let (scene, kept) = RuntimeState.shown(config: config, runtime: runtime)
            var prepared = try PreparedScene(scene, replacing: self.scene, beginTime: beginTime, fonts: fonts)
            for (i, layer) in scene.layers.enumerated() {
                prepared = prepared.setting(
                    running: !kept.active.stopped.contains(layer.id), ofLayer: i, now: beginTime)
            }
            install { current.withLock { $0 = prepared } }
            show.withLock { $0 = (config, kept) }
        }
    }

    /// Records a change of the active layers' run-time state.
    private func record(_ change: (inout PersistedState) -> Void) {
        show.withLock { change(&$0.runtime.active) }
    }

    /// Moves spotlight `id` (the first spotlight when `nil`) to the zone named or numbered `zone`.
    public func selectZone(_ zone: String, layer id: String?, now: Double) throws(ControlError) {
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
            if let changed { current.withLock { $0 = changed } }
            record { $0.zones[spotlight.id] = spotlight.zones[index].name ?? String(index) }
        }
    }

    /// Sets `property` of a layer (`layer`, or a sublayer or mask inside it by id) to `value`
    /// (written as `raw` in the request).
    public func setProperty(
        _ property: LayerProperty, to value: AnimatableValue, raw: JSONValue, layer id: String, now: Double
    ) throws(ControlError) {
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let found =
                base.scene.layers.firstIndex { $0.id == id }
                ?? base.scene.layers.firstIndex {
                    if case .layer(let l) = $0 { return l.layer(withID: id) != nil }
                    return false
                }
            guard let index = found else { throw ControlError(.notFound, "no layer \"\(id)\"") }
            let top = base.scene.layers[index].id
            do throws(PreparedScene.PropertyChangeError) {
                let changed = try base.settingProperty(
                    property, to: value, ofLayer: index, sublayer: top == id ? nil : id, now: now, fonts: fonts)
                current.withLock { $0 = changed }
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
            record { state in
                let kept = state.properties[id]?[property.keyPath]?.configValue ?? configValue
                state.properties[id, default: [:]][property.keyPath] = .init(raw, replacing: kept)
            }
        }
    }

    /// Stops (`running` false) or restarts a layer's motion where it stood.
    public func setRunning(_ running: Bool, layer id: String?, now: Double) throws(ControlError) {
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let target = id ?? base.scene.mainLayerID ?? ""
            guard let index = base.slotIndex(of: target) else {
                throw ControlError(.notFound, "no layer \"\(target)\"")
            }
            let changed = base.setting(running: running, ofLayer: index, now: now)
            current.withLock { $0 = changed }
            record { state in
                if running { state.stopped.remove(target) } else { state.stopped.insert(target) }
            }
        }
    }

    /// Shows `text` in layer `id` (the main layer when `nil`), from scene time `now` (or
    /// `from`, when later) or from the end of the layer's loop then. Returns the scene time
    /// the text appears at when that is later than `now`.
    @discardableResult
    public func setText(
        _ text: String, layer id: String?, when: PreparedScene.When, now: Double, from: Double? = nil,
        transition: Transition? = nil
    ) throws(ControlError) -> Double? {
        guard text.unicodeScalars.count <= Request.maxTextLength else {
            throw ControlError(.invalidArgument, "text is longer than \(Request.maxTextLength) characters")
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
            guard let index = base.slotIndex(of: target) else {
                throw ControlError(
                    .notFound, "no layer \"\(target)\" (layers: \(base.scene.layers.map(\.id).joined(separator: ", ")))"
                )
            }
            let changed: PreparedScene
            do throws(PreparedScene.TextChangeError) {
                changed = try base.settingText(
                    text, ofLayer: index, when: when, now: now, from: from, fonts: fonts, transition: transition)
            } catch {
                switch error {
                case .noText(let id): throw ControlError(.invalidArgument, "layer \"\(id)\" shows no text")
                case .font(let error): throw ControlError(.internal, "could not lay out the text: \(error)")
                }
            }
            current.withLock { $0 = changed }
            let configText = fileScene.layers.first { $0.id == target }?.text
            record { state in
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

    /// Lays notifications out over layer `id` from scene time `begin` (its content holding
    /// still from then), or, with none, folds a finished run into the layer's clock. Each is
    /// the layer's own text style with another text, for its loops or its duration.
    func showNotifications(
        _ items: [(id: Int, text: String, loops: Int, duration: Double?)], layer id: String, begin: Double,
        firstStart: Double? = nil, transition: Transition?, now: Double
    ) throws(ControlError) -> NotificationRun? {
        try changes.withLock { _ throws(ControlError) -> NotificationRun? in
            let base = scene
            guard let index = base.slotIndex(of: id) else { throw ControlError(.notFound, "no layer \"\(id)\"") }
            guard !items.isEmpty else {
                current.withLock { $0 = base.setting(notifications: nil, ofLayer: index, now: now) }
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
                    transition: effective, rect: shown.rect, context: PreparationContext(base.scene, fonts: fonts),
                    previous: slot.notifications)
            } catch {
                throw ControlError(.internal, "could not lay out the notification: \(error)")
            }
            current.withLock { $0 = base.setting(notifications: run, ofLayer: index, now: now) }
            return run
        }
    }
}
