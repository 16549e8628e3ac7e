import SignControl
import SignOutput
import SignUSB

/// `outputs`: the USB LED controllers present on the bus (the kinds signd drives, and the
/// VID:PID of configured bulk panels), with the output using each one.
enum USBDeviceList {
    static func devices(outputs: [any FrameSink]) throws(ControlError) -> [USBDevice] {
        let sinks = outputs.compactMap { $0 as? USBSink }
        var kinds: [(UInt16, UInt16, String)] = [
            (FadecandyDevice.vendorID, FadecandyDevice.productID, "fadecandy"),
            (FrameworkMatrixDevice.vendorID, FrameworkMatrixDevice.productID, "framework"),
        ]
        for sink in sinks where sink.kind == "bulk" {
            kinds.append((sink.match.vendorID, sink.match.productID, "bulk"))
        }
        let context: USBContext
        do {
            context = try USBContext.shared()
        } catch {
            throw ControlError(.internal, "cannot use USB: \(error)")
        }
        let inUse = sinks.compactMap { sink in sink.connectedDevice.map { (sink.name, $0.info, $0.serial) } }
        let found = context.serials { info in kinds.contains { $0.0 == info.vendorID && $0.1 == info.productID } }
        return found.map { info, serial in
            let kind = kinds.first { $0.0 == info.vendorID && $0.1 == info.productID }!.2
            let user = inUse.first { $0.1 == info }
            return USBDevice(
                type: kind, vid: USBMatch.hex(info.vendorID), pid: USBMatch.hex(info.productID),
                serial: serial ?? user?.2, bus: Int(info.bus), address: Int(info.address), output: user?.0)
        }
    }
}
