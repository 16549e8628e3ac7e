import Dispatch
import Glibc
import Logging
import SignControl
import Synchronization

/// The process's life under signals: signd starts, reloads on SIGHUP and stops on SIGINT or
/// SIGTERM, and no signal that comes while it starts is lost.
extension Daemon {
    /// Runs a daemon until SIGINT or SIGTERM (exit 0), reloading on SIGHUP. Never returns.
    public static func runUntilSignalled(options: Options, logger: Logger) -> Never {
        // A SIGTERM sent while the daemon starts (its control socket answers before it has
        // finished) must not be lost. The three signals are blocked from here on, in this
        // thread and every thread it starts, so one that comes early stays pending until the
        // main thread parks in dispatchMain, where dispatch waits with every signal unblocked
        // and its handler (installed when a source is activated) takes it. They are not set to
        // SIG_IGN: that discards a signal already pending (a parent may start signd with them
        // blocked), and one that came unblocked before dispatch's handler was in place would
        // be dropped. A stop that comes before the daemon has started stops it once it has.
        // A peer that goes away (a client, the config parser's child) is an error to handle
        // where it happens, never a signal that ends signd.
        signal(SIGPIPE, SIG_IGN)
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let queue = DispatchQueue(label: "signd.signals")
        let target = Mutex(SignalTarget())
        var sources: [DispatchSourceSignal] = []
        for signal in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                let started = target.withLock { t -> Daemon? in
                    if t.daemon == nil { t.stopRequested = true }
                    return t.daemon
                }
                guard let daemon = started else { return }
                daemon.shutdown()
                exit(0)
            }
            source.activate()
            sources.append(source)
        }
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        // Before the daemon has started there is nothing to reload: it is reading its config.
        hangup.setEventHandler {
            _ = target.withLock { $0.daemon }?.plane.handleAndWait(Request(Request.Reload()), from: .signal)
        }
        hangup.activate()
        sources.append(hangup)
        let daemon: Daemon
        do {
            daemon = try Daemon(options: options, logger: logger)
        } catch {
            writeStandardError("signd: \(error)\n")
            exit(1)
        }
        if target.withLock({ t in
            t.daemon = daemon
            return t.stopRequested
        }) {
            daemon.shutdown()
            exit(0)
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }
}

/// Who the signal handlers act on: the daemon once it has started, and whether a stop came
/// before it had.
fileprivate struct SignalTarget: ~Copyable {
    var daemon: Daemon?
    var stopRequested = false
}
