import Dispatch
import Synchronization

/// Pings systemd's watchdog at half its timeout, but only while the frame counter advances:
/// a stalled frame loop stops the pings and systemd restarts the service.
final class Watchdog: Sendable {
    private let queue = DispatchQueue(label: "signd.watchdog")
    // DispatchSource is thread-safe, though not marked Sendable.
    private nonisolated(unsafe) let timer: DispatchSourceTimer
    private let lastSeen = Atomic<UInt64>(0)
    private let frameCounter: @Sendable () -> UInt64

    init(timeoutMicroseconds: UInt64, frameCounter: @escaping @Sendable () -> UInt64) {
        self.frameCounter = frameCounter
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.microseconds(Int(timeoutMicroseconds / 2))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in check() }
        timer.activate()
    }

    private func check() {
        let frames = frameCounter()
        guard frames != lastSeen.load(ordering: .relaxed) else { return }
        lastSeen.store(frames, ordering: .relaxed)
        SystemdNotifier.notify(["WATCHDOG=1"])
    }

    func stop() { timer.cancel() }

    deinit { timer.cancel() }
}
