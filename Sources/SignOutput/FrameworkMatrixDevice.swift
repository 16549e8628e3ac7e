import SignGraphics

/// The Framework Laptop 16 LED Matrix input module (32ac:0020): 9 columns of 34 grey LEDs,
/// driven by commands `0x32 0xAC id params` on the bulk OUT endpoint of its CDC data
/// interface, which the cdc_acm driver holds until signd detaches it.
public struct FrameworkMatrixDevice: LEDController {
    public static let vendorID: UInt16 = 0x32ac
    public static let productID: UInt16 = 0x0020
    public static let columns = 9, rows = 34

    public let kind = "framework"
    public let match: USBMatch
    public let interface: Int32 = 1
    public let endpoint: UInt8 = 0x01
    public let detachesKernelDriver = true
    /// The module's own brightness (0 to 255), sent on connect.
    public let brightness: UInt8
    private var pipeline: LEDPipeline
    private var grey: [UInt8] = []

    /// `map` must number LEDs column by column, 34 per column (LED = column * 34 + row).
    public init(serial: String?, map: PixelMap, correction: ColorCorrection, dithering: Bool = true, brightness: UInt8)
    {
        self.match = USBMatch(vendorID: Self.vendorID, productID: Self.productID, serial: serial)
        self.brightness = brightness
        self.pipeline = LEDPipeline(map: map, correction: correction, dithering: dithering)
    }

    public func connectTransfers() -> [[UInt8]] { [Self.brightnessCommand(brightness)] }

    /// One transfer per command (the module parses one command per USB packet): nine
    /// staged columns, then the commit that shows them.
    public mutating func encode(_ frame: Frame, display: DisplaySetting, into transfers: inout [[UInt8]]) {
        pipeline.grey(frame, scale: display.scale, into: &grey)
        if transfers.count != Self.columns + 1 {
            transfers = Array(repeating: [], count: Self.columns + 1)
        }
        for column in 0..<Self.columns {
            let start = column * Self.rows
            Self.stageColumnCommand(column, grey[start..<min(start + Self.rows, grey.count)], into: &transfers[column])
        }
        transfers[Self.columns] = Self.commitCommand
    }

    public static func brightnessCommand(_ value: UInt8) -> [UInt8] { [0x32, 0xac, 0x00, value] }

    public static let commitCommand: [UInt8] = [0x32, 0xac, 0x08, 0x00]

    /// Stage column `index` (34 grey bytes; missing ones are black).
    public static func stageColumnCommand(_ index: Int, _ grey: ArraySlice<UInt8>, into out: inout [UInt8]) {
        if out.count != 4 + rows { out = [UInt8](repeating: 0, count: 4 + rows) }
        out[0] = 0x32
        out[1] = 0xac
        out[2] = 0x07
        out[3] = UInt8(index)
        for row in 0..<rows {
            out[4 + row] = row < grey.count ? grey[grey.startIndex + row] : 0
        }
    }
}
