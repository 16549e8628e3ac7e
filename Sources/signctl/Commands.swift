import ArgumentParser
import Foundation
import SignControl

/// `signctl set-text TEXT`.
struct SetText: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-text", abstract: "Change the text of the main layer (or of --layer).")

    @Argument(help: "The new text (UTF-8).")
    var text: String

    @Option(help: "The layer's id (default: the main text layer).", completion: DaemonNames.layers)
    var layer: String?

    @Option(help: "now (default: from the next frame) or loop-end (when the current text is back home).")
    var when: When?

    @Option(help: "How the new text replaces the old (default: the layer's).")
    var transition: TransitionKind?

    @Option(help: "Seconds the transition takes (0 to 60; default 0.4).")
    var duration: Double?

    @Option(help: "Unix time at which the change shows (default: at once).")
    var at: Double?

    @OptionGroup var connection: Connection

    var request: Request.SetText {
        Request.SetText(text: text, layer: layer, when: when, transition: transition, duration: duration)
    }

    func validate() throws { try checkRequest(request, at: at) }

    func run() throws {
        try connection.send(request, at: at)
    }
}

/// `signctl ping`.
struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that the daemon answers.")

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.send(Request.Ping())
        print("signd is running")
    }
}

/// `signctl reload`.
struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reload the daemon's config; a config with problems is refused and the running one kept.")

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.send(Request.Reload())
    }
}

/// `signctl select-zone ZONE`.
struct SelectZone: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select-zone",
        abstract: "Move a spotlight to a zone (by name or index); the hole and border glide there together.")

    @Argument(help: "The zone's name, or its index from 0.")
    var zone: String

    @Option(help: "The spotlight layer's id (default: the first spotlight).", completion: DaemonNames.layers)
    var layer: String?

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.send(Request.SelectZone(zone: zone, layer: layer))
    }
}

/// `signctl events`.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the daemon's events as JSON lines as they happen (loop-end: a marquee finished a loop).")

    @Option(name: .customLong("event"), help: "An event to follow (repeatable; default: all).")
    var events: [EventName] = []

    @OptionGroup var connection: Connection

    func run() throws {
        let client: ControlClient
        do { client = try ControlClient(path: connection.path) } catch {
            printError("signctl: \(error)")
            throw ExitCode(3)
        }
        do {
            _ = try client.request(Request.Subscribe(events: events.isEmpty ? nil : events))
        } catch let error as ControlError {
            printError("signctl: \(error.message)")
            throw ExitCode(1)
        }
        while let line = try client.readLine() {
            // Written straight to the descriptor so each event reaches a pipe at once.
            FileHandle.standardOutput.write(Data(line + [UInt8(ascii: "\n")]))
        }
    }
}

/// `signctl set-property LAYER KEY-PATH VALUE`.
struct SetProperty: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-property",
        abstract: "Set a property of a declared layer (or of a sublayer or mask by id).",
        discussion: """
            VALUE is JSON where the property needs it: 0.5, [10, 4], "#ff8800", ["red", "white"]; \
            a bare colour such as '#ff8800' works too. Example: signctl set-property panel borderColor '#ff0000'
            """)

    @Argument(help: "The layer's id.", completion: DaemonNames.layers)
    var layer: String

    @Argument(help: "The key path, e.g. opacity, backgroundColor, locations, position.")
    var keyPath: String

    @Argument(help: "The value (one starting with -, such as -5, goes after --).")
    var value: String

    @OptionGroup var connection: Connection

    func run() throws {
        let parsed = (try? JSONValue.parse(Array(value.utf8))) ?? .string(value)
        try connection.send(Request.SetProperty(layer: layer, keyPath: keyPath, value: parsed))
    }
}

/// `signctl stop` and `signctl start`.
struct Stop: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop a layer's motion where it stands (default: the main layer).")

    @Option(help: "The layer's id (default: the main layer).", completion: DaemonNames.layers)
    var layer: String?

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.send(Request.Stop(layer: layer))
    }
}

struct Start: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a stopped layer's motion again from where it stood.")

    @Option(help: "The layer's id (default: the main layer).", completion: DaemonNames.layers)
    var layer: String?

    @OptionGroup var connection: Connection

    func run() throws {
        try connection.send(Request.Start(layer: layer))
    }
}

/// `signctl load-scene FILE`.
struct LoadScene: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-scene",
        abstract: "Show the layers of another config file (same board size) until the next reload.")

    @Argument(
        help: "The config file, as the daemon sees it (an absolute path is safest).",
        completion: .file(extensions: ["toml"]))
    var file: String

    @OptionGroup var connection: Connection

    func run() throws {
        let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        try connection.send(Request.LoadScene(path: path))
    }
}

