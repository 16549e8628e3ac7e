import Dispatch
import SignControl
import SignScene
import Synchronization

/// The notifications of every layer: shown over the layer's ordinary content one after
/// another, by priority then arrival, for their loops or duration. A higher priority than
/// the one showing replaces it at once; `dismiss` ends one or all. Events `notify-start` and
/// `notify-end` (with the reason) come as they happen; notifications do not outlive a restart.
final class NotificationQueue: Sendable {
    /// One notification, from its request.
    struct Entry: Sendable {
        let id: Int
        let layer: String
        let text: String
        let priority: Int
        let loops: Int
        let duration: Double?
        let transition: Transition?
        /// Scene time it began showing, and when it ends (from the last layout).
        var start: Double?
        var end: Double?
        /// Scene time it was cut short (replaced or dismissed) while showing.
        var cutAt: Double?
        var announcedStart = false
        var announcedEnd = false
    }

    /// One layer's run: when its content stopped, and its notifications in showing order.
    struct Run: Sendable {
        var begin: Double
        var entries: [Entry]
        /// When the content is back and the run can be folded away.
        var over: Double
        /// How long the run's transitions take (from the last layout).
        var transitionDuration: Double = 0
    }

    /// Most notifications waiting at once, over all layers.
    static let maxQueued = 256

    private let store: SceneStore
    private let events: EventBus
    private let clock: FrameClock
    private let runs = Mutex<[String: Run]>([:])
    private let nextID = Atomic<Int>(1)
    /// Held by every change of `runs` (a request, or the timer), one at a time.
    private let serial = Mutex(())
    private let queue = DispatchQueue(label: "signd.notifications")
    /// The timer for the next start, end or fold (on `queue`).
    private nonisolated(unsafe) var timer: (any ScheduledWork)?

    init(store: SceneStore, events: EventBus, clock: FrameClock) {
        self.store = store
        self.events = events
        self.clock = clock
    }

    deinit { timer?.cancel() }

    /// Queues a notification on layer `layer` (the main layer when nil) at scene time `now`;
    /// returns its id.
    func notify(_ request: Request.Notify, transition: Transition?, now: Double) throws(ControlError) -> Int {
        try serial.withLock { _ throws(ControlError) -> Int in
            try enqueue(request, transition: transition, now: now)
        }
    }

    private func enqueue(_ request: Request.Notify, transition: Transition?, now: Double) throws(ControlError) -> Int {
        let layer = request.layer ?? store.scene.scene.mainLayerID ?? ""
        guard store.scene.slotIndex(of: layer) != nil else { throw store.scene.noLayer(layer) }
        // Waiting: laid out to start later (or not laid out yet).
        let queued = runs.withLock { $0.values.reduce(0) { $0 + $1.entries.count { ($0.start ?? .infinity) > now } } }
        guard queued < Self.maxQueued else {
            throw ControlError(.busy, "\(Self.maxQueued) notifications are already waiting")
        }
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let entry = Entry(
            id: id, layer: layer, text: request.text, priority: request.priority ?? 0, loops: request.loops ?? 1,
            duration: request.duration, transition: transition)
        var ended: [Entry] = []
        // A run whose last notification has ended (its way back may still run) is over: a
        // new one begins now, and the old one's ends are told if its timer has not yet.
        let old = runs.withLock { $0[layer] }
        var run =
            old.flatMap { $0.over > now && ($0.entries.last?.end ?? 0) > now ? $0 : nil }
            ?? Run(begin: now, entries: [], over: .infinity)
        if let old, run.entries.isEmpty {
            for e in old.entries where !e.announcedEnd { publishEnd(e, reason: "done") }
        }
        if let showing = run.entries.firstIndex(where: { ($0.start ?? .infinity) <= now && ($0.end ?? .infinity) > now }
        ),
            entry.priority > run.entries[showing].priority
        {
            run.entries[showing].cutAt = now
            run.entries[showing].announcedEnd = true
            ended.append(run.entries[showing])
            // Waiting ones stay after it, the new one first.
            let waiting = run.entries.suffix(from: showing + 1)
            run.entries = Array(run.entries.prefix(through: showing)) + [entry] + waiting
        } else {
            let firstWaiting = run.entries.firstIndex { ($0.start ?? .infinity) > now } ?? run.entries.count
            var position = run.entries.count
            for i in firstWaiting..<run.entries.count where run.entries[i].priority < entry.priority {
                position = i
                break
            }
            run.entries.insert(entry, at: position)
        }
        try layout(&run, layer: layer, now: now)
        for e in ended { publishEnd(e, reason: "replaced") }
        return id
    }

    /// Ends notification `id` (or every one, with nil) at scene time `now`.
    func dismiss(_ id: Int?, now: Double) throws(ControlError) {
        try serial.withLock { _ throws(ControlError) in try end(id, now: now) }
    }

