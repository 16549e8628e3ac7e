import Dispatch
import Glibc
import Logging
import SignControl
import SignGraphics
import SignOutput
import SignScene

/// signd itself: reads the config, opens the outputs, starts the control server and the
/// frame clock, and runs until SIGINT or SIGTERM.
public final class Daemon: Sendable {
    /// How `signd run` was invoked.
    public struct Options: Sendable {
        public var configPath: String
        /// `--socket`, which wins over `$SIGND_SOCKET` and the config.
        public var socket: String?
        /// `--preview` / `--no-preview`, which win over the config.
        public var preview: Bool?

        public init(configPath: String, socket: String? = nil, preview: Bool? = nil) {
            self.configPath = configPath
            self.socket = socket
            self.preview = preview
        }
    }

    let logger: Logger
    let clock: FrameClock
    let outputs: [any FrameSink]
    let server: ControlServer

    /// Sets everything up and starts; throws a message for a person if anything cannot start.
    public init(options: Options, logger: Logger) throws {
        var logger = logger
        let startedAt = MonotonicClock.now()
        let fonts = try FontLibrary()
        let config = try ConfigLoader.load(path: options.configPath, fonts: fonts)
        let scene = try PreparedScene(config.scene, beginTime: 0, fonts: fonts)
        let store = SceneStore(scene, fonts: fonts)
        let socketPath = SocketPath.resolve(flag: options.socket, configured: config.control.socket)

        var outputs: [any FrameSink] = []
        for output in config.outputs {
            switch output {
            case .sharedMemory(let name, let mode, let group):
                var gid: gid_t?
                if let group {
                    guard let entry = getgrnam(group) else {
                        throw DaemonError("output \(name): no group \"\(group)\"")
                    }
                    gid = entry.pointee.gr_gid
                }
                outputs.append(
                    try SharedMemoryFramebuffer(
                        name: name, width: config.display.width, height: config.display.height,
                        fps: config.display.fps, mode: mode_t(mode), gid: gid))
            }
        }

        // The clock exists before the preview so the caption can read its counters.
        let renderLoop = Box<RenderLoop>()
        let clock = FrameClock(fps: config.display.fps) { tick in renderLoop.value?.render(tick) }
        let wantsPreview =
            options.preview
            ?? {
                switch config.preview.terminal {
                case .on: return true
                case .off: return false
                case .auto: return TerminalPreview.standardOutputIsTerminal
                }
            }()
        if wantsPreview {
            // The preview owns the terminal; its caption says what the info lines would.
            logger.logLevel = max(logger.logLevel, .warning)
            let caption = "signd \(config.display.width)x\(config.display.height) @ \(config.display.fps.formatted) fps"
            outputs.append(
                TerminalPreview(name: "preview", maxRate: config.preview.fps) { number in
                    let stats = clock.stats
                    return
                        "\(caption) · frame \(number) · dropped \(stats.dropped) · control \(socketPath) · Ctrl-C quits"
                })
        }
        self.logger = logger
        self.outputs = outputs
        self.clock = clock
        renderLoop.value = RenderLoop(store: store, outputs: outputs)

        let commands = CommandHandler(store: store, clock: clock, outputs: outputs, startedAt: startedAt)
        self.server = ControlServer(path: socketPath, commands: commands)
        do {
            try server.start(mode: config.control.mode, group: config.control.group)
        } catch {
            outputs.forEach { $0.stop() }
            throw error
        }
        clock.start()
        logger.info(
            "signd running",
            metadata: [
                "config": "\(options.configPath)", "socket": "\(socketPath)", "fps": "\(config.display.fps)",
                "size": "\(config.display.width)x\(config.display.height)",
                "outputs": "\(outputs.map(\.name).joined(separator: ","))",
            ])
        SystemdNotifier.notify([
            "READY=1", "STATUS=showing \"\(scene.text(ofLayer: 0, at: 0))\" at \(config.display.fps.formatted) fps",
        ])
    }

    /// Stops the clock, marks the outputs stopped, closes the control socket.
    public func shutdown() {
        SystemdNotifier.notify(["STOPPING=1"])
        clock.stop()
        outputs.forEach { $0.stop() }
        server.stop()
        logger.info(
            "signd stopped", metadata: ["frames": "\(clock.stats.frames)", "dropped": "\(clock.stats.dropped)"])
    }

    /// Runs a daemon until SIGINT or SIGTERM, then exits 0. Never returns.
    public static func runUntilSignalled(options: Options, logger: Logger) -> Never {
        for signal in [SIGINT, SIGTERM, SIGHUP] { Glibc.signal(signal, SIG_IGN) }
        let daemon: Daemon
        do {
            daemon = try Daemon(options: options, logger: logger)
        } catch {
            writeStandardError("signd: \(error)\n")
            exit(1)
        }
        let queue = DispatchQueue(label: "signd.signals")
        var sources: [DispatchSourceSignal] = []
        for signal in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                daemon.shutdown()
                exit(0)
            }
            source.activate()
            sources.append(source)
        }
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        hangup.setEventHandler {
            logger.warning("SIGHUP ignored: this signd cannot reload its config yet; restart it to apply changes")
        }
        hangup.activate()
        sources.append(hangup)
        withExtendedLifetime(sources) { dispatchMain() }
    }
}

/// A problem found while starting, in words for a person.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A reference cell set once after construction (the clock needs the loop and vice versa).
final class Box<T: Sendable>: @unchecked Sendable {
    // Written once before the clock starts, read only afterwards.
    var value: T?
}

/// Writes to standard error without stdio's shared state.
public func writeStandardError(_ s: String) {
    var s = s
    s.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}

extension Double {
    /// 60 rather than 60.0.
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
