import CLibUSB
import Glibc
import SignOutput
import Synchronization

/// An open USB device: its claimed interface, and asynchronous bulk transfers whose
/// completions arrive on the context's event thread.
public final class USBDeviceHandle: USBBulkDevice, @unchecked Sendable {
    let handle: OpaquePointer
    public let info: USBContext.DeviceInfo
    public let serial: String?
    private unowned let context: USBContext
    private var claimedInterface: Int32?
    private var detachedDriver = false
    private let closed = Atomic<Bool>(false)
    /// Whether this handle holds the context's claim on the device (not a serial probe).
    var holdsClaim = false

    init(device: OpaquePointer, info: USBContext.DeviceInfo, context: USBContext) throws(USBError) {
        var handle: OpaquePointer?
        try check(libusb_open(device, &handle), Self.describe(info, serial: nil), "open")
        self.handle = handle!
        self.info = info
        self.context = context
        var descriptor = libusb_device_descriptor()
        var serial: String?
        if libusb_get_device_descriptor(device, &descriptor) == 0, descriptor.iSerialNumber != 0 {
            var buffer = [UInt8](repeating: 0, count: 128)
            let n = libusb_get_string_descriptor_ascii(self.handle, descriptor.iSerialNumber, &buffer, 128)
            if n > 0 { serial = String(decoding: buffer[0..<Int(n)], as: UTF8.self) }
        }
        self.serial = serial
    }

    /// `vvvv:pppp serial S (bus B address A)`, for messages.
    public var description: String { Self.describe(info, serial: serial) }

    static func describe(_ info: USBContext.DeviceInfo, serial: String?) -> String {
        USBMatch(vendorID: info.vendorID, productID: info.productID, serial: serial).description
            + " (bus \(info.bus) address \(info.address))"
    }

    /// Claims `interface`, first detaching a kernel driver that holds it when asked to.
    public func claim(interface: Int32, detachingKernelDriver: Bool) throws(USBError) {
        if detachingKernelDriver, libusb_kernel_driver_active(handle, interface) == 1 {
            try check(
                libusb_detach_kernel_driver(handle, interface), description,
                "detach kernel driver from interface \(interface)")
            detachedDriver = true
        }
        try check(libusb_claim_interface(handle, interface), description, "claim interface \(interface)")
        claimedInterface = interface
    }

    /// The reusable transfers of each slot, made at its first frame.
    private let slots = Mutex<[SlotTransfers?]>([])

    public func send(_ transfers: [[UInt8]], endpoint: UInt8, slot: Int, completion: USBFrameCompletion) {
        if transfers.isEmpty { return completion.finish(.success(())) }
        let pooled = slots.withLock { s -> SlotTransfers in
            while s.count <= slot { s.append(nil) }
            if let kept = s[slot] { return kept }
            let made = SlotTransfers(device: description)
            s[slot] = made
            return made
        }
        pooled.send(transfers, endpoint: endpoint, handle: handle, completion: completion)
    }

    /// Releases the interface, gives a detached kernel driver its interface back, closes
    /// the device and lets another output claim it. Call with no transfers in flight.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let interface = claimedInterface {
            libusb_release_interface(handle, interface)
            if detachedDriver { libusb_attach_kernel_driver(handle, interface) }
        }
        libusb_close(handle)
        if holdsClaim { context.release(info) }
    }
}

/// One slot's libusb transfers and their buffers, reused frame after frame: a frame's
/// transfers are copied in (a buffer grows when a frame needs more), submitted in order,
/// and counted down on the event thread; the last completion tells the slot's completion.
private final class SlotTransfers: @unchecked Sendable {
    let device: String
    private var transfers: [UnsafeMutablePointer<libusb_transfer>] = []
    private var capacities: [Int] = []
    /// Of the frame in flight: the transfers still to complete, the first error, whom to tell.
    private let state = Mutex<(left: Int, error: USBError?, completion: USBFrameCompletion?)>((0, nil, nil))
    private var endpoint: UInt8 = 0

