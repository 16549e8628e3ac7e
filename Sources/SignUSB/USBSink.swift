import Dispatch
import Glibc
import SignGraphics
import SignOutput
import Synchronization

/// Streams frames to one USB LED controller. `send` encodes on the frame clock's queue
/// and never waits for USB: at most two frames are in flight, a newer frame replaces a
/// pending one (the older counts as dropped), and submission, connecting and closing run
/// on the sink's own queue. When the device leaves, the output waits and reconnects by
/// itself on hotplug arrival or on a periodic rescan; other outputs never notice.
public final class USBSink: FrameSink {
    public let name: String
    public let kind: String
    /// Frames that may be in the device's hands at once.
    public static let maxInFlight = 2

    private struct Inner {
        var controller: any LEDController
        var state = OutputState.waiting
        var handle: (any USBBulkDevice)?
        var inFlight = 0
        /// Which frame slots (the device's reusable transfers) are free: one per frame in
        /// flight, and the last for the connect-time setup.
        var slotFree = [Bool](repeating: true, count: USBSink.maxInFlight + 1)
        var pending: [[UInt8]]?
        var spare: [[UInt8]] = []
        var pumpScheduled = false
        var everConnected = false
        var stopped = false
        /// Whether "waiting for ..." was logged since the device was last seen.
        var saidWaiting = false
        var counters = OutputCounters()
    }

    private let inner: Mutex<Inner>
    private let context: any USBTransport
    /// One completion per slot, made once.
    private nonisolated(unsafe) var completions: [USBFrameCompletion] = []
    /// The slot the connect-time setup is sent through.
    private static let setupSlot = maxInFlight
    private let queue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private nonisolated(unsafe) var rescan: DispatchSourceTimer?
    /// Runs `pump` on the sink's queue when signalled; signalling allocates nothing (unlike
    /// `queue.async`), so the frame clock's `send` allocates nothing either.
    private nonisolated(unsafe) var pumpSignal: DispatchSourceUserDataAdd!
    private nonisolated(unsafe) var listener: Int?

    /// Says what the sink was made from; a reload keeps a sink whose identity is unchanged.
    public let identity: String

