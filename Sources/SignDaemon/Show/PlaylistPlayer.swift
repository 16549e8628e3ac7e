import Dispatch
import Foundation
import Logging
import SignConfig
import SignControl
import SignScene
import Synchronization

/// Plays `[[playlist]]`s and follows the `[[schedule]]`: each item is prepared a quarter of a
/// second before it is due and shown from the frame due at its start, its length counted in
/// its layer's own time, so a notification or a `stop` holds the playlist too and it goes on
/// where it stood. A schedule change comes on the frame its minute turns. `playlist` requests
/// move by hand; a playlist chosen by hand holds until the schedule's next change.
final class PlaylistPlayer: Sendable {
    /// Where the player stands, as saved and reported.
    struct Position: Sendable, Equatable, Codable {
        var playlist: String
        var index: Int
        var paused = false
        /// Chosen with `playlist select` rather than by the schedule.
        var byHand = false
        /// The schedule entry in effect when it was chosen (`nil`: none).
        var entry: Int?

        enum CodingKeys: String, CodingKey {
            case playlist, index, paused, entry
            case byHand = "by_hand"
        }
    }

    /// How long before an item or a schedule change it is prepared.
    static let lead = 0.25

    /// The show it plays on: its texts and scenes go through the Show's API, as a request's do.
    private unowned let show: Show
    private let queue = DispatchQueue(label: "signd.playlist")
    /// Read from any thread (status, saving); written on `queue`.
    private let shown = Mutex<(position: Position, label: String)?>(nil)

    // Used on `queue` only.
    private nonisolated(unsafe) var playlists: [Playlist] = []
    private nonisolated(unsafe) var schedule = ShowSchedule(entries: [], timeZone: .current)
    private nonisolated(unsafe) var position: Position?
    /// When the item showing ends: in its layer's local time (a text) or scene time (a scene).
    private nonisolated(unsafe) var itemEnd: (layer: String?, end: Double)?
    /// Of an item paused by hand: how much of it was left.
    private nonisolated(unsafe) var remaining: Double?
    private nonisolated(unsafe) var sceneLoaded: String?
    private nonisolated(unsafe) var entry: Int?
    private nonisolated(unsafe) var itemTimer: (any ScheduledWork)?
    private nonisolated(unsafe) var scheduleTimer: (any ScheduledWork)?

    init(show: Show) { self.show = show }

    /// The position and the item showing, for `status` and the state file.
    var status: (position: Position, label: String)? { shown.withLock { $0 } }

    // MARK: Starting

    /// Plays `playlists` by `schedule` from now on (a start, or a reload). A position saved or
    /// kept from before goes on when it is still what the schedule chooses (or was chosen by
    /// hand under the same schedule entry) and its playlist is unchanged.
    func run(playlists: [Playlist], schedule: ShowSchedule, resuming saved: Position?) {
        queue.sync {
            self.playlists = playlists
            self.schedule = schedule
            let now = show.clock.time.date()
            entry = schedule.entry(at: now)
            let candidate = position ?? saved
            if let candidate, let list = playlists.first(where: { $0.name == candidate.playlist }),
                candidate.index < list.items.count, candidate.entry == entry,
                candidate.byHand || target(of: entry) == .playlist(candidate.playlist)
                    || (schedule.isEmpty && candidate.playlist == playlists.first?.name)
            {
                // The item starts again: a reload lays the layers out anew.
                position = candidate
                showItem(candidate.index, from: show.clock.sceneTime())
                if candidate.paused { pause() }
            } else {
                apply(target(of: entry), from: show.clock.sceneTime())
            }
            armSchedule(after: now)
        }
    }

    /// Stops every timer (the daemon is stopping).
    func stop() {
        queue.sync {
            itemTimer?.cancel()
            scheduleTimer?.cancel()
            itemTimer = nil
            scheduleTimer = nil
        }
    }

    /// What schedule entry `index` shows; with no schedule at all, the first playlist.
    private func target(of index: Int?) -> ShowSchedule.Target? {
        if let index { return schedule.entries[index].target }
        if schedule.isEmpty, let first = playlists.first { return .playlist(first.name) }
        return nil
    }

    // MARK: Requests

