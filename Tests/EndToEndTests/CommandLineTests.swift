import Foundation
import Testing

/// signctl and signd as people type them: what a mistake on the command line tells them.
@Suite("the command line's messages")
struct CommandLineTests {
    @Test(
        "a value the daemon would refuse is told with the usage of the command it was given to",
        arguments: [
            (["set-brightness", "2"], "\"value\" must be from 0 to 1"),
            (["set-text", "x", "--duration", "100"], "\"duration\" must be from 0 to 60"),
            (["notify", "x", "--loops", "0"], "\"loops\" must be from 1 to 1000"),
            (["display", "off", "--at", "1e12"], "\"at\" must be a Unix time in seconds"),
        ])
    func refusedBeforeSending(arguments: [String], message: String) throws {
        let s = try Scratch()
        // No daemon listens there: the request is refused before anything is sent.
        let socket = s.dir.appendingPathComponent("none.sock").path
        let done = try run(Paths.signctl, arguments + ["--socket", socket])
        #expect(done.status == 64)
        #expect(done.stderr.hasPrefix("Error: \(message)\n"))
        #expect(done.stderr.contains("Usage: signctl \(arguments[0]) "))
        #expect(!done.stderr.contains("<subcommand>"))
    }

    @Test("snapshot and watch name a framebuffer that is nowhere as such, not as a file error", arguments: ["snapshot", "watch"])
    func missingFramebuffer(command: String) throws {
        let s = try Scratch()
        let name = "none-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let socket = s.dir.appendingPathComponent("none.sock").path
        let arguments =
            command == "snapshot"
            ? ["snapshot", s.dir.appendingPathComponent("s.png").path, "--output", name] : ["watch", name]
        let done = try run(Paths.signctl, arguments + ["--socket", socket])
        #expect(done.status == 1)
        #expect(done.stderr.hasPrefix("signctl: no framebuffer \"\(name)\" (no /dev/shm/signd.\(name)); framebuffers in /dev/shm: "))
    }

    @Test("signd curve hints at the timing function a misspelt name is nearest")
    func curveTypo() throws {
        let done = try run(Paths.signd, ["curve", "ease-in-ot", "0.5"])
        #expect(done.status == 64)
        #expect(done.stderr.hasPrefix("Error: \"ease-in-ot\" is not a timing function (did you mean \"ease-in-out\"?)"))
    }

    @Test("stop and start say which layer they move without --layer", arguments: ["stop", "start"])
    func stopStartDefault(command: String) throws {
        let help = try run(Paths.signctl, [command, "--help"]).stdout
        #expect(help.contains("--layer <layer>         The layer's id (default: the main layer)."))
    }
}
