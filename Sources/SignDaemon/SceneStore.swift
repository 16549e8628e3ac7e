import SignControl
import SignGraphics
import SignScene
import Synchronization

/// The scene being shown. The frame clock copies it out for every frame; the control
/// server builds a changed copy (FreeType work included) and swaps it in, so a frame never
/// waits for a change being prepared.
public final class SceneStore: Sendable {
    public let fonts: FontLibrary
    private let current: Mutex<PreparedScene>
    /// Serialises changes, so two clients changing different layers both take effect.
    private let changes = Mutex(())

    public init(_ scene: PreparedScene, fonts: FontLibrary) {
        self.current = Mutex(scene)
        self.fonts = fonts
    }

    /// The scene as it is now.
    public var scene: PreparedScene { current.withLock { $0 } }

    /// Replaces the whole scene (a reload), after any change being prepared.
    public func replace(with scene: PreparedScene) {
        changes.withLock { _ in current.withLock { $0 = scene } }
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
        }
    }

    /// Sets a property of a layer (`layer`, or a sublayer or mask inside it by id).
    public func setProperty(_ keyPath: String, to raw: JSONValue, layer id: String, now: Double) throws(ControlError) {
        guard let kind = AnimatableValue.kinds[keyPath] else {
            throw ControlError(
                .invalidArgument,
                "\"\(keyPath)\" is not a layer property (one of: \(AnimatableValue.kinds.keys.sorted().joined(separator: ", ")))"
            )
        }
        let numbers: [Double]? =
            raw.doubleValue.map { [$0] }
            ?? raw.arrayValue.flatMap { a in
                let n = a.compactMap(\.doubleValue)
                return n.count == a.count ? n : nil
            }
        let colors: [Color]? =
            raw.stringValue.flatMap(Color.init(parsing:)).map { [$0] }
            ?? raw.arrayValue.flatMap { a in
                let c = a.compactMap { $0.stringValue.flatMap(Color.init(parsing:)) }
                return c.count == a.count ? c : nil
            }
        guard let value = AnimatableValue.make(kind, numbers: numbers, colors: colors) else {
            throw ControlError(.invalidArgument, "\"\(keyPath)\" takes \(kind.example)")
        }
        try changes.withLock { _ throws(ControlError) in
            let base = scene
            let found =
                base.scene.layers.firstIndex { $0.id == id }
                ?? base.scene.layers.firstIndex {
                    if case .layer(let l) = $0 { return l.setting(keyPath, to: value, inLayer: id) != nil }
                    return false
                }
            guard let index = found else { throw ControlError(.notFound, "no layer \"\(id)\"") }
            let top = base.scene.layers[index].id
            do throws(PreparedScene.PropertyChangeError) {
                let changed = try base.settingProperty(
                    keyPath, to: value, ofLayer: index, sublayer: top == id ? nil : id, now: now, fonts: fonts)
                current.withLock { $0 = changed }
            } catch {
                switch error {
                case .notALayer(let layer):
                    throw ControlError(
                        .invalidArgument,
                        "layer \"\(layer)\" is a marquee or spotlight; set-property changes declared layers")
                case .noProperty(let layer, let key):
                    throw ControlError(.notFound, "layer \"\(layer)\" has no property \"\(key)\"")
                case .font(let e): throw ControlError(.internal, "could not prepare the layer: \(e)")
                }
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
        }
    }

    /// Longest text `set-text` accepts, in characters.
    public static let maxTextLength = 8192

    /// Shows `text` in layer `id` (the main layer when `nil`), from scene time `now` or from
    /// the end of the layer's current loop.
    public func setText(
        _ text: String, layer id: String?, when: PreparedScene.When, now: Double, transition: Transition? = nil
    ) throws(ControlError) {
        guard text.unicodeScalars.count <= Self.maxTextLength else {
            throw ControlError(.invalidArgument, "text is longer than \(Self.maxTextLength) characters")
        }
        try changes.withLock { _ throws(ControlError) in
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
                    text, ofLayer: index, when: when, now: now, fonts: fonts, transition: transition)
            } catch {
                switch error {
                case .noText(let id): throw ControlError(.invalidArgument, "layer \"\(id)\" shows no text")
                case .font(let error): throw ControlError(.internal, "could not lay out the text: \(error)")
                }
            }
            current.withLock { $0 = changed }
        }
    }
}