    /// Carries out a `playlist` request.
    func handle(_ command: Request.Playlist) throws(ControlError) {
        let failure: ControlError? = queue.sync {
            let now = show.clock.sceneTime()
            switch command.action {
            case .select:
                guard let name = command.playlist, let list = playlists.first(where: { $0.name == name }) else {
                    let names = playlists.map(\.name)
                    return ControlError(
                        .notFound,
                        "no playlist \"\(command.playlist ?? "")\" (playlists: \(names.isEmpty ? "none configured" : names.joined(separator: ", ")))"
                    )
                }
                guard !list.items.isEmpty else {
                    return ControlError(.invalidArgument, "playlist \"\(name)\" has no items")
                }
                position = Position(playlist: name, index: 0, byHand: true, entry: entry)
                showItem(0, from: now)
                // Its text is set already, so `status` names the item it shows from now on,
                // not after the frame the item's event waits for.
                publish()
            case .next, .previous:
                guard let position, let list = playlists.first(where: { $0.name == position.playlist }) else {
                    return ControlError(.notFound, "no playlist is playing")
                }
                let count = list.items.count
                let index = (position.index + (command.action == .next ? 1 : count - 1)) % count
                self.position?.paused = false
                remaining = nil
                showItem(index, from: now)
                publish()
            case .pause:
                guard position != nil else { return ControlError(.notFound, "no playlist is playing") }
                pause()
            case .resume:
                guard let position else { return ControlError(.notFound, "no playlist is playing") }
                guard position.paused else { return nil }
                self.position?.paused = false
                if let left = remaining, let end = itemEnd {
                    itemEnd = (end.layer, localNow(end.layer) + left)
                }
                remaining = nil
                publish()
                armItem()
            }
            return nil
        }
        show.save()
        if let failure { throw failure }
    }

    /// Holds the item showing where it is (on `queue`).
    private func pause() {
        guard let end = itemEnd else { return }
        position?.paused = true
        remaining = max(0, end.end - localNow(end.layer))
        itemTimer?.cancel()
        itemTimer = nil
        publish()
    }

    // MARK: Showing

    /// Shows what a schedule entry names from scene time `from` (on `queue`).
    private func apply(_ target: ShowSchedule.Target?, from: Double) {
        switch target {
        case .playlist(let name)?:
            guard let list = playlists.first(where: { $0.name == name }), !list.items.isEmpty else { return }
            position = Position(playlist: name, index: 0, entry: entry)
            showItem(0, from: from)
        case .scene(let path)?:
            finishPlaylist(from: from)
            at(from) { [self] in
                showScene(path)
                show.save()
            }
        case nil:
            finishPlaylist(from: from)
            if sceneLoaded != nil {
                at(from) { [self] in
                    show.showConfigLayers()
                    sceneLoaded = nil
                }
            }
        }
    }

    /// Ends the playlist playing, if any: its layer gets its own text back (on `queue`).
    private func finishPlaylist(from: Double) {
        guard let position else { return }
        self.position = nil
        itemEnd = nil
        remaining = nil
        itemTimer?.cancel()
        itemTimer = nil
        shown.withLock { $0 = nil }
        // A reload that removed the playlist has laid out the config's own text already.
        guard let list = playlists.first(where: { $0.name == position.playlist }) else { return }
        let layer = list.layer ?? show.store.scene.scene.mainLayerID
        if sceneLoaded == nil, let layer, let text = show.store.ownText(ofLayer: layer) {
            try? show.setText(
                text, layer: layer, when: .now, transition: list.transition.map { Transition(kind: $0) },
                now: show.clock.sceneTime(), from: from, source: .schedule)
        }
    }

    /// Runs `body` on `queue` just before the frame due at scene time `from`.
    private func at(_ from: Double, _ body: @escaping @Sendable () -> Void) {
        show.clock.run(beforeFrameAt: from, on: queue, body)
    }

    private func showScene(_ path: String) {
        let problems = show.loadScene(path, source: .schedule)
        if problems.isEmpty {
            sceneLoaded = path
        } else {
            show.logger.warning(
                "a scheduled or playlist scene was not shown",
                metadata: ["scene": "\(path)", "problems": "\(problems)"])
        }
    }

