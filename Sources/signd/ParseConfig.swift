import ArgumentParser
import Foundation
import SignConfig
import SignDaemon

/// `signd parse-config`: the running daemon's config parser, in a process of its own. Reads
/// a TOML document on standard input and writes it back as one line of JSON (or the syntax
/// error), then exits, taking with it whatever the parser kept.
struct ParseConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse-config",
        abstract: "Parse a TOML document from standard input into JSON (used by the daemon itself).",
        shouldDisplay: false)

    func run() throws {
        let input = FileHandle.standardInput.readDataToEndOfFile()
        print(ConfigParser.answer(for: String(decoding: input, as: UTF8.self)))
    }
}
