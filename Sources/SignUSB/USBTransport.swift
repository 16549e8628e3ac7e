import SignOutput
import Synchronization

/// What a USB output needs of the bus: hotplug news and opening the device it streams to.
/// `USBContext` is libusb's; a unit test may put its own here to drive the output's state
/// machine (in flight, pending, dropped, reconnect, stop) without a bus.
public protocol USBTransport: AnyObject, Sendable {
    /// Whether arrivals and departures are reported; without them outputs rescan more often.
    var deliversHotplug: Bool { get }
    /// Calls `listener` for every device that arrives or leaves; returns a token.
    func addListener(_ listener: @escaping USBContext.Listener) -> Int
    func removeListener(_ id: Int)
    /// Opens and claims for this process the first free device `match` describes; nil when
    /// none is present.
    func openDevice(_ match: USBMatch) throws(USBError) -> (any USBBulkDevice)?
}

/// An open device a USB output streams bulk transfers to.
public protocol USBBulkDevice: AnyObject, Sendable {
    var info: USBContext.DeviceInfo { get }
    var serial: String? { get }
    /// `vvvv:pppp serial S (bus B address A)`, for messages.
    var description: String { get }
    /// Claims `interface`, first detaching a kernel driver that holds it when asked to.
    func claim(interface: Int32, detachingKernelDriver: Bool) throws(USBError)
    /// Sends `transfers`, in order, to bulk OUT `endpoint`, copying them into the reusable
    /// transfers of `slot` (one frame per slot at a time, so a steady stream allocates
    /// nothing); `completion` is told once, after the last completes, with success or the
    /// first error (also when a transfer could not be submitted).
    func send(_ transfers: [[UInt8]], endpoint: UInt8, slot: Int, completion: USBFrameCompletion)
    /// Releases the interface and closes the device. Call with no frame in flight.
    func close()
}

/// Told when a frame sent through a slot has completed. Made once per slot by the output,
/// so a frame's completion allocates nothing.
public final class USBFrameCompletion: Sendable {
    public let slot: Int
    private let body: @Sendable (Int, Result<Void, USBError>) -> Void

    public init(slot: Int, _ body: @escaping @Sendable (_ slot: Int, Result<Void, USBError>) -> Void) {
        self.slot = slot
        self.body = body
    }

    public func finish(_ result: Result<Void, USBError>) { body(slot, result) }
}

extension USBContext: USBTransport {
    public func openDevice(_ match: USBMatch) throws(USBError) -> (any USBBulkDevice)? { try open(match) }
}
