import Dispatch
import Foundation
import Logging
import SignConfig
import SignControl
import SignOutput
import SignScene
import Synchronization

/// Carries out typed requests from every way in (the socket, MQTT, HTTP, signals): each
/// command's row turns a request into one call of the Show's typed API, the one place a
/// request's meaning lives, which the Show's own timers (playlists, the schedule) call too.
/// Transports only frame, limit and authenticate.
///
/// Reads (`ping`, `status`, `subscribe`) are answered on the caller's thread at once.
/// Changes run one at a time on the plane's own queue, so preparing a long text never holds
/// up a transport's event loop or another client's `ping`; listing USB devices runs on a
/// queue of its own. A request with `at` in the future is answered `{"scheduled": true}` and
/// takes effect on the first frame due at or after that instant.
public final class ControlPlane: Sendable {
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

    /// What the requests change and read: the one owner of run-time state.
    public let show: Show
    public var store: SceneStore { show.store }
    public var clock: FrameClock { show.clock }
    public var events: EventBus { show.events }
    /// The display's brightness and on/off state.
    public var display: DisplayControl { show.display }
    /// Notifications over the layers' content.
    var notifications: NotificationQueue { show.notifications }
    let startedAt: UInt64
    let logger: Logger
    /// The transports `status` reports on that are built on this plane (so after it).
    private let links = Mutex(Links())
    private let table: [String: Entry]
    private let changesQueue = DispatchQueue(label: "signd.control.changes")
    private let listingQueue = DispatchQueue(label: "signd.control.listing")
    private let scheduled = Atomic<Int>(0)

    /// The web server and the MQTT bridge, held weakly: they hold the plane.
    struct Links {
        weak var web: WebServer?
        weak var mqtt: MQTTBridge?
    }

    /// A plane carrying requests out on `show`.
    public init(show: Show, startedAt: UInt64, logger: Logger = Logger(label: "signd")) {
        self.show = show
        self.startedAt = startedAt
        self.logger = logger
        self.table = Self.commandTable
    }

    /// A plane over a show of `store` alone (tests, and tools without a daemon).
    public convenience init(
        store: SceneStore, clock: FrameClock, events: EventBus = EventBus(), display: DisplayControl = DisplayControl(),
        startedAt: UInt64, logger: Logger = Logger(label: "signd")
    ) {
        self.init(
            show: Show(store: store, display: display, clock: clock, events: events, logger: logger),
            startedAt: startedAt, logger: logger)
    }

    /// Reads a `ping` from its line, carries it out and writes its response line, sending
    /// nothing: the one-time work of a first request (the runtime building the metadata of
    /// the types a request passes through and looking up their conformances, the commands'
    /// table) is done during start-up, whose code pages are handed back after it, rather than
    /// on a client's first request, where the runtime's code would stay resident (peak RSS;
    /// docs/performance.md, "Peak RSS: the first request"). A `ping` changes nothing.
    func warmUp() {
        guard let request = try? Request(line: Array(#"{"cmd":"ping","id":0}"#.utf8)) else { return }
        _ = handleAndWait(request, from: .socket).line
    }

    /// Reports `web` and `mqtt` in `status` from now on: they carry this plane's requests, so
    /// they are made after it.
    func report(web: WebServer?, mqtt: MQTTBridge?) { links.withLock { $0 = Links(web: web, mqtt: mqtt) } }

    /// The web server's and the MQTT link's parts of `status`.
    var linkStatus: (web: WebStatus?, mqtt: MQTTStatus?) {
        let links = links.withLock { $0 }
        return (links.web.map { WebStatus(listen: $0.config.listen, viewers: $0.viewerCount) }, links.mqtt?.status)
    }

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
        // The wall clock is read only for a request with an `at`.
        let realNow = request.at == nil ? 0 : clock.time.date().timeIntervalSince1970
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
