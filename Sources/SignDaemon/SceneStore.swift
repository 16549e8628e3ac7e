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
