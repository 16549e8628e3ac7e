import Glibc
import Logging
import SignConfig
import SignOutput
import SignUSB
import Synchronization

/// The outputs frames go to. The frame clock reads the list every frame; a reload swaps in
/// a new one between frames.
final class OutputSet: Sendable {
    private let outputs: Mutex<[any FrameSink]>

    init(_ outputs: [any FrameSink]) {
        self.outputs = Mutex(outputs)
    }

    var all: [any FrameSink] { outputs.withLock { $0 } }

    func replace(with new: [any FrameSink]) { outputs.withLock { $0 = new } }

    /// Opens the configured outputs, reusing `existing` ones whose name, kind and size match.
    static func open(
        _ config: DaemonConfig, reusing existing: [any FrameSink] = []
    ) throws -> [any FrameSink] {
        try config.outputs.map { output throws -> any FrameSink in
            switch output {
            case .sharedMemory(let name, let mode, let group):
                var gid: gid_t?
                if let group {
                    guard let entry = getgrnam(group) else {
                        throw DaemonError("output \(name): no group \"\(group)\"")
                    }
                    gid = entry.pointee.gr_gid
                }
                let settings = SharedMemoryOutput.Settings(
                    name: name, width: config.display.width, height: config.display.height, fps: config.display.fps,
                    mode: mode_t(mode), gid: gid)
                if let same = existing.lazy.compactMap({ $0 as? SharedMemoryOutput }).first(where: {
                    $0.name == name && $0.width == settings.width && $0.height == settings.height
                        && $0.fps == settings.fps
                }) {
                    return same
                }
                let logger = Logger(label: "signd.shm")
                return SharedMemoryOutput(settings) { logger.warning("\($0)") }
            case .network(let network):
                let (w, h, fps) = (config.display.width, config.display.height, config.display.fps)
                let identity = network.identity(width: w, height: h, fps: fps)
                if let same = existing.first(where: { $0.identity == identity }) { return same }
                return network.sink(width: w, height: h, fps: fps) { Logger(label: "signd.net").notice("\($0)") }
            case .strip(let strip):
                let (w, h, fps) = (config.display.width, config.display.height, config.display.fps)
                let identity = strip.identity(width: w, height: h, fps: fps)
                if let same = existing.first(where: { $0.identity == identity }) { return same }
                let logger = Logger(label: "signd.\(strip.wire.type)")
                return strip.sink(width: w, height: h, fps: fps) { logger.notice("\($0)") }
            case .usb(let usb):
                let identity = "\(usb) \(config.display.width)x\(config.display.height)"
                if let same = existing.first(where: { $0.identity == identity }) {
                    return same
                }
                let context: USBContext
                do {
                    context = try USBContext.shared()
                } catch {
                    throw DaemonError("output \(usb.name): \(error)")
                }
                let logger = Logger(label: "signd.usb")
                return USBSink(
                    name: usb.name, identity: identity,
                    controller: usb.controller(width: config.display.width, height: config.display.height),
                    context: context
                ) { logger.notice("\($0)") }
            }
        }
    }
}
