import ArgumentParser
import Foundation
import SignControl

@main
struct Signctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signctl",
        abstract: "Control a running signd: change its text, read its status, watch its frames.",
        discussion: """
            Exit codes: 0 success, 1 the daemon refused the request, 3 the daemon cannot be reached, \
            64 a mistake on the command line (nothing is sent).
            The socket is --socket, else $SIGND_SOCKET, else /run/signd/control.sock.
            """,
        version: SignVersion.description,
        subcommands: [
            SetText.self, SelectZone.self, SetProperty.self, Stop.self, Start.self, LoadScene.self, Status.self,
            Outputs.self,
            Reload.self, Notify.self, Dismiss.self, SetVar.self, PlaylistCommand.self, SetBrightness.self, Display.self,
            Events.self, Ping.self, Watch.self, Snapshot.self,
        ])
}

/// Options every command that talks to the daemon shares.
struct Connection: ParsableArguments {
    @Option(help: "The control socket (default: $SIGND_SOCKET, else /run/signd/control.sock).", completion: .file())
    var socket: String?

    var path: String { SocketPath.resolve(flag: socket) }

    /// Sends one request; prints a failure and exits 1, or 3 when the daemon is unreachable.
    func request(_ command: any ControlCommand, at: Double? = nil) throws -> JSONValue {
        try checkRequest(command, at: at)
        do {
            let client = try ControlClient(path: path)
            return try client.request(command, at: at)
        } catch let error as ControlClient.Unreachable {
            printError("signctl: \(error)")
            throw ExitCode(3)
        } catch let error as ControlError {
            printError("signctl: \(error.message)")
            throw ExitCode(1)
        }
    }
}

extension Connection {
    /// Sends one request whose result is not printed.
    func send(_ command: any ControlCommand, at: Double? = nil) throws {
        _ = try request(command, at: at)
    }
}

/// Checks a request as the daemon will check it, so a mistake is told before anything is sent.
/// Called from a command's `validate()`, the message comes with that command's usage (from
/// `run()`, ArgumentParser would show signctl's list of subcommands instead).
func checkRequest(_ command: any ControlCommand, at: Double?) throws {
    do {
        _ = try Request(json: Request(at: at, command).json)
    } catch {
        throw ValidationError(error.error.message)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