    /// `log` receives one line per state change (connected, waiting, failed).
    public init(
        name: String, identity: String = "", controller: any LEDController, context: any USBTransport,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.identity = identity
        self.kind = controller.kind
        self.context = context
        self.log = log
        self.inner = Mutex(Inner(controller: controller))
        self.queue = DispatchQueue(label: "signd.usb.\(name)")
        completions = (0...Self.maxInFlight).map { slot in
            USBFrameCompletion(slot: slot) { [weak self] slot, result in self?.frameDone(result, slot: slot) }
        }
        let match = controller.match
        listener = context.addListener { [weak self] event, info in
            guard let self, info.vendorID == match.vendorID, info.productID == match.productID else { return }
            switch event {
            case .arrived: self.queue.async { self.connect() }
            case .left: self.deviceLeft(info)
            }
        }
        // Hotplug brings a returning device back at once; the rescan covers buses without
        // hotplug and devices whose permissions arrive after they do.
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let period: DispatchTimeInterval = context.deliversHotplug ? .seconds(2) : .milliseconds(500)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.connect() }
        timer.resume()
        rescan = timer
        let signal = DispatchSource.makeUserDataAddSource(queue: queue)
        signal.setEventHandler { [weak self] in self?.pump() }
        signal.activate()
        pumpSignal = signal
        queue.async { self.connect() }
    }

    public var state: OutputState { inner.withLock { $0.state } }

    public var counters: OutputCounters? { inner.withLock { $0.counters } }

    /// The device in use and its serial number, while connected.
    public var connectedDevice: (info: USBContext.DeviceInfo, serial: String?)? {
        inner.withLock { s in s.handle.map { ($0.info, $0.serial) } }
    }

    /// The VID, PID and serial this output looks for.
    public var match: USBMatch { inner.withLock { $0.controller.match } }

    public func send(_ frame: Frame, number: UInt64, deadline: UInt64, display: DisplaySetting) {
        let schedule = inner.withLock { s -> Bool in
            guard s.state == .ok, !s.stopped else { return false }
            // The spare storage is taken out before it is written: with a second reference
            // left in `spare`, the write would copy it (two allocations a frame).
            var transfers: [[UInt8]] = []
            swap(&transfers, &s.spare)
            s.controller.encode(frame, display: display, into: &transfers)
            if let old = s.pending {
                s.counters.dropped += 1
                s.spare = old
            }
            s.pending = transfers
            guard !s.pumpScheduled, s.inFlight < Self.maxInFlight else { return false }
            s.pumpScheduled = true
            return true
        }
        if schedule { pumpSignal.add(data: 1) }
    }

    /// Submits pending frames while fewer than two are in flight (on the sink's queue).
    private func pump() {
        while true {
            let next = inner.withLock { s -> ((any USBBulkDevice), [[UInt8]], UInt8, Int)? in
                s.pumpScheduled = false
                guard let handle = s.handle, s.state == .ok, s.inFlight < Self.maxInFlight, let frame = s.pending,
                    let slot = s.slotFree[0..<Self.maxInFlight].firstIndex(of: true)
                else { return nil }
                s.pending = nil
                s.inFlight += 1
                s.slotFree[slot] = false
                return (handle, frame, s.controller.endpoint, slot)
            }
            guard let (handle, transfers, endpoint, slot) = next else { return }
            handle.send(transfers, endpoint: endpoint, slot: slot, completion: completions[slot])
            // The device holds copies now: the next frame is encoded into this storage.
            inner.withLock { s in if s.spare.isEmpty { s.spare = transfers } }
        }
    }

    /// Bookkeeping when the frame (or the connect-time setup) sent through `slot` completes.
    private func frameDone(_ result: Result<Void, USBError>, slot: Int) {
        let (schedule, closeNow) = inner.withLock { s -> (Bool, (any USBBulkDevice)?) in
            s.inFlight -= 1
            s.slotFree[slot] = true
            switch result {
            case .success: if slot != Self.setupSlot { s.counters.framesSent += 1 }
            case .failure(let error):
                // A device that left is waited for, not counted as a fault.
                if !error.isNoDevice { s.counters.errors += 1 }
                s.counters.lastError = error.description
                if s.state == .ok {
                    s.state = .waiting
                    s.pending = nil
                    log("output \(name): \(error.isNoDevice ? "device left" : "transfer failed"): \(error); waiting")
                }
            }
            if s.state != .ok, s.inFlight == 0, let handle = s.handle {
                s.handle = nil
                s.counters.device = nil
                return (false, handle)
            }
            let schedule = s.state == .ok && s.pending != nil && !s.pumpScheduled && s.inFlight < Self.maxInFlight
            if schedule { s.pumpScheduled = true }
            return (schedule, nil)
        }
        if schedule { pumpSignal.add(data: 1) }
        if let closeNow { queue.async { closeNow.close() } }
    }

    private func deviceLeft(_ info: USBContext.DeviceInfo) {
        let closeNow = inner.withLock { s -> (any USBBulkDevice)? in
            guard let handle = s.handle, handle.info == info else { return nil }
            if s.state == .ok {
                s.state = .waiting
                s.pending = nil
                log("output \(name): \(handle.description) left; waiting for it")
            }
            guard s.inFlight == 0 else { return nil }  // the last completion closes it
            s.handle = nil
            s.counters.device = nil
            return handle
        }
        if let closeNow { queue.async { closeNow.close() } }
    }

    /// Opens, claims and initialises the device when the output is waiting for one.
    private func connect() {
        let (controller, wanted) = inner.withLock { s in (s.controller, s.handle == nil && !s.stopped) }
        guard wanted else { return }
        let handle: any USBBulkDevice
        do throws(USBError) {
            guard let found = try context.openDevice(controller.match) else {
                let say = inner.withLock { s -> Bool in
                    if s.state == .error { s.state = .waiting }
                    defer { s.saidWaiting = true }
                    return !s.saidWaiting && !s.everConnected
                }
                if say { log("output \(name): waiting for \(controller.kind) \(controller.match)") }
                return
            }
            handle = found
            do throws(USBError) {
                try handle.claim(
                    interface: controller.interface, detachingKernelDriver: controller.detachesKernelDriver)
            } catch {
                handle.close()
                throw error
            }
        } catch  where error.isNoDevice {
            // Listed but already gone (its removal is on the way): keep waiting.
            return
        } catch {
            inner.withLock { s in
                s.counters.errors += 1
                if s.counters.lastError != error.description {
                    log("output \(name): \(error)")
                }
                s.counters.lastError = error.description
                // A device that is there but cannot be used (permissions, busy) is a
                // fault to show; an absent one is only waited for.
                s.state = error.isNoDevice ? .waiting : .error
            }
            return
        }
        // Before any frame: the LUT and configuration, in order on the same endpoint.
        let setup = controller.connectTransfers()
        let ok = inner.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.handle = handle
            s.inFlight += 1  // the setup holds one place in the window until it completes
            s.state = .ok
            s.pending = nil
            if s.everConnected { s.counters.reconnects += 1 }
            s.everConnected = true
            s.counters.device = handle.description
            return true
        }
        guard ok else { return handle.close() }
        log("output \(name): streaming to \(handle.description)")
        inner.withLock { $0.slotFree[Self.setupSlot] = false }
        handle.send(
            setup, endpoint: controller.endpoint, slot: Self.setupSlot, completion: completions[Self.setupSlot])
    }

    /// Lets the last frames (the blank one on stop) reach the device, then releases it and
    /// gives the kernel driver its interface back.
    public func stop() {
        for _ in 0..<40 {
            let busy = inner.withLock { $0.handle != nil && ($0.inFlight > 0 || $0.pending != nil) }
            if !busy { break }
            usleep(5000)
        }
        let handle = inner.withLock { s -> (any USBBulkDevice)? in
            s.stopped = true
            defer { s.handle = nil }
            return s.handle
        }
        rescan?.cancel()
        pumpSignal.cancel()
        if let listener { context.removeListener(listener) }
        queue.sync {}
        handle?.close()
    }
}
