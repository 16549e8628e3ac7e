import ArgumentParser
import Logging
import SignDaemon

/// `signd run`: the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon until SIGINT or SIGTERM; SIGHUP reloads the config.")

    @Option(help: "The config file.", completion: .file(extensions: ["toml"]))
    var config = "/etc/signd/signd.toml"

    @Option(help: "The control socket (overrides $SIGND_SOCKET and the config's control.socket).")
    var socket: String?

    @Flag(inversion: .prefixedNo, help: "Show a live preview in the terminal (default: the config's preview.terminal).")
    var preview: Bool?

    func run() throws {
        // Under systemd, log to the journal with priorities and fields; otherwise to stderr.
        if SystemdNotifier.standardErrorIsJournal {
            LoggingSystem.bootstrap { _ in EscapingLogHandler(JournalLogHandler(identifier: "signd")) }
        } else {
            LoggingSystem.bootstrap { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
        }
        var logger = Logger(label: "signd")
        logger.logLevel = .info
        Daemon.runUntilSignalled(options: .init(configPath: config, socket: socket, preview: preview), logger: logger)
    }
}
