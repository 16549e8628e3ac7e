import SignGraphics

/// A scene ready to render, with every text layer prepared. A text change can be scheduled
/// for a later time (the end of the current loop); the renderer shows it from then on.
/// Immutable: a change makes a new one.
public struct PreparedScene: Sendable {
    /// One text layer: what it shows now and, maybe, what it shows from a later time.
    public struct Slot: Sendable {
        public let current: PreparedSceneLayer
        public let next: (layer: PreparedSceneLayer, from: Double)?
        /// The layer's own clock when stopped (`stop`), in its local time; `nil` while it runs.
        public var pausedAt: Double?
        /// How far the layer's clock is behind scene time, from its stops so far.
        public var lag: Double = 0
        /// Notifications over the layer's content, while they run (and until folded into
        /// `lag` once over).
        public var notifications: NotificationRun?

        public init(
            current: PreparedSceneLayer, next: (layer: PreparedSceneLayer, from: Double)?, pausedAt: Double? = nil,
            lag: Double = 0
        ) {
            self.current = current
            self.next = next
            self.pausedAt = pausedAt
            self.lag = lag
        }

        /// The layer's local time at scene time `t`: frozen while stopped or under
        /// notifications, behind by its pauses otherwise (Core Animation's speed 0 /
        /// timeOffset idiom).
        public func localTime(_ t: Double) -> Double { withUnsafePointer(to: self) { Self.localTime($0, t) } }

        /// What to draw at scene time `t`, and the time to draw it at: a notification (or
        /// the transition back from the last one) in scene time, else the layer's tree at its
        /// local time.
        public func drawing(at t: Double) -> (tree: PreparedLayer, time: Double) {
            withUnsafePointer(to: self) { Self.drawing($0, at: t) }
        }

        // `localTime`, `tree(at:)` and `drawing(at:)` of the slot at `slot`, read in place: a
        // call on an element of the scene's slots copies the whole slot (its layers and
        // notifications retained and released) every frame; reading its fields through a
        // pointer does not.

        static func localTime(_ slot: UnsafePointer<Slot>, _ t: Double) -> Double {
            if let pausedAt = slot.pointee.pausedAt { return pausedAt }
            guard let begin = slot.pointee.notifications?.begin, t >= begin, let run = slot.pointee.notifications else {
                return t - slot.pointee.lag
            }
            return t < run.end ? run.begin - slot.pointee.lag : t - slot.pointee.lag - run.span
        }

        static func tree(_ slot: UnsafePointer<Slot>, at t: Double) -> PreparedLayer {
            if let from = slot.pointee.next?.from, t >= from, let next = slot.pointee.next?.layer.tree { return next }
            return slot.pointee.current.tree
        }

        static func drawing(_ slot: UnsafePointer<Slot>, at t: Double) -> (tree: PreparedLayer, time: Double) {
            if let begin = slot.pointee.notifications?.begin, t >= begin, let run = slot.pointee.notifications {
                if let show = run.show(at: t) { return (show.tree, t) }
                if t < run.end + run.exitDuration { return (run.exit, t) }
            }
            let local = localTime(slot, t)
            return (tree(slot, at: local), local)
        }

        /// This slot with a notification run that is over folded into its clock. A new run
        /// beginning at `t` (`beginning`) also folds one whose last notification has ended,
        /// its way back cut short.
        public func folded(at t: Double, beginning: Bool = false) -> Slot {
            guard let run = notifications,
                t >= run.end + run.exitDuration || (beginning && t >= run.end && t > run.begin)
            else { return self }
            var slot = self
            slot.notifications = nil
            if slot.pausedAt == nil { slot.lag += run.span }
            return slot
        }

        /// The prepared layer in effect at local time `t`.
        public func layer(at t: Double) -> PreparedSceneLayer {
            if let next, t >= next.from { return next.layer }
            return current
        }

        /// The tree drawn at local time `t` (without copying the prepared layer around it).
        public func tree(at t: Double) -> PreparedLayer { withUnsafePointer(to: self) { Self.tree($0, at: t) } }

        /// This slot showing `layer` (from local time `from`, if later), its clock unchanged.
        func replacing(with layer: PreparedSceneLayer, from: Double? = nil, keeping shown: PreparedSceneLayer) -> Slot {
            var slot =
                from.map { Slot(current: shown, next: (layer, $0), pausedAt: pausedAt, lag: lag) }
                ?? Slot(current: layer, next: nil, pausedAt: pausedAt, lag: lag)
            slot.notifications = notifications
            return slot
        }
    }

    public let scene: Scene
    public let slots: [Slot]
    /// `FontLibrary.checkFontFiles()` when the scene was prepared: a scene prepared after a
    /// font file changed lays out its text again instead of keeping it.
    let fontFileChanges: Int