/// `signctl notify TEXT`.
struct Notify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Show a text over a layer's content for some loops (or seconds), then give the layer back where it stood.")

    @Argument(help: "The notification's text (UTF-8, markup as in set-text).")
    var text: String

    @Option(help: "The layer's id (default: the main layer).", completion: DaemonNames.layers)
    var layer: String?

    @Option(help: "Loops a scrolling text shows for (default 1).")
    var loops: Int?

    @Option(help: "Seconds it shows for (default: its loops; 5 for a text that does not scroll).")
    var duration: Double?

    @Option(help: "Higher goes first; higher than the one showing replaces it (default 0).")
    var priority: Int?

    @Option(help: "How it comes in and goes out (default: the layer's).")
    var transition: TransitionKind?

    @Option(help: "Unix time at which it is queued (default: at once).")
    var at: Double?

    @OptionGroup var connection: Connection

    var request: Request.Notify {
        Request.Notify(
            text: text, layer: layer, loops: loops, duration: duration, priority: priority, transition: transition)
    }

    func validate() throws { try checkRequest(request, at: at) }

    func run() throws {
        let result = try connection.request(request, at: at)
        // A notification queued for later (`at`) is only `scheduled`: its id comes then.
        if let notified = try? result.decode(Notified.self) { print("notification \(notified.notification)") }
    }
}

/// `signctl dismiss ID | --all`.
struct Dismiss: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "End a notification showing or waiting (or all of them).")

    @Argument(help: "The notification's id, as notify printed it.")
    var notification: Int?

    @Flag(help: "Every notification.")
    var all = false

    @OptionGroup var connection: Connection

    func validate() throws {
        guard (notification == nil) == all else { throw ValidationError("give a notification's id or --all") }
    }

    func run() throws {
        try connection.send(all ? Request.Dismiss(all: true) : Request.Dismiss(notification: notification!))
    }
}

/// `signctl set-var NAME VALUE`.
struct SetVar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-var",
        abstract: "Set the variable every {var:NAME} field shows (an empty value unsets it).")

    @Argument(help: "The variable's name: 1 to 64 of A-Z a-z 0-9 _ . -")
    var name: String

    @Argument(help: "Its value, shown as written (braces and all; one starting with - goes after --).")
    var value: String

    @OptionGroup var connection: Connection

    func validate() throws {
        guard Request.SetVar.isValidName(name) else {
            throw ValidationError("a variable's name is 1 to 64 of A-Z a-z 0-9 _ . -")
        }
    }

    func run() throws {
        try connection.send(Request.SetVar(name: name, value: value))
    }
}

/// `signctl playlist next|previous|select NAME|pause|resume`.
struct PlaylistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playlist",
        abstract: "Move through the playlists by hand: next, previous, select NAME, pause, resume.")

    @Argument(
        help: "next, previous, select, pause or resume.",
        completion: .list(["next", "previous", "select", "pause", "resume"]))
    var action: String

    @Argument(help: "The playlist to select (with select).", completion: DaemonNames.playlists)
    var name: String?

    @OptionGroup var connection: Connection

    func validate() throws {
        guard let parsed = PlaylistAction(rawValue: action) else {
            throw ValidationError(
                "the action is one of: \(PlaylistAction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if parsed == .select, name == nil { throw ValidationError("select needs the playlist's name") }
    }

    func run() throws {
        try connection.send(Request.Playlist(action: PlaylistAction(rawValue: action)!, name: name))
    }
}

/// `signctl set-brightness VALUE`.
struct SetBrightness: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-brightness",
        abstract: "Set every LED output's brightness, 0 to 1 in linear light, at once or fading.")

    @Argument(help: "The brightness, 0 (dark) to 1 (full).")
    var value: Double

    @Option(help: "Seconds to fade over from the brightness shown now (default: at once).")
    var duration: Double?

    @Option(help: "Unix time at which the change begins (default: at once).")
    var at: Double?

    @OptionGroup var connection: Connection

    func validate() throws { try checkRequest(Request.SetBrightness(value: value, duration: duration), at: at) }

    func run() throws {
        try connection.send(Request.SetBrightness(value: value, duration: duration), at: at)
    }
}

/// `signctl display on|off`.
struct Display: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the display off (black on every output while the clock runs on) or on again.")

    @Argument(help: "on or off.")
    var state: DisplayState

    @Option(help: "Unix time at which it switches (default: at once).")
    var at: Double?

    @OptionGroup var connection: Connection

    func validate() throws { try checkRequest(Request.Display(state: state), at: at) }

    func run() throws {
        try connection.send(Request.Display(state: state), at: at)
    }
}

extension DisplayState: ExpressibleByArgument {}
extension When: ExpressibleByArgument {}
extension TransitionKind: ExpressibleByArgument {}
extension EventName: ExpressibleByArgument {}
