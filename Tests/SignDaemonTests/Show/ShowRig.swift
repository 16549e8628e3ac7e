import Foundation
import Logging
import SignConfig
import SignControl
import SignGraphics
import SignScene
import Synchronization
import Testing

@testable import SignDaemon

/// A scene store and an (unstarted) frame clock on virtual time, with the events they
/// publish recorded at the scene time each came: what the Show suites drive.
struct ShowRig {
    static let fonts = try! FontLibrary()
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    let time: VirtualClock
    let clock: FrameClock
    let store: SceneStore
    let events = EventBus()
    let recorder: EventRecorder
    /// The Show over `store`, `clock` and `events` (its parts unstarted until `show.start()`).
    let show: Show

    /// Starting at the wall-clock instant `iso`, scene time 0 there, at 50 fps.
    init(at iso: String, text: String = "Own") throws {
        let start = try #require(LiveFields.instant(iso))
        time = VirtualClock(monotonic: 1_000_000_000_000, date: start)
        clock = FrameClock(fps: 50, time: time, realtimeOffset: time.realtimeOffset) { _ in }
        store = try SceneStore(
            config: Scene(width: 64, height: 16, layers: [TextLayer(id: "main", text: text)]), fonts: Self.fonts,
            fieldValues: LiveFields.Values(timeZone: Self.berlin), time: time)
        recorder = EventRecorder(clock)
        events.subscribe(recorder, to: Set(EventName.allCases))
        show = Show(store: store, clock: clock, events: events, logger: Logger(label: "test"))
    }

    /// A Show of `config` restored from `stateFile` on this rig's clock and events (its own
    /// store, not `store`); `configPath` is what it reloads, parsed in this process; `fonts`
    /// its own when the test changes font files, so other tests' scenes do not see it.
    func show(
        _ config: DaemonConfig, stateFile: StateFile? = nil, configPath: String? = nil,
        fonts: FontLibrary = ShowRig.fonts
    ) throws -> Show {
        let logger = Logger(label: "test")
        let restored = try Show.restore(
            config: config, stateFile: stateFile, fonts: fonts, time: time, logger: logger)
        return Show(
            config: config, restored: restored, clock: clock, events: events, logger: logger, stateFile: stateFile,
            configPath: configPath, parser: .here)
    }

    /// Moves virtual time on by `seconds`, running what falls due.
    func advance(by seconds: Double) { time.advance(by: seconds) }

    /// Moves virtual time on to scene time `t`.
    func advance(toSceneTime t: Double) { time.advance(to: clock.monotonic(atSceneTime: t)) }
}

/// Records every event with the scene time it was published at.
final class EventRecorder: EventSubscriber {
    struct Record: Sendable {
        let event: ControlEvent
        let sceneTime: Double

        var name: EventName { event.name }
        func string(_ key: String) -> String? { event.fields[key]?.stringValue }
        func int(_ key: String) -> Int64? {
            if case .int(let v)? = event.fields[key] { return v }
            return nil
        }
    }

    private let clock: FrameClock
    private let list = Mutex<[Record]>([])

    init(_ clock: FrameClock) { self.clock = clock }

    func deliver(_ event: ControlEvent) {
        let t = clock.sceneTime()
        list.withLock { $0.append(Record(event: event, sceneTime: t)) }
    }

    func whenGone(_ body: @escaping @Sendable () -> Void) {}

    var records: [Record] { list.withLock { $0 } }

    func records(_ name: EventName) -> [Record] { records.filter { $0.name == name } }
}

/// Equal within a microsecond (scene times computed two ways).
func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-6 } ?? false }