    /// Prepares every layer of `scene`, their motion starting at `beginTime`, their live
    /// fields expanded by `fields`.
    public init(
        _ scene: Scene, beginTime: Double, fonts: FontLibrary, fields: (@Sendable (String) -> String)? = nil
    ) throws(FreeTypeError) {
        self.scene = scene
        self.fontFileChanges = fonts.checkFontFiles()
        let context = PreparationContext(scene, fonts: fonts, fields: fields)
        self.slots = try scene.layers.map { layer throws(FreeTypeError) in
            Slot(
                current: try PreparedSceneLayer(layer, in: context, beginTime: beginTime),
                next: nil)
        }
    }

    /// Prepares `scene` as a change from `previous`: a layer that is the same as before, on a
    /// board of the same size, keeps its prepared state and its motion, so it does not jump;
    /// any other layer starts at `beginTime`. After a font file changed on disk (replaced at
    /// the same path) no layer is kept, so text is drawn from the new file.
    public init(
        _ scene: Scene, replacing previous: PreparedScene, beginTime: Double, fonts: FontLibrary,
        fields: (@Sendable (String) -> String)? = nil
    ) throws(FreeTypeError) {
        self.fontFileChanges = fonts.checkFontFiles()
        let sameBoard = scene.width == previous.scene.width && scene.height == previous.scene.height
        let sameFonts = fontFileChanges == previous.fontFileChanges
        self.scene = scene
        let context = PreparationContext(scene, fonts: fonts, fields: fields)
        self.slots = try scene.layers.map { layer throws(FreeTypeError) in
            if sameBoard, sameFonts, let i = previous.slotIndex(of: layer.id), previous.scene.layers[i] == layer {
                return previous.slots[i]
            }
            return Slot(
                current: try PreparedSceneLayer(layer, in: context, beginTime: beginTime),
                next: nil)
        }
    }

    private init(scene: Scene, slots: [Slot], fontFileChanges: Int) {
        self.scene = scene
        self.slots = slots
        self.fontFileChanges = fontFileChanges
    }

    /// When a text change takes effect (the scene's own words; the control protocol's
    /// `When` maps onto them one to one).
    public enum When: String, Sendable, CaseIterable {
        /// From the next frame, the new text starting at home.
        case now
        /// When the current text has finished its loop and is back home.
        case loopEnd = "loop-end"
    }

    /// The index of a layer by id.
    public func slotIndex(of id: String) -> Int? { scene.layers.firstIndex { $0.id == id } }

    /// Why a text could not be set.
    public enum TextChangeError: Error, Sendable {
        /// The layer shows no text to replace.
        case noText(layerID: String)
        case font(FreeTypeError)
    }

