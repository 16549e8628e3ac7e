import CLibUSB
import SignOutput

/// A libusb call that failed: what was being done, to which device, and libusb's error.
public struct USBError: Error, Sendable, CustomStringConvertible {
    /// The device, e.g. `1d50:607a serial FC01 (bus 1 address 4)`.
    public var device: String
    /// What signd was doing, e.g. `claim interface 0`.
    public var operation: String
    /// libusb's error code (`LIBUSB_ERROR_*`) or, for transfers, a negated transfer status.
    public var code: Int32

    public init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
    }

    /// libusb's name for the error (`LIBUSB_ERROR_NO_DEVICE`).
    public var name: String { String(cString: libusb_error_name(code)) }

    /// Whether the device is gone (unplugged): wait for it rather than report a fault.
    public var isNoDevice: Bool { code == LIBUSB_ERROR_NO_DEVICE.rawValue }

    public var description: String { "\(device): \(operation): \(name)" }
}

/// Throws a `USBError` when a libusb call returned a negative code; returns it otherwise.
@discardableResult
func check(_ result: Int32, _ device: @autoclosure () -> String, _ operation: @autoclosure () -> String)
    throws(USBError)
    -> Int32
{
    guard result >= 0 else { throw USBError(device: device(), operation: operation(), code: result) }
    return result
}
