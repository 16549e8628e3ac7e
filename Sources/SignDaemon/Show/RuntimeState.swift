import SignConfig
import SignControl
import SignGraphics
import SignScene

/// What was changed at run time, kept apart from what the files say. What the board shows is
/// one function of the two, `RuntimeState.shown`, used alike at start-up (with the saved
/// changes), on reload, on load-scene and on every change.
public struct RuntimeState: Sendable, Equatable {
    /// A scene shown by `load-scene`: its file's layers, and the changes made to them since.
    public struct LoadedScene: Sendable, Equatable {
        public var path: String
        /// The file's scene (its board size is the running board's).
        public var scene: Scene
        /// Run-time changes to its layers; they end with the loaded scene.
        public var changes = PersistedState()

        public init(path: String, scene: Scene) {
            self.path = path
            self.scene = scene
        }
    }

    /// Changes to the config's layers. They outlive a restart and a loaded scene.
    public var saved: PersistedState
    /// The scene `load-scene` showed, until the next reload or restart.
    public var loaded: LoadedScene?

    public init(saved: PersistedState = PersistedState(), loaded: LoadedScene? = nil) {
        self.saved = saved
        self.loaded = loaded
    }

    /// The changes to the layers on the board now (the loaded scene's, else the config's).
    public var active: PersistedState {
        get { loaded?.changes ?? saved }
        set {
            if loaded != nil { loaded!.changes = newValue } else { saved = newValue }
        }
    }

    /// The file scene the board shows now, before run-time changes.
    public func fileScene(config: Scene) -> Scene {
        guard let loaded else { return config }
        var scene = config
        scene.layers = loaded.scene.layers
        scene.background = loaded.scene.background
        scene.icons = loaded.scene.icons
        return scene
    }

    /// What the board shows for `config` and these changes, and the changes that still
    /// apply: a text or property whose file value was edited since it was set yields to the
    /// file, as does a change to a layer the file no longer has.
    public static func shown(config: Scene, runtime: RuntimeState) -> (scene: Scene, runtime: RuntimeState) {
        var scene = runtime.fileScene(config: config)
        var runtime = runtime
        runtime.active = apply(runtime.active, to: &scene.layers, icons: Set(scene.icons.keys))
        return (scene, runtime)
    }

    /// Whether a text (saved, or from a request) may be shown: within the length a request
    /// may set, naming only configured icons.
    static func isAcceptable(_ text: String, icons: Set<String>) -> Bool {
        text.unicodeScalars.count <= Request.maxTextLength && RichText.iconNames(in: text).allSatisfy(icons.contains)
            && LiveFields.problems(in: text).isEmpty
    }

    /// Applies `changes` to `layers`; returns the changes that applied. A saved change passes
    /// the checks its request passed (a state file is input too).
    static func apply(_ changes: PersistedState, to layers: inout [SceneLayer], icons: Set<String>) -> PersistedState {
        var kept = PersistedState()
        for (i, layer) in layers.enumerated() {
            let id = layer.id
            if let entry = changes.layers[id], let text = layer.text, text == entry.configText,
                isAcceptable(entry.text, icons: icons), let changed = layer.withText(entry.text)
            {
                layers[i] = changed
                kept.layers[id] = entry
            }
            if case .spotlight(var spotlight) = layers[i], let zone = changes.zones[id],
                let index = spotlight.zoneIndex(named: zone)
            {
                spotlight.selected = index
                layers[i] = .spotlight(spotlight)
                kept.zones[id] = zone
            }
            if changes.stopped.contains(id) { kept.stopped.insert(id) }
        }
        for (target, entries) in changes.properties.sorted(by: { $0.key < $1.key }) {
            for (keyPath, entry) in entries.sorted(by: { $0.key < $1.key }) {
                guard let property = LayerProperty(keyPath: keyPath),
                    let value = try? PropertyValue.parse(entry.value, for: property)
                else { continue }
                for (i, layer) in layers.enumerated() {
                    guard case .layer(let tree) = layer, let model = tree.layer(withID: target),
                        let current = model[property], PropertyValue.json(current) == entry.configValue
                    else { continue }
                    if let changed = tree.setting(property, to: value, inLayer: target) { layers[i] = .layer(changed) }
                    kept.properties[target, default: [:]][keyPath] = entry
                    break
                }
            }
        }
        return kept
    }
}

extension Layer {
    /// The layer of this tree (itself, its mask, its sublayers, at any depth) with `id`.
    func layer(withID id: String) -> Layer? {
        if self.id == id { return self }
        if let found = mask?.layer(withID: id) { return found }
        for sublayer in sublayers {
            if let found = sublayer.layer(withID: id) { return found }
        }
        return nil
    }
}