    /// A copy with layer `index` showing `text` from scene time `now` (or `from`, when that
    /// is later), or from the end of its loop then (a layer that does not scroll changes at
    /// once).
    public func settingText(
        _ text: String, ofLayer index: Int, when: When, now sceneNow: Double, from sceneFrom: Double? = nil,
        fonts: FontLibrary, transition: Transition? = nil, fields: (@Sendable (String) -> String)? = nil
    ) throws(TextChangeError) -> PreparedScene {
        let now = slots[index].localTime(sceneNow)
        // The layer's own time at `sceneFrom`, computed from it alone when the layer's clock
        // runs: `now + from - sceneNow` can miss the frame's time by a rounding, and boards
        // on one timeline that got the request at different moments would then show the
        // change a frame apart. A stopped layer's clock stands, so its change waits the delay.
        let earliest =
            sceneFrom.map { from in
                let local = self.slots[index].localTime(from)
                return local > now ? local : max(now, now + from - sceneNow)
            } ?? now
        let shown = slots[index].layer(at: now)
        guard let source = shown.source.withText(text) else { throw .noText(layerID: shown.source.id) }
        let start = when == .loopEnd && shown.scrolls ? shown.path!.loopEnd(after: earliest) : earliest
        let prepared: PreparedSceneLayer
        do {
            var effective = transition ?? .cut
            if transition == nil, case .marquee(let marquee) = source { effective = marquee.transition }
            prepared = try PreparedSceneLayer(
                source, in: PreparationContext(scene, fonts: fonts, fields: fields), beginTime: start,
                replacing: shown, transition: effective, addedAt: shown.addedAt)
        } catch {
            throw .font(error)
        }
        var slots = self.slots
        slots[index] = slots[index].replacing(with: prepared, from: start > now ? start : nil, keeping: shown)
        var scene = self.scene
        scene.layers[index] = source
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// A copy with layer `index` showing its text's live fields as `fields` expands them,
    /// from scene time `from` (the frame a minute turns, or the next one), its marquee going
    /// on from the pixel it has reached; `nil` when the text shown would not change, or when
    /// a text change is still waiting (it is laid out with the fields when it was set).
    public func refreshingFields(
        ofLayer index: Int, fields: @escaping @Sendable (String) -> String, from sceneFrom: Double,
        now sceneNow: Double, fonts: FontLibrary
    ) throws(FreeTypeError) -> PreparedScene? {
        let slot = slots[index]
        let now = slot.localTime(sceneNow)
        if let next = slot.next, next.from > now { return nil }
        let from = max(slot.localTime(sceneFrom), now)
        let shown = slot.layer(at: from)
        guard let text = shown.source.text, fields(text) != shown.shownText else { return nil }
        // The same time into the loop as before: the strip keeps its pixel (a shorter text
        // whose loop that time overruns wraps round, as a repeating strip does).
        var marqueeBegin = from
        if let timing = shown.path?.timing, timing.duration.isFinite, timing.duration > 0 {
            let elapsed = from - timing.beginTime
            marqueeBegin = from - (elapsed - (elapsed / timing.duration).rounded(.down) * timing.duration)
        }
        let prepared = try PreparedSceneLayer(
            shown.source, in: PreparationContext(scene, fonts: fonts, fields: fields), beginTime: shown.beginTime,
            addedAt: shown.addedAt, marqueeBeginTime: marqueeBegin)
        var slots = self.slots
        slots[index] = slot.replacing(with: prepared, from: from > now ? from : nil, keeping: slot.layer(at: now))
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// Why a property could not be set.
    public enum PropertyChangeError: Error, Sendable {
        /// Only layers declared as layers (not marquees or spotlights) take properties.
        case notALayer(layerID: String)
        /// No layer of that id has a property at that key path of that kind.
        case noProperty(layerID: String, property: LayerProperty)
        case font(FreeTypeError)
    }

    /// A copy with the model value of `property` of layer `id` (inside top-level layer
    /// `index`) set; its animations keep running.
    public func settingProperty(
        _ property: LayerProperty, to value: AnimatableValue, ofLayer index: Int, sublayer id: String?,
        now sceneNow: Double,
        fonts: FontLibrary
    ) throws(PropertyChangeError) -> PreparedScene {
        let now = slots[index].localTime(sceneNow)
        let shown = slots[index].layer(at: now)
        guard case .layer(let layer) = shown.source else { throw .notALayer(layerID: shown.source.id) }
        guard let changed = layer.setting(property, to: value, inLayer: id) else {
            throw .noProperty(layerID: id ?? layer.id, property: property)
        }
        let prepared: PreparedSceneLayer
        do {
            prepared = try PreparedSceneLayer(
                .layer(changed), in: PreparationContext(scene, fonts: fonts), beginTime: shown.addedAt)
        } catch {
            throw .font(error)
        }
        var slots = self.slots
        slots[index] = slots[index].replacing(with: prepared, keeping: shown)
        var scene = self.scene
        scene.layers[index] = .layer(changed)
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// A copy with layer `index`'s clock stopped (`running` false) or started again where it
    /// stood (`running` true), at scene time `now`.
    public func setting(running: Bool, ofLayer index: Int, now: Double) -> PreparedScene {
        var slots = self.slots
        var slot = slots[index]
        if running, let pausedAt = slot.pausedAt {
            slot.lag = now - pausedAt
            slot.pausedAt = nil
        } else if !running, slot.pausedAt == nil {
            slot.pausedAt = slot.localTime(now)
        }
        slots[index] = slot
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// A copy with spotlight layer `index` moving to `zone` from scene time `now`; `nil` when
    /// the layer is not a spotlight.
    public func selectingZone(_ zone: Int, ofLayer index: Int, now sceneNow: Double, fonts: FontLibrary)
        throws(FreeTypeError)
        -> PreparedScene?
    {
        let now = slots[index].localTime(sceneNow)
        let shown = slots[index].layer(at: now)
        guard case .spotlight(let spotlight) = shown.source else { return nil }
        let source = SceneLayer.spotlight(spotlight.selecting(zone, at: now))
        var slots = self.slots
        slots[index] = slots[index].replacing(
            with: try PreparedSceneLayer(source, in: PreparationContext(scene, fonts: fonts), beginTime: now),
            keeping: shown)
        var scene = self.scene
        scene.layers[index] = source
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// A copy with `run` over layer `index` (nil: none), an earlier run that is over
    /// folded into the layer's clock first.
    public func setting(notifications run: NotificationRun?, ofLayer index: Int, now: Double) -> PreparedScene {
        var slots = self.slots
        var slot = slots[index].folded(at: run?.begin ?? now, beginning: run != nil)
        slot.notifications = run
        slots[index] = slot
        return PreparedScene(scene: scene, slots: slots, fontFileChanges: fontFileChanges)
    }

    /// Every layer's finished notification run folded into its clock.
    public func folded(at now: Double) -> PreparedScene {
        PreparedScene(scene: scene, slots: slots.map { $0.folded(at: now) }, fontFileChanges: fontFileChanges)
    }

    /// A text change of layer `index` waiting at scene time `t` (for the end of a loop or a
    /// request's `at`): the text and the scene time it appears at.
    public func pendingText(ofLayer index: Int, at t: Double) -> (text: String, from: Double)? {
        let slot = slots[index]
        let local = slot.localTime(t)
        guard let next = slot.next, local < next.from, let text = next.layer.source.text else { return nil }
        return (text, t + next.from - local)
    }

    /// The text a layer shows at scene time `t`.
    public func text(ofLayer index: Int, at t: Double) -> String {
        slots[index].layer(at: slots[index].localTime(t)).source.text ?? ""
    }
}
