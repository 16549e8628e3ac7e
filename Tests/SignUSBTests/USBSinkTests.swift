import Foundation
import SignGraphics
import SignOutput
import Synchronization
import Testing

@testable import SignUSB

/// The USB output's state machine (in flight, pending, dropped, reconnect, stop) through
/// its transport seam: a bus whose device completes frames only when the test says so.
/// (The libusb side is tested against emulated devices in the end-to-end tests.)
@Suite("USBSink")
struct USBSinkTests {
    /// A controller whose frame is one transfer holding the frame's first byte.
    struct Marker: LEDController {
        var kind: String { "marker" }
        var match: USBMatch { USBMatch(vendorID: 0x1234, productID: 0x5678) }
        var interface: Int32 { 0 }
        var endpoint: UInt8 { 1 }
        var detachesKernelDriver: Bool { false }
        func connectTransfers() -> [[UInt8]] { [[0xC0]] }
        mutating func encode(_ frame: Frame, display: DisplaySetting, into transfers: inout [[UInt8]]) {
            if transfers.count != 1 { transfers = [[0]] }
            transfers[0][0] = frame.pixels[0]
        }
    }

    final class Device: USBBulkDevice, @unchecked Sendable {
        let info: USBContext.DeviceInfo
        var serial: String? { nil }
        var description: String { "1234:5678 (bus 1 address \(info.address))" }
        /// What was sent, in order: the slot and the frame's marker byte.
        let sent = Mutex<[(slot: Int, marker: UInt8)]>([])
        let waiting = Mutex<[Int: USBFrameCompletion]>([:])
        let closedFlag = Mutex<Bool>(false)
        var closed: Bool { closedFlag.withLock { $0 } }

        init(address: UInt8) { info = .init(vendorID: 0x1234, productID: 0x5678, bus: 1, address: address) }

        func claim(interface: Int32, detachingKernelDriver: Bool) throws(USBError) {}

        func send(_ transfers: [[UInt8]], endpoint: UInt8, slot: Int, completion: USBFrameCompletion) {
            sent.withLock { $0.append((slot, transfers[0][0])) }
            waiting.withLock { $0[slot] = completion }
        }

        func close() { closedFlag.withLock { $0 = true } }

        /// Completes the frame in `slot`.
        func complete(slot: Int, _ result: Result<Void, USBError> = .success(())) {
            let completion = waiting.withLock { $0.removeValue(forKey: slot) }
            completion?.finish(result)
        }

        var markers: [UInt8] { sent.withLock { $0.map(\.marker) } }
        var busySlots: [Int] { waiting.withLock { $0.keys.sorted() } }
    }

    final class Bus: USBTransport, @unchecked Sendable {
        let device = Mutex<Device?>(nil)
        let listeners = Mutex<[Int: USBContext.Listener]>([:])
        var deliversHotplug: Bool { true }
        func addListener(_ listener: @escaping USBContext.Listener) -> Int {
            listeners.withLock { $0[$0.count] = listener }
            return 0
        }
        func removeListener(_ id: Int) { _ = listeners.withLock { $0.removeValue(forKey: id) } }
        func openDevice(_ match: USBMatch) throws(USBError) -> (any USBBulkDevice)? {
            device.withLock { d in
                defer { d = nil }  // one process holds it
                return d
            }
        }
        /// Plugs `device` in.
        func arrive(_ device: Device) {
            self.device.withLock { $0 = device }
            for listener in listeners.withLock({ Array($0.values) }) { listener(.arrived, device.info) }
        }
    }

    static let noDevice = USBError(device: "1234:5678", operation: "transfer to endpoint 1", code: -4)
    static let io = USBError(device: "1234:5678", operation: "transfer to endpoint 1", code: -1)

    func frame(_ marker: UInt8) -> Frame { Frame(width: 1, height: 1, pixels: [marker, 0, 0]) }

    /// Waits (at most 5 s) for `condition`.
    func eventually(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        #expect(condition(), "\(what)")
    }

    /// A sink streaming to `device`, its setup sent and completed.
    func connected(_ bus: Bus, _ device: Device) -> USBSink {
        bus.device.withLock { $0 = device }
        let sink = USBSink(name: "board", controller: Marker(), context: bus) { _ in }
        eventually("the setup is sent through the last slot") { device.busySlots == [USBSink.maxInFlight] }
        #expect(sink.state == .ok && device.markers == [0xC0])
        device.complete(slot: USBSink.maxInFlight)
        return sink
    }