    /// Shows item `index` of the position's playlist from scene time `from` (on `queue`).
    private func showItem(_ index: Int, from: Double, attempts: Int = 0) {
        guard var position, let list = playlists.first(where: { $0.name == position.playlist }),
            list.items.indices.contains(index)
        else { return }
        position.index = index
        self.position = position
        let item = list.items[index]
        let store = show.store
        let now = show.clock.sceneTime()
        switch item.content {
        case .text(let text):
            let layer = list.layer ?? store.scene.scene.mainLayerID
            if sceneLoaded != nil {
                show.showConfigLayers()
                sceneLoaded = nil
            }
            do {
                try show.setText(
                    text, layer: layer, when: .now, transition: list.transition.map { Transition(kind: $0) }, now: now,
                    from: from, source: .schedule)
            } catch {
                show.logger.warning(
                    "a playlist item could not be shown",
                    metadata: ["playlist": "\(list.name)", "item": "\(index)", "error": "\(error)"])
                if attempts < list.items.count {
                    showItem((index + 1) % list.items.count, from: from, attempts: attempts + 1)
                }
                return
            }
            let scene = store.scene
            guard let layer, let slotIndex = scene.slotIndex(of: layer) else { return }
            let slot = scene.slots[slotIndex]
            let start = max(slot.localTime(from), slot.localTime(now))
            let prepared = slot.layer(at: start)
            var length = item.duration ?? Double(item.loops) * Playlist.standingLoop
            if item.duration == nil, prepared.scrolls, let timing = prepared.path?.timing, timing.duration.isFinite {
                length = Double(item.loops) * timing.duration
            }
            itemEnd = (layer, start + length)
        case .scene(let path):
            at(from) { [self] in showScene(path) }
            itemEnd = (nil, from + (item.duration ?? Double(item.loops) * Playlist.standingLoop))
        }
        let label = item.label
        let name = list.name
        let events = show.events
        at(from) { [self] in
            publish()
            events.publish(
                ControlEvent(
                    .playlistItem, ["playlist": .string(name), "index": .int(Int64(index)), "item": .string(label)]))
            show.save()
        }
        armItem()
    }

    /// Makes the position visible to `status` (on `queue`).
    private func publish() {
        guard let position, let list = playlists.first(where: { $0.name == position.playlist }),
            list.items.indices.contains(position.index)
        else {
            shown.withLock { $0 = nil }
            return
        }
        let label = list.items[position.index].label
        shown.withLock { $0 = (position, label) }
    }

    /// The local time of `layer` now (scene time for `nil`).
    private func localNow(_ layer: String?) -> Double {
        let now = show.clock.sceneTime()
        let scene = show.store.scene
        guard let layer, let i = scene.slotIndex(of: layer) else { return now }
        return scene.slots[i].localTime(now)
    }

    /// Arms the item timer for the end of the item showing (on `queue`). A layer held still
    /// (under a notification, or stopped) is looked at again each second.
    private func armItem() {
        itemTimer?.cancel()
        itemTimer = nil
        guard let end = itemEnd, position?.paused != true else { return }
        let left = end.end - localNow(end.layer)
        let wait = min(max(left - Self.lead, 0), 1)
        itemTimer = show.clock.time.schedule(after: wait, leeway: .milliseconds(2), on: queue) { [weak self] in
            self?.itemDue()
        }
    }

    /// The item may be near its end (on `queue`): show the next one from the frame due then.
    private func itemDue() {
        guard let end = itemEnd, let position, let list = playlists.first(where: { $0.name == position.playlist })
        else { return }
        let left = end.end - localNow(end.layer)
        guard left <= Self.lead + 0.01 else {
            armItem()
            return
        }
        showItem((position.index + 1) % list.items.count, from: show.clock.sceneTime() + max(left, 0))
    }

    // MARK: The schedule

    /// Arms the schedule's timer for its next boundary after `date` (on `queue`).
    private func armSchedule(after date: Date) {
        scheduleTimer?.cancel()
        scheduleTimer = nil
        guard let boundary = schedule.nextBoundary(after: date) else { return }
        scheduleTimer = show.clock.time.schedule(
            atDate: boundary.addingTimeInterval(-Self.lead), leeway: .milliseconds(5), on: queue
        ) { [weak self] in self?.boundaryDue(boundary) }
    }

    /// A boundary of the schedule is near (on `queue`): what it chooses from then shows from
    /// the frame due at it, also over a playlist chosen by hand.
    private func boundaryDue(_ boundary: Date) {
        let next = schedule.entry(at: boundary)
        if next != entry {
            entry = next
            let from = show.clock.sceneTime(ofFirstFrameAtOrAfter: boundary)
            apply(target(of: next), from: from)
            show.save()
        }
        armSchedule(after: boundary)
    }
}
