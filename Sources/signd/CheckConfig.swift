import ArgumentParser
import SignConfig
import SignDaemon
import SignGraphics

/// `signd check-config FILE`.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a config: exit 0, or print every problem as FILE:LINE: key.path: message and exit 1.")

    @Argument(help: "The config file.", completion: .file(extensions: ["toml"]))
    var file: String

    func run() throws {
        let fonts = try FontLibrary()
        do {
            let config = try ConfigLoader.load(path: file, fonts: fonts)
            // Particles are bounded: say how many each emitter may draw.
            for case .layer(let layer) in config.layers {
                for (path, emitter) in layer.emitters {
                    print("\(file): layer \"\(path)\": \(emitter.populationSummary)")
                }
            }
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
    }
}
