import ArgumentParser
import Foundation
import Glibc
import SignConfig
import SignMatrix
import Synchronization

/// Set by SIGTERM and SIGINT; the bridge stops at its next look.
let stopRequested = Atomic<Bool>(false)

@main
struct SigndMatrix: ParsableCommand {
    // No blank line in the discussion: signd-matrix(8) is generated from it, and mdoc warns
    // on an empty input line.
    static let configuration = CommandConfiguration(
        commandName: "signd-matrix",
        abstract: "Show signd's shm framebuffer on HUB75 panels through hzeller's rpi-rgb-led-matrix.",
        discussion: """
            Reads /dev/shm/signd.<output>, which signd writes (an [[output]] of type "shm"), and shows \
            every new frame on the panels. The library (librgbmatrix.so.1) is loaded at run time. Started as \
            root for the GPIO, signd-matrix becomes --user once the panels are open. Panel options, as \
            hzeller's programs take them; each is also a key of the config file:
            \(MatrixOptions.help)
            """)

    @Option(help: "The config file; absent: the defaults and flags alone.")
    var config = "/etc/signd/matrix.toml"

    @Option(help: "signd's shm output to show: /dev/shm/signd.<output>.")
    var output: String?

    @Option(help: "The library to load (a path or a name the dynamic linker finds).")
    var library: String?

    @Option(help: "The user to become once the panels are open.")
    var user: String?

    @Option(help: "Where to write the status file that signctl status shows.")
    var status: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var ledFlags: [String] = []

    func run() throws {
        var settings = MatrixConfig()
        if FileManager.default.fileExists(atPath: config) || config != "/etc/signd/matrix.toml" {
            do throws(ConfigError) {
                settings = try MatrixConfigLoader.load(path: config)
            } catch {
                FileHandle.standardError.write(Data("signd-matrix: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
        if let output { settings.output = output }
        if let library { settings.library = library }
        if let user { settings.user = user }
        if let status { settings.status = status }
        do throws(MatrixOptions.FlagError) {
            try settings.options.apply(flags: ledFlags)
        } catch {
            throw ValidationError(error.description)
        }
        signal(SIGTERM) { _ in stopRequested.store(true, ordering: .relaxed) }
        signal(SIGINT) { _ in stopRequested.store(true, ordering: .relaxed) }
        // A parent may have started us with them blocked (a test runner's threads block signals).
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGTERM)
        sigaddset(&stops, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        // One line a state change, straight to the journal (standard output is a pipe there).
        let bridge = MatrixBridge(config: settings) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
        let code = bridge.run { stopRequested.load(ordering: .relaxed) }
        if code != 0 { throw ExitCode(code) }
    }
}