    @Test("two frames in flight at most; a newer frame replaces the pending one, which counts as dropped")
    func inFlightAndPending() {
        let bus = Bus(), device = Device(address: 4)
        let sink = connected(bus, device)
        sink.send(frame(1), number: 1, deadline: 0, display: .full)
        eventually("frame 1 in flight") { device.markers == [0xC0, 1] }
        sink.send(frame(2), number: 2, deadline: 0, display: .full)
        eventually("frames 1 and 2 in flight") { device.markers == [0xC0, 1, 2] }
        for marker in UInt8(3)...5 {
            sink.send(frame(marker), number: UInt64(marker), deadline: 0, display: .full)
        }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(device.markers == [0xC0, 1, 2], "no third frame goes out while two are in flight")
        #expect(sink.counters?.dropped == 2, "3 and 4 were replaced while pending")
        device.complete(slot: 0)
        eventually("the pending frame 5 goes out through the freed slot") { device.markers == [0xC0, 1, 2, 5] }
        #expect(device.sent.withLock { $0.last?.slot } == 0)
        device.complete(slot: 1)
        device.complete(slot: 0)
        eventually("three frames sent") { sink.counters?.framesSent == 3 }
        #expect(sink.counters?.errors == 0)
        sink.stop()
    }

    @Test("a device that leaves mid-frame is waited for, closed once its frames are done, and streamed to on return")
    func leavesAndReturns() {
        let bus = Bus(), first = Device(address: 4)
        let sink = connected(bus, first)
        sink.send(frame(1), number: 1, deadline: 0, display: .full)
        eventually("one in flight") { first.markers == [0xC0, 1] }
        sink.send(frame(2), number: 2, deadline: 0, display: .full)
        eventually("two in flight") { first.markers == [0xC0, 1, 2] }
        sink.send(frame(3), number: 3, deadline: 0, display: .full)
        first.complete(slot: 0, .failure(Self.noDevice))
        #expect(sink.state == .waiting)
        #expect(!first.closed, "frame 2 is still in the device's hands")
        first.complete(slot: 1, .failure(Self.noDevice))
        eventually("closed after its last frame") { first.closed }
        #expect(first.markers == [0xC0, 1, 2], "the pending frame 3 was not sent to a device that left")
        #expect(sink.counters?.errors == 0, "a device that left is not a fault")
        sink.send(frame(4), number: 4, deadline: 0, display: .full)

        let second = Device(address: 5)
        bus.arrive(second)
        eventually("reconnected: the setup goes first") { second.markers == [0xC0] }
        #expect(sink.counters?.reconnects == 1 && sink.state == .ok)
        second.complete(slot: USBSink.maxInFlight)
        sink.send(frame(6), number: 6, deadline: 0, display: .full)
        eventually("frames flow to the returned device") { second.markers == [0xC0, 6] }
        second.complete(slot: 0)
        sink.stop()
        #expect(second.closed)
    }

    @Test("a failed transfer is counted, the device closed and opened again by the rescan")
    func failedTransfer() {
        let bus = Bus(), device = Device(address: 4)
        let sink = connected(bus, device)
        sink.send(frame(1), number: 1, deadline: 0, display: .full)
        eventually("sent") { device.markers == [0xC0, 1] }
        device.complete(slot: 0, .failure(Self.io))
        eventually("closed") { device.closed }
        #expect(sink.counters?.errors == 1 && sink.counters?.lastError == Self.io.description)
        let again = Device(address: 4)
        bus.device.withLock { $0 = again }  // no hotplug news: the periodic rescan finds it
        eventually("reopened within the rescan period") { again.markers == [0xC0] }
        #expect(sink.counters?.reconnects == 1)
        sink.stop()
    }

    @Test("stop lets the frame in flight reach the device, then closes it")
    func stopDrains() {
        let bus = Bus(), device = Device(address: 4)
        let sink = connected(bus, device)
        sink.send(frame(9), number: 1, deadline: 0, display: .full)
        eventually("sent") { device.markers == [0xC0, 9] }
        // From a thread of its own: the test pool's threads may all be busy waiting.
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            device.complete(slot: 0)
        }.start()
        sink.stop()
        #expect(sink.counters?.framesSent == 1, "stop waited for the completion")
        #expect(device.closed)
        sink.send(frame(10), number: 2, deadline: 0, display: .full)
        #expect(device.markers == [0xC0, 9], "a stopped output sends nothing")
    }
}
