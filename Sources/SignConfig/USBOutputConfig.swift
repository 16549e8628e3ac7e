import SignOutput

/// A USB LED controller output as configured: which device, how the frame maps onto its
/// LEDs and how colour is corrected.
public struct USBOutputConfig: Sendable, Equatable {
    /// The kind of controller, with what each kind needs to be found and fed.
    public enum Device: Sendable, Equatable {
        /// A Fadecandy board; dithering and interpolation are the firmware's own switches.
        case fadecandy(dithering: Bool, interpolation: Bool)
        /// The Framework LED Matrix; its brightness is the module's own setting.
        case framework
        /// A custom panel on a bulk endpoint.
        case bulk(
            vendorID: UInt16, productID: UInt16, interface: Int32, endpoint: UInt8, order: String, header: [UInt8],
            footer: [UInt8], packetSize: Int)
    }

    public var name: String
    public var device: Device
    public var serial: String?
    /// Empty: the device's default layout for the display.
    public var panels: [Panel] = []
    public var correction: ColorCorrection
    /// Host-side temporal dithering (Framework and bulk; Fadecandy boards dither themselves).
    public var dithering = true
    /// LEDs the device has; nil: up to the last panel's end.
    public var ledCount: Int?

    public var type: String {
        switch device {
        case .fadecandy: return "fadecandy"
        case .framework: return "framework"
        case .bulk: return "bulk"
        }
    }

    /// The panels in effect for a display of `width` x `height`.
    public func effectivePanels(width: Int, height: Int) -> [Panel] {
        if !panels.isEmpty { return panels }
        switch device {
        case .framework:
            // The module stands 9 wide and 34 tall, LEDs numbered column by column; a
            // landscape display turns it a quarter clockwise.
            var panel = Panel(width: 9, height: 34)
            if width > height {
                panel = Panel(width: 34, height: 9)
                panel.rotation = 90
            }
            panel.strip = .columns
            return [panel]
        case .fadecandy, .bulk:
            return [Panel(width: width, height: height)]
        }
    }
}
