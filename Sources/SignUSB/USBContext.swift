import CLibUSB
import Glibc
import SignOutput
import Synchronization

/// The process's one libusb context: its events handled on a dedicated thread, hotplug
/// arrivals and departures fanned out to whoever listens, and the devices on the bus.
public final class USBContext: @unchecked Sendable {
    /// A USB device as the bus lists it.
    public struct DeviceInfo: Sendable, Equatable {
        public var vendorID: UInt16
        public var productID: UInt16
        public var bus: UInt8
        public var address: UInt8
    }

    public enum HotplugEvent: Sendable { case arrived, left }
    public typealias Listener = @Sendable (HotplugEvent, DeviceInfo) -> Void

    let context: OpaquePointer
    private let listeners = Mutex<[Int: Listener]>([:])
    private let nextListener = Atomic<Int>(0)
    /// Devices an output has open, by bus and address, so two outputs never share one.
    private let claimed = Mutex<Set<Int>>([])

    private static let sharedContext = Mutex<USBContext?>(nil)
    private let openLock = OpenLock()

    /// The shared context, created on first use.
    public static func shared() throws(USBError) -> USBContext {
        let result: Result<USBContext, USBError> = sharedContext.withLock { shared in
            if let shared { return .success(shared) }
            do throws(USBError) {
                let made = try USBContext()
                shared = made
                return .success(made)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    private init() throws(USBError) {
        var ctx: OpaquePointer?
        try check(libusb_init(&ctx), "libusb", "initialise")
        context = ctx!
        if libusb_has_capability(UInt32(LIBUSB_CAP_HAS_HOTPLUG.rawValue)) != 0 {
            let events = Int32(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED.rawValue | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT.rawValue)
            let result = libusb_hotplug_register_callback(
                context, events, 0, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
                hotplugCallback, Unmanaged.passUnretained(self).toOpaque(), nil)
            hotplugRegistered.store(result >= 0, ordering: .releasing)
        }
        startEventThread()
    }
    private let hotplugRegistered = Atomic<Bool>(false)

    /// Whether libusb delivers hotplug events here; without them sinks rescan more often.
    public var deliversHotplug: Bool { hotplugRegistered.load(ordering: .acquiring) }

    /// Calls `listener` on the event thread for every device that arrives or leaves.
    /// Returns a token for `removeListener`.
    public func addListener(_ listener: @escaping Listener) -> Int {
        let id = nextListener.add(1, ordering: .relaxed).newValue
        listeners.withLock { $0[id] = listener }
        return id
    }

    public func removeListener(_ id: Int) {
        _ = listeners.withLock { $0.removeValue(forKey: id) }
    }

    fileprivate func deliver(_ event: HotplugEvent, _ device: OpaquePointer) {
        guard let info = Self.info(device) else { return }
        for listener in listeners.withLock({ Array($0.values) }) { listener(event, info) }
    }

    static func info(_ device: OpaquePointer) -> DeviceInfo? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &descriptor) == 0 else { return nil }
        return DeviceInfo(
            vendorID: descriptor.idVendor, productID: descriptor.idProduct, bus: libusb_get_bus_number(device),
            address: libusb_get_device_address(device))
    }

    private func withDeviceList<T>(_ body: ([OpaquePointer]) throws(USBError) -> T) throws(USBError) -> T {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count >= 0, let list else {
            throw USBError(device: "libusb", operation: "list devices", code: Int32(truncatingIfNeeded: count))
        }
        defer { libusb_free_device_list(list, 1) }
        return try body((0..<count).compactMap { list[$0] })
    }

    private func withDeviceList<T>(_ body: ([OpaquePointer]) -> T) -> T {
        (try? withDeviceList { (list: [OpaquePointer]) throws(USBError) -> T in body(list) }) ?? body([])
    }

    /// Opens the first unclaimed device that `match` describes (checking the serial number
    /// when it names one) and marks it claimed. Nil when none is present.
    public func open(_ match: USBMatch) throws(USBError) -> USBDeviceHandle? {
        // One open at a time: two outputs probing the same boards must not both take one,
        // and opening, reading serials and closing stay ordered.
        openLock.lock()
        defer { openLock.unlock() }
        var lastError: USBError?
        let handle: USBDeviceHandle? = try withDeviceList {
            (list: [OpaquePointer]) throws(USBError) -> USBDeviceHandle? in
            for device in list {
                guard let info = Self.info(device), info.vendorID == match.vendorID, info.productID == match.productID
                else { continue }
                let key = Int(info.bus) << 8 | Int(info.address)
                guard claimed.withLock({ !$0.contains(key) }) else { continue }
                let handle: USBDeviceHandle
                do throws(USBError) {
                    handle = try USBDeviceHandle(device: device, info: info, context: self)
                } catch {
                    lastError = error
                    continue
                }
                if let serial = match.serial, handle.serial != serial {
                    handle.close()
                    continue
                }
                guard claimed.withLock({ $0.insert(key).inserted }) else {
                    handle.close()
                    continue
                }
                handle.holdsClaim = true
                return handle
            }
            return nil
        }
        if handle == nil, let lastError { throw lastError }
        return handle
    }

    /// Reads the serial numbers of the devices `wanted` accepts, for listing. Devices an
    /// output has open are reported by the output instead (nil here).
    public func serials(where wanted: (DeviceInfo) -> Bool) -> [(DeviceInfo, String?)] {
        openLock.lock()
        defer { openLock.unlock() }
        return withDeviceList { list in
            list.compactMap { device -> (DeviceInfo, String?)? in
                guard let info = Self.info(device), wanted(info) else { return nil }
                let key = Int(info.bus) << 8 | Int(info.address)
                if claimed.withLock({ $0.contains(key) }) { return (info, nil) }
                let handle = try? USBDeviceHandle(device: device, info: info, context: self)
                defer { handle?.close() }
                return (info, handle?.serial)
            }
        }
    }

    /// Frees a device an output let go of, and tells the others it is there to take
    /// (an output reconfigured by a reload picks its board up at once).
    func release(_ info: DeviceInfo) {
        _ = claimed.withLock { $0.remove(Int(info.bus) << 8 | Int(info.address)) }
        for listener in listeners.withLock({ Array($0.values) }) { listener(.arrived, info) }
    }

    private func startEventThread() {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { argument in
                let context = Unmanaged<USBContext>.fromOpaque(argument!).takeRetainedValue()
                context.handleEvents()
                return nil
            }, box)
        pthread_detach(thread)
    }

    /// The event thread: completions and hotplug callbacks run here, never on the frame
    /// clock's queue.
    private func handleEvents() {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        while true {
            _ = libusb_handle_events_timeout_completed(context, &timeout, nil)
        }
    }
}

/// libusb's hotplug callback: hands the event to the context's listeners.
private func hotplugCallback(
    _ ctx: OpaquePointer?, _ device: OpaquePointer?, _ event: libusb_hotplug_event, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let device, let userData else { return 0 }
    let context = Unmanaged<USBContext>.fromOpaque(userData).takeUnretainedValue()
    context.deliver(event == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED ? .arrived : .left, device)
    return 0
}

/// A plain pthread mutex (SignOutput does not import Foundation).
final class OpenLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