    init(device: String) { self.device = device }

    deinit {
        for transfer in transfers {
            free(transfer.pointee.buffer)
            libusb_free_transfer(transfer)
        }
    }

    func send(_ frame: [[UInt8]], endpoint: UInt8, handle: OpaquePointer, completion: USBFrameCompletion) {
        self.endpoint = endpoint
        while transfers.count < frame.count {
            guard let transfer = libusb_alloc_transfer(0) else {
                return completion.finish(
                    .failure(
                        USBError(device: device, operation: "allocate a transfer", code: LIBUSB_ERROR_NO_MEM.rawValue)))
            }
            transfer.pointee.buffer = nil
            transfers.append(transfer)
            capacities.append(0)
        }
        state.withLock { $0 = (frame.count, nil, completion) }
        for (i, data) in frame.enumerated() {
            let transfer = transfers[i]
            if capacities[i] < max(data.count, 1) {
                free(transfer.pointee.buffer)
                transfer.pointee.buffer = malloc(max(data.count, 1))!.assumingMemoryBound(to: UInt8.self)
                capacities[i] = max(data.count, 1)
            }
            data.withUnsafeBufferPointer { transfer.pointee.buffer.update(from: $0.baseAddress!, count: data.count) }
            transfer.pointee.dev_handle = handle
            transfer.pointee.endpoint = endpoint
            transfer.pointee.type = UInt8(LIBUSB_TRANSFER_TYPE_BULK.rawValue)
            transfer.pointee.timeout = 1000
            transfer.pointee.length = Int32(data.count)
            transfer.pointee.user_data = Unmanaged.passUnretained(self).toOpaque()
            transfer.pointee.callback = slotTransferCallback
            transfer.pointee.flags = 0
            let result = libusb_submit_transfer(transfer)
            if result < 0 {
                // The ones not submitted will never complete: count them down as failed.
                let error = USBError(device: device, operation: "submit to endpoint \(endpoint)", code: result)
                for _ in i..<frame.count { finished(.failure(error)) }
                return
            }
        }
    }

    /// One transfer completed (on the event thread) or was never submitted.
    func finished(_ result: Result<Void, USBError>) {
        let outcome = state.withLock { s -> (USBFrameCompletion, Result<Void, USBError>)? in
            if case .failure(let e) = result, s.error == nil { s.error = e }
            s.left -= 1
            guard s.left == 0, let completion = s.completion else { return nil }
            s.completion = nil
            return (completion, s.error.map { .failure($0) } ?? .success(()))
        }
        if let (completion, result) = outcome { completion.finish(result) }
    }

    /// The error for a transfer that did not complete.
    func failure(_ status: libusb_transfer_status) -> USBError {
        let code: Int32
        switch status {
        case LIBUSB_TRANSFER_NO_DEVICE: code = LIBUSB_ERROR_NO_DEVICE.rawValue
        case LIBUSB_TRANSFER_TIMED_OUT: code = LIBUSB_ERROR_TIMEOUT.rawValue
        case LIBUSB_TRANSFER_STALL: code = LIBUSB_ERROR_PIPE.rawValue
        case LIBUSB_TRANSFER_OVERFLOW: code = LIBUSB_ERROR_OVERFLOW.rawValue
        case LIBUSB_TRANSFER_CANCELLED: code = LIBUSB_ERROR_INTERRUPTED.rawValue
        default: code = LIBUSB_ERROR_IO.rawValue
        }
        return USBError(device: device, operation: "transfer to endpoint \(endpoint)", code: code)
    }
}

/// libusb's completion callback, on the event thread.
private func slotTransferCallback(_ transfer: UnsafeMutablePointer<libusb_transfer>?) {
    guard let transfer, let userData = transfer.pointee.user_data else { return }
    let slot = Unmanaged<SlotTransfers>.fromOpaque(userData).takeUnretainedValue()
    let status = transfer.pointee.status
    slot.finished(status == LIBUSB_TRANSFER_COMPLETED ? .success(()) : .failure(slot.failure(status)))
}
