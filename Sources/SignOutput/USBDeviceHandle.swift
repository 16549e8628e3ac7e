import CLibUSB
import Glibc
import Synchronization

/// An open USB device: its claimed interface, and asynchronous bulk transfers whose
/// completions arrive on the context's event thread.
public final class USBDeviceHandle: @unchecked Sendable {
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

    /// Sends `data` to bulk OUT `endpoint`; `completion` gets the bytes written or the error.
    public func submitBulk(
        endpoint: UInt8, _ data: [UInt8], timeoutMilliseconds: UInt32 = 1000,
        completion: @escaping @Sendable (Result<Int, USBError>) -> Void
    ) throws(USBError) {
        guard let transfer = libusb_alloc_transfer(0) else {
            throw USBError(device: description, operation: "allocate a transfer", code: LIBUSB_ERROR_NO_MEM.rawValue)
        }
        let buffer = malloc(max(data.count, 1))!.assumingMemoryBound(to: UInt8.self)
        data.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: data.count) }
        let box = TransferBox(device: description, endpoint: endpoint, completion: completion)
        transfer.pointee.dev_handle = handle
        transfer.pointee.endpoint = endpoint
        transfer.pointee.type = UInt8(LIBUSB_TRANSFER_TYPE_BULK.rawValue)
        transfer.pointee.timeout = timeoutMilliseconds
        transfer.pointee.buffer = buffer
        transfer.pointee.length = Int32(data.count)
        transfer.pointee.user_data = Unmanaged.passRetained(box).toOpaque()
        transfer.pointee.callback = transferCallback
        transfer.pointee.flags = UInt8(LIBUSB_TRANSFER_FREE_BUFFER.rawValue | LIBUSB_TRANSFER_FREE_TRANSFER.rawValue)
        let result = libusb_submit_transfer(transfer)
        if result < 0 {
            Unmanaged<TransferBox>.fromOpaque(transfer.pointee.user_data).release()
            libusb_free_transfer(transfer)  // frees the buffer too (FREE_BUFFER)
            throw USBError(device: description, operation: "submit to endpoint \(endpoint)", code: result)
        }
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

private final class TransferBox {
    let device: String
    let endpoint: UInt8
    let completion: @Sendable (Result<Int, USBError>) -> Void
    init(device: String, endpoint: UInt8, completion: @escaping @Sendable (Result<Int, USBError>) -> Void) {
        self.device = device
        self.endpoint = endpoint
        self.completion = completion
    }
}

/// libusb's completion callback, on the event thread.
private func transferCallback(_ transfer: UnsafeMutablePointer<libusb_transfer>?) {
    guard let transfer, let userData = transfer.pointee.user_data else { return }
    let box = Unmanaged<TransferBox>.fromOpaque(userData).takeRetainedValue()
    let status = transfer.pointee.status
    if status == LIBUSB_TRANSFER_COMPLETED {
        box.completion(.success(Int(transfer.pointee.actual_length)))
        return
    }
    let code: Int32
    switch status {
    case LIBUSB_TRANSFER_NO_DEVICE: code = LIBUSB_ERROR_NO_DEVICE.rawValue
    case LIBUSB_TRANSFER_TIMED_OUT: code = LIBUSB_ERROR_TIMEOUT.rawValue
    case LIBUSB_TRANSFER_STALL: code = LIBUSB_ERROR_PIPE.rawValue
    case LIBUSB_TRANSFER_OVERFLOW: code = LIBUSB_ERROR_OVERFLOW.rawValue
    case LIBUSB_TRANSFER_CANCELLED: code = LIBUSB_ERROR_INTERRUPTED.rawValue
    default: code = LIBUSB_ERROR_IO.rawValue
    }
    box.completion(
        .failure(USBError(device: box.device, operation: "transfer to endpoint \(box.endpoint)", code: code)))
}
