import ArgumentParser
import SignDaemon

@main
struct Signd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signd",
        abstract: "Drives LED signs: renders scrolling, faded-edge text and sends every frame to the outputs.",
        version: Daemon.version,
        subcommands: [Run.self, Render.self, Curve.self, CheckConfig.self, ParseConfig.self],
        defaultSubcommand: Run.self)
}
