import Dispatch
import Foundation
import Logging
import SignConfig
import SignControl
import SignOutput
import SignScene
import Synchronization

/// Carries out typed requests from every way in (the socket, MQTT, HTTP, schedules): the
/// one place a request's meaning lives. Transports only frame, limit and authenticate.
///
/// Reads (`ping`, `status`, `subscribe`) are answered on the caller's thread at once.
/// Changes run one at a time on the plane's own queue, so preparing a long text never holds
/// up a transport's event loop or another client's `ping`; listing USB devices runs on a
/// queue of its own. A request with `at` in the future is answered `{"scheduled": true}` and
/// takes effect on the first frame due at or after that instant.
public final class ControlPlane: Sendable {
    /// What carrying out a request may use beyond the scene: the daemon's parts.
    public struct Hooks: Sendable {
        /// Reloads the config; the problems found (none: applied).
        public var reload: @Sendable () -> [ConfigProblem] = { [] }
        /// Shows the layers (and background) of another config file; the problems found.
        public var loadScene: @Sendable (String) -> [ConfigProblem] = { _ in [] }
        /// Called after what is shown changed (to save state and tell systemd).
        public var changed: @Sendable () -> Void = {}
        /// The outputs now.
        public var outputs: @Sendable () -> [any FrameSink] = { [] }
        /// The stream layers' receivers now.
        public var streams: @Sendable () -> [StreamReceiver] = { [] }
        /// Carries out a `playlist` request; the error, if refused.
        public var playlist: @Sendable (Request.Playlist) -> ControlError? = { _ in
            ControlError(.notFound, "no playlist is configured")
        }
        /// The playlist playing, for `status`; nil when none.
        public var playlistStatus: @Sendable () -> PlaylistStatus? = { nil }
        /// The configured playlists' names, for `status`.
        public var playlists: @Sendable () -> [String] = { [] }
        /// The board's window on a larger canvas: `(width, height, x, y)` of the board, and the
        /// canvas's size; nil when the board is the whole sign.
        public var window: @Sendable () -> (board: (Int, Int, Int, Int), canvas: (Int, Int))? = { nil }
        /// The MQTT link, for `status`; nil without `[mqtt]`.
        public var mqtt: @Sendable () -> MQTTStatus? = { nil }
        /// The web server, for `status`; nil when there is none.
        public var web: @Sendable () -> WebStatus? = { nil }

        public init() {}
    }

    /// What a command's handler is given besides its arguments.
    public struct Context: Sendable {
        public let source: RequestSource
        /// Scene time the request takes effect at.
        public let now: Double
        /// For a request with `at`, prepared ahead: the scene time of its first frame.
        public let from: Double?
        /// Where `subscribe` registers, when the transport keeps a connection.
        public let subscriber: (any EventSubscriber)?
    }

    /// Where a command runs.
    enum Lane: Sendable {
        /// On the caller's thread: quick reads.
        case inline
        /// On the plane's serial queue: changes, one at a time, in arrival order.
        case changes
        /// On a queue of its own: slow reads (USB enumeration).
        case listing
    }

    /// One row of the command table.
    struct Entry: Sendable {
        let lane: Lane
        /// Whether a future `at` is handled by preparing now for a later scene time (a text
        /// change) rather than by running the command at that instant.
        let preparesAhead: Bool
        let run: @Sendable (ControlPlane, any ControlCommand, Context) throws(ControlError) -> [String: JSONValue]
    }

    /// The answer to a request with a future `at`: `{"scheduled": true}`.
    static let scheduledResult = try! result(Scheduled())

    /// Most requests with a future `at` waiting at once; more are refused with `busy`.
    public static let maxScheduled = 1024

    public let store: SceneStore
    public let clock: FrameClock
    public let events: EventBus
    /// The display's brightness and on/off state.
    public let display: DisplayControl
    /// Notifications over the layers' content.
    let notifications: NotificationQueue
    let startedAt: UInt64
    let logger: Logger
    private let installed: Mutex<Hooks>
    var hooks: Hooks { installed.withLock { $0 } }
    private let table: [String: Entry]
    private let changesQueue = DispatchQueue(label: "signd.control.changes")
    private let listingQueue = DispatchQueue(label: "signd.control.listing")
    private let scheduled = Atomic<Int>(0)
    /// The timer behind `announceChange`; created and used on the changes queue only.
    private nonisolated(unsafe) var refreshTimer: (any ScheduledWork)?
    /// When the timer is armed for, in scene time; `nil` when it is not.
    private nonisolated(unsafe) var refreshAt: Double?

    deinit { refreshTimer?.cancel() }

    public init(
        store: SceneStore, clock: FrameClock, events: EventBus = EventBus(), display: DisplayControl = DisplayControl(),
        startedAt: UInt64, logger: Logger = Logger(label: "signd"), hooks: Hooks = Hooks()
    ) {
        self.store = store
        self.clock = clock
        self.events = events
        self.display = display
        self.notifications = NotificationQueue(store: store, events: events, clock: clock)
        self.startedAt = startedAt
        self.logger = logger
        self.installed = Mutex(hooks)
        self.table = Self.commandTable
    }

