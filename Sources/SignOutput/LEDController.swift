import SignGraphics

/// Which USB devices an output drives: vendor and product ID, and optionally the serial
/// number that tells several boards of one kind apart.
public struct USBMatch: Sendable, Equatable, CustomStringConvertible {
    public var vendorID: UInt16
    public var productID: UInt16
    public var serial: String?

    public init(vendorID: UInt16, productID: UInt16, serial: String? = nil) {
        self.vendorID = vendorID
        self.productID = productID
        self.serial = serial
    }

    public var description: String {
        Self.hex(vendorID) + ":" + Self.hex(productID) + (serial.map { " serial \($0)" } ?? "")
    }

    /// A USB ID as four lowercase hex digits, as lsusb prints it.
    public static func hex(_ id: UInt16) -> String {
        let s = String(id, radix: 16)
        return String(repeating: "0", count: 4 - s.count) + s
    }
}

/// A kind of USB LED controller: how it is found and claimed, and the bytes it wants.
/// Encoding is plain Swift, so it is tested without a USB bus.
public protocol LEDController: Sendable {
    /// `fadecandy`, `framework`, `bulk`.
    var kind: String { get }
    var match: USBMatch { get }
    /// The interface to claim and its bulk OUT endpoint.
    var interface: Int32 { get }
    var endpoint: UInt8 { get }
    /// Whether a kernel driver (cdc_acm) holds the interface and must be detached, then
    /// re-attached when signd lets go.
    var detachesKernelDriver: Bool { get }
    /// Transfers sent after every (re)connect, before the first frame.
    func connectTransfers() -> [[UInt8]]
    /// Encodes one frame, at `display`'s brightness, as bulk transfers into `transfers`
    /// (whose buffers it may reuse).
    mutating func encode(_ frame: Frame, display: DisplaySetting, into transfers: inout [[UInt8]])
}