    private func end(_ id: Int?, now: Double) throws(ControlError) {
        let all = runs.withLock { $0 }
        var found = false
        for (layer, original) in all where original.over > now {
            var run = original
            var ended: [Entry] = []
            run.entries = run.entries.compactMap { e in
                guard id == nil || e.id == id, (e.end ?? .infinity) > now, e.cutAt == nil else { return e }
                found = true
                var e = e
                e.announcedEnd = true
                ended.append(e)
                // One showing now ends here; one waiting goes.
                guard let start = e.start, start <= now else { return nil }
                e.cutAt = now
                return e
            }
            guard ended.count > 0 else { continue }
            try layout(&run, layer: layer, now: now)
            for e in ended { publishEnd(e, reason: "dismissed") }
        }
        if let id, !found { throw ControlError(.notFound, "no notification \(id) showing or waiting") }
    }

    /// Lays layer `layer`'s content out again after a change to it (a `set-text`), so the
    /// content that comes back is the new one.
    func refresh(layer: String, now: Double) {
        serial.withLock { _ in
            guard var run = runs.withLock({ $0[layer] }), run.over > now else { return }
            try? layout(&run, layer: layer, now: now)
        }
    }

    /// Lays every run out again over what the layers now show (after a reload or a loaded
    /// scene); a run whose layer is gone shows nowhere and just ends.
    func refreshAll(now: Double) {
        for layer in runs.withLock({ Array($0.keys) }) { refresh(layer: layer, now: now) }
    }

    /// The notification showing at scene time `now` (the first layer's with one), and how
    /// many wait.
    func status(now: Double) -> (showing: Entry?, queued: Int) {
        let all = runs.withLock { $0 }
        let showing = all.values.lazy.flatMap(\.entries).first {
            ($0.start ?? .infinity) <= now && ($0.end ?? -.infinity) > now
        }
        let queued = all.values.reduce(0) { $0 + $1.entries.count { ($0.start ?? .infinity) > now } }
        return (showing, queued)
    }

    /// Prepares the run as it now stands, puts it on the layer and arms the timer. Shown
    /// notifications whose way out is over are left out, so a run kept going by a stream of
    /// notifications holds only the ones that matter.
    private func layout(_ run: inout Run, layer: String, now: Double) throws(ControlError) {
        let settled = now - run.transitionDuration
        while run.entries.count > 1, let end = run.entries[0].end, end < settled, run.entries[0].announcedEnd {
            run.entries.removeFirst()
        }
        // A notification cut short lasts until the cut; the others their loops or duration.
        let items = run.entries.map { e in
            (id: e.id, text: e.text, loops: e.loops, duration: e.cutAt.map { $0 - (e.start ?? $0) } ?? e.duration)
        }
        let transition = run.entries.first { $0.cutAt == nil && ($0.end ?? .infinity) > now && $0.transition != nil }?
            .transition
        let prepared = try store.showNotifications(
            items, layer: layer, begin: run.begin, firstStart: run.entries.first?.start, transition: transition,
            now: now)
        if let prepared {
            for (i, show) in prepared.shows.enumerated() {
                run.entries[i].start = show.start
                run.entries[i].end = show.end
            }
            run.over = prepared.end + prepared.exitDuration
            run.transitionDuration = prepared.exitDuration
        }
        let updated = run
        runs.withLock { $0[layer] = updated }
        clock.time.async(on: queue) { self.handleDue() }
    }

    /// Publishes the starts and ends that have come, folds runs that are over, and arms the
    /// timer for the next (on `queue`).
    private func handleDue() {
        serial.withLock { _ in announceAndArm() }
    }

    private func announceAndArm() {
        let now = clock.sceneTime()
        var starts: [Entry] = [], ends: [Entry] = [], finished: [String] = []
        var next = Double.infinity
        runs.withLock { runs in
            for (layer, var run) in runs {
                for i in run.entries.indices {
                    let e = run.entries[i]
                    if let start = e.start, !e.announcedStart {
                        if start <= now {
                            run.entries[i].announcedStart = true
                            starts.append(e)
                        } else {
                            next = min(next, start)
                        }
                    }
                    if let end = e.end, !e.announcedEnd {
                        if end <= now {
                            run.entries[i].announcedEnd = true
                            ends.append(e)
                        } else {
                            next = min(next, end)
                        }
                    }
                }
                if run.over <= now {
                    finished.append(layer)
                    runs[layer] = nil
                } else {
                    next = min(next, run.over)
                    runs[layer] = run
                }
            }
        }
        for e in ends { publishEnd(e, reason: "done") }
        for e in starts { publishStart(e) }
        for layer in finished {
            _ = try? store.showNotifications([], layer: layer, begin: now, transition: nil, now: now)
        }
        timer?.cancel()
        timer = nil
        guard next.isFinite else { return }
        timer = clock.time.schedule(at: clock.monotonic(atSceneTime: next), leeway: .milliseconds(2), on: queue) {
            [weak self] in self?.handleDue()
        }
    }

    private func publishStart(_ e: Entry) {
        events.publish(
            ControlEvent(
                .notifyStart, ["notification": .int(Int64(e.id)), "layer": .string(e.layer), "text": .string(e.text)]))
    }

    private func publishEnd(_ e: Entry, reason: String) {
        events.publish(
            ControlEvent(
                .notifyEnd, ["notification": .int(Int64(e.id)), "layer": .string(e.layer), "reason": .string(reason)]))
    }
}