    /// Connects the plane to the daemon that owns it, once the daemon exists.
    public func install(_ hooks: Hooks) { installed.withLock { $0 = hooks } }

    /// Carries out `request` from `source` and calls `reply` once with its response, on
    /// whichever thread finished it. A transport keeps its own order of replies.
    public func handle(
        _ request: Request, from source: RequestSource, subscriber: (any EventSubscriber)? = nil,
        reply: @escaping @Sendable (Response) -> Void
    ) {
        guard let entry = table[request.name] else {
            reply(
                .failure(
                    id: request.id,
                    ControlError(
                        .unknownCommand, "signd does not carry out \"\(request.name)\" (commands: \(commands))")))
            return
        }
        let id = request.id
        let command = request.command
        @Sendable func run(_ context: Context) -> Response {
            do {
                return .success(id: id, try entry.run(self, command, context))
            } catch {
                return .failure(id: id, error)
            }
        }
        let realNow = clock.time.date().timeIntervalSince1970
        guard let at = request.at, at > realNow else {
            dispatch(entry.lane) {
                reply(run(Context(source: source, now: self.clock.sceneTime(), from: nil, subscriber: subscriber)))
            }
            return
        }
        guard at - realNow <= Request.maxDelay else {
            reply(.failure(id: id, ControlError(.invalidArgument, "\"at\" is more than a day ahead")))
            return
        }
        guard scheduled.add(1, ordering: .relaxed).newValue <= Self.maxScheduled else {
            scheduled.subtract(1, ordering: .relaxed)
            reply(.failure(id: id, ControlError(.busy, "\(Self.maxScheduled) requests are already scheduled")))
            return
        }
        let monotonicNow = clock.time.now()
        let instant = monotonicNow + UInt64(((at - realNow) * 1e9).rounded())
        // On the realtime timeline the frame comes from `at` and the epoch alone, the same on
        // every board.
        let from =
            clock.sceneTime(ofFirstFrameAtOrAfterRealtime: at)
            ?? clock.sceneTime(ofFirstFrameAtOrAfterMonotonic: instant)
        if entry.preparesAhead {
            changesQueue.async {
                defer { self.scheduled.subtract(1, ordering: .relaxed) }
                let response = run(
                    Context(source: source, now: self.clock.sceneTime(), from: from, subscriber: subscriber))
                reply(response.outcome.isSuccess ? .success(id: id, Self.scheduledResult) : response)
            }
            return
        }
        // Runs just before the frame it belongs to is due, so that frame already shows it;
        // armed before the answer, so a client told `scheduled` finds it armed.
        clock.run(beforeFrameAt: from, on: changesQueue) {
            defer { self.scheduled.subtract(1, ordering: .relaxed) }
            let response = run(
                Context(source: source, now: max(from, self.clock.sceneTime()), from: nil, subscriber: subscriber))
            if case .failure(let error) = response.outcome {
                self.logger.warning(
                    "a scheduled request failed",
                    metadata: ["cmd": "\(request.name)", "source": "\(source.rawValue)", "error": "\(error)"])
            }
        }
        reply(.success(id: id, Self.scheduledResult))
    }

    /// Carries out `request` and waits for its response (for signals and tests; never call
    /// it on the plane's own queues).
    public func handleAndWait(_ request: Request, from source: RequestSource) -> Response {
        let result = Mutex<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        handle(request, from: source) { response in
            result.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Tells the daemon that what is shown changed once more at scene time `t`, when a
    /// pending text appears (systemd's STATUS line follows the board). One timer, re-armed
    /// by each pending change (the one before cancelled): a client scheduling texts a day
    /// ahead leaves nothing behind per request. Only on the changes queue.
    func announceChange(atSceneTime t: Double) {
        if let armed = refreshAt, armed > clock.sceneTime(), armed <= t { return }
        refreshAt = t
        refreshTimer?.cancel()
        refreshTimer = clock.time.schedule(
            at: clock.monotonic(atSceneTime: t), leeway: .nanoseconds(0), on: changesQueue
        ) { [weak self] in self?.pendingChangeShown() }
    }

    /// A pending change has appeared: tell the daemon, and wait for the next one, if any.
    private func pendingChangeShown() {
        refreshAt = nil
        hooks.changed()
        let scene = store.scene
        let now = clock.sceneTime()
        let next = scene.slots.indices.compactMap { scene.pendingText(ofLayer: $0, at: now)?.from }.min()
        if let next { announceChange(atSceneTime: next) }
    }

    /// Runs `work` on the changes queue, behind the changes asked for before (tests hold the
    /// lane with it).
    func onChangesLane(_ work: @escaping @Sendable () -> Void) { changesQueue.async(execute: work) }

    private func dispatch(_ lane: Lane, _ work: @escaping @Sendable () -> Void) {
        switch lane {
        case .inline: work()
        case .changes: changesQueue.async(execute: work)
        case .listing: listingQueue.async(execute: work)
        }
    }

    /// The commands carried out, for messages.
    var commands: String { table.keys.sorted().joined(separator: ", ") }
}

extension Result {
    var isSuccess: Bool { if case .success = self { return true } else { return false } }
}
