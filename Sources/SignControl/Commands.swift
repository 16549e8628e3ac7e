/// The commands of the control protocol (docs/contracts.md, "The control protocol"), one type each.
extension Request {
    /// The longest text `set-text` and `notify` accept, in Unicode scalars.
    public static let maxTextLength = 8192
    /// How far ahead `at`, a fade or a notification's duration may reach, in seconds (a day).
    public static let maxDelay: Double = 86400

    static func text(_ arguments: Arguments) throws(ControlError) -> String {
        let text = try arguments.string("text", required: "the text to show")
        guard text.unicodeScalars.count <= maxTextLength else {
            throw ControlError(.invalidArgument, "\"text\" is longer than \(maxTextLength) characters")
        }
        return text
    }

    /// `ping`: `{}`.
    public struct Ping: ControlCommand, Equatable {
        public static let name = "ping"
        public init() {}
        public init(_ arguments: Arguments) {}
        public var fields: [String: JSONValue] { [:] }
    }

    /// `status`: what is shown, how the clock keeps time, how the outputs fare.
    public struct Status: ControlCommand, Equatable {
        public static let name = "status"
        public init() {}
        public init(_ arguments: Arguments) {}
        public var fields: [String: JSONValue] { [:] }
    }

    /// `outputs`: the outputs and the USB controllers on the bus.
    public struct Outputs: ControlCommand, Equatable {
        public static let name = "outputs"
        public init() {}
        public init(_ arguments: Arguments) {}
        public var fields: [String: JSONValue] { [:] }
    }

    /// `reload`: re-read the config; refused, with its problems, when it has any.
    public struct Reload: ControlCommand, Equatable {
        public static let name = "reload"
        public init() {}
        public init(_ arguments: Arguments) {}
        public var fields: [String: JSONValue] { [:] }
    }

    /// `set-text`: a layer's text (the main layer's by default).
    public struct SetText: ControlCommand, Equatable {
        public static let name = "set-text"
        public var text: String
        public var layer: String?
        public var when: When?
        public var transition: TransitionKind?
        /// The transition's length in seconds (0 to 60).
        public var duration: Double?
        /// A timing function as the config writes one (`easeInEaseOut`, `0.4,0,0.2,1` ...).
        public var timingFunction: String?

        public init(
            text: String, layer: String? = nil, when: When? = nil, transition: TransitionKind? = nil,
            duration: Double? = nil, timingFunction: String? = nil
        ) {
            self.text = text
            self.layer = layer
            self.when = when
            self.transition = transition
            self.duration = duration
            self.timingFunction = timingFunction
        }

        public init(_ a: Arguments) throws(ControlError) {
            text = try Request.text(a)
            layer = try a.string("layer")
            when = try a.choice("when", When.self)
            transition = try a.choice("transition", TransitionKind.self)
            duration = try a.number("duration", in: 0...60)
            timingFunction = try a.string("timing_function")
        }

        public var fields: [String: JSONValue] {
            var f = Fields()
            f["text"] = text
            f["layer"] = layer
            f["when"] = when
            f["transition"] = transition
            f["duration"] = duration
            f["timing_function"] = timingFunction
            return f.object
        }
    }

    /// `select-zone`: move a spotlight to a zone, by name or index.
    public struct SelectZone: ControlCommand, Equatable {
        public static let name = "select-zone"
        /// A zone's name, or its index as a string.
        public var zone: String
        public var layer: String?

        public init(zone: String, layer: String? = nil) {
            self.zone = zone
            self.layer = layer
        }

        public init(_ a: Arguments) throws(ControlError) {
            switch a.fields["zone"] {
            case .string(let name)?: zone = name
            case .int(let n)?: zone = String(n)
            case nil, .null?: throw ControlError(.invalidArgument, "select-zone needs \"zone\" (a name or an index)")
            default: throw ControlError(.badRequest, "\"zone\" must be a string or an integer")
            }
            layer = try a.string("layer")
        }

        public var fields: [String: JSONValue] {
            var f = Fields()
            f["zone"] = zone
            f["layer"] = layer
            return f.object
        }
    }

    /// `set-property`: the model value of a declared layer's property, by key path.
    public struct SetProperty: ControlCommand, Equatable {
        public static let name = "set-property"
        public var layer: String
        public var keyPath: String
        public var value: JSONValue

        public init(layer: String, keyPath: String, value: JSONValue) {
            self.layer = layer
            self.keyPath = keyPath
            self.value = value
        }

        public init(_ a: Arguments) throws(ControlError) {
            layer = try a.string("layer", required: "an id")
            keyPath = try a.string("key_path", required: "e.g. \"opacity\"")
            value = try a.value("value", required: "a number, [x, y], \"#rrggbb\" ... as the key path needs")
        }

        public var fields: [String: JSONValue] {
            ["layer": .string(layer), "key_path": .string(keyPath), "value": value]
        }
    }

    /// `stop`: freeze a layer's motion where it stands (the main layer's by default).
    public struct Stop: ControlCommand, Equatable {
        public static let name = "stop"
        public var layer: String?
        public init(layer: String? = nil) { self.layer = layer }
        public init(_ a: Arguments) throws(ControlError) { layer = try a.string("layer") }
        public var fields: [String: JSONValue] { layer.map { ["layer": .string($0)] } ?? [:] }
    }

    /// `start`: carry on a stopped layer's motion from where it stood.
    public struct Start: ControlCommand, Equatable {
        public static let name = "start"
        public var layer: String?
        public init(layer: String? = nil) { self.layer = layer }
        public init(_ a: Arguments) throws(ControlError) { layer = try a.string("layer") }
        public var fields: [String: JSONValue] { layer.map { ["layer": .string($0)] } ?? [:] }
    }

    /// `load-scene`: show another config file's layers until the next reload or restart.
    public struct LoadScene: ControlCommand, Equatable {
        public static let name = "load-scene"
        public var path: String
        public init(path: String) { self.path = path }
        public init(_ a: Arguments) throws(ControlError) { path = try a.string("path", required: "a config file") }
        public var fields: [String: JSONValue] { ["path": .string(path)] }
    }

    /// `subscribe`: event lines on this connection from now on.
    public struct Subscribe: ControlCommand, Equatable {
        public static let name = "subscribe"
        /// The events wanted; `nil` is every event.
        public var events: [EventName]?

        public init(events: [EventName]? = nil) { self.events = events }

        public init(_ a: Arguments) throws(ControlError) {
            guard let words = try a.strings("events") else {
                events = nil
                return
            }
            var events: [EventName] = []
            for word in words {
                guard let event = EventName(rawValue: word) else {
                    throw ControlError(.invalidArgument, "no event \"\(word)\" (events: \(EventName.choices))")
                }
                events.append(event)
            }
            self.events = events
        }

        public var fields: [String: JSONValue] {
            events.map { ["events": .array($0.map { .string($0.rawValue) })] } ?? [:]
        }
    }

    /// `notify`: a text shown over a layer's ordinary content for a while.
    public struct Notify: ControlCommand, Equatable {
        public static let name = "notify"
        public var text: String
        public var layer: String?
        public var loops: Int?
        public var duration: Double?
        public var priority: Int?
        public var transition: TransitionKind?

        public init(
            text: String, layer: String? = nil, loops: Int? = nil, duration: Double? = nil, priority: Int? = nil,
            transition: TransitionKind? = nil
        ) {
            self.text = text
            self.layer = layer
            self.loops = loops
            self.duration = duration
            self.priority = priority
            self.transition = transition
        }

        public init(_ a: Arguments) throws(ControlError) {
            text = try Request.text(a)
            layer = try a.string("layer")
            loops = try a.integer("loops", in: 1...1000)
            duration = try a.number("duration", in: 0.1...Request.maxDelay)
            priority = try a.integer("priority", in: -1000...1000)
            transition = try a.choice("transition", TransitionKind.self)
        }

        public var fields: [String: JSONValue] {
            var f = Fields()
            f["text"] = text
            f["layer"] = layer
            f["loops"] = loops
            f["duration"] = duration
            f["priority"] = priority
            f["transition"] = transition
            return f.object
        }
    }

    /// `dismiss`: end one notification, or all of them.
    public struct Dismiss: ControlCommand, Equatable {
        public static let name = "dismiss"
        /// The notification's id; `nil` with `all`.
        public var notification: Int?
        public var all: Bool

        public init(notification: Int) {
            self.notification = notification
            self.all = false
        }

        public init(all: Bool) {
            self.notification = nil
            self.all = all
        }

        public init(_ a: Arguments) throws(ControlError) {
            notification = try a.integer("notification", in: 0...Int(Int32.max))
            all = try a.bool("all") ?? false
            guard (notification == nil) == all else {
                throw ControlError(.invalidArgument, "dismiss needs either \"notification\" (an id) or \"all\": true")
            }
        }

        public var fields: [String: JSONValue] {
            all ? ["all": true] : ["notification": .int(Int64(notification ?? 0))]
        }
    }

    /// `set-var`: the value every `{var:NAME}` field shows.
    public struct SetVar: ControlCommand, Equatable {
        public static let name = "set-var"
        public var variable: String
        public var value: String

        public init(name: String, value: String) {
            self.variable = name
            self.value = value
        }

        /// Whether `name` may name a variable: 1 to 64 of `A-Z a-z 0-9 _ . -`.
        public static func isValidName(_ name: String) -> Bool {
            (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy { c in
                    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
                        || c == 0x2E || c == 0x2D
                }
        }

        public init(_ a: Arguments) throws(ControlError) {
            variable = try a.string("name", required: "the variable's name")
            guard Self.isValidName(variable) else {
                throw ControlError(.invalidArgument, "\"name\" must be 1 to 64 of A-Z, a-z, 0-9, _, . and -")
            }
            value = try a.string("value", required: "a string")
            guard value.unicodeScalars.count <= Request.maxTextLength else {
                throw ControlError(.invalidArgument, "\"value\" is longer than \(Request.maxTextLength) characters")
            }
        }

        public var fields: [String: JSONValue] { ["name": .string(variable), "value": .string(value)] }
    }

    /// `playlist`: move through the playlists by hand.
    public struct Playlist: ControlCommand, Equatable {
        public static let name = "playlist"
        public var action: PlaylistAction
        /// The playlist to select (with `select`).
        public var playlist: String?

        public init(action: PlaylistAction, name: String? = nil) {
            self.action = action
            self.playlist = name
        }

        public init(_ a: Arguments) throws(ControlError) {
            action = try a.choice("action", PlaylistAction.self, required: PlaylistAction.choices)
            playlist = try a.string("name")
            if action == .select, playlist == nil {
                throw ControlError(.invalidArgument, "playlist select needs \"name\"")
            }
        }

        public var fields: [String: JSONValue] {
            var f = Fields()
            f["action"] = action
            f["name"] = playlist
            return f.object
        }
    }

    /// `set-brightness`: every LED output's brightness, 0 to 1, optionally faded.
    public struct SetBrightness: ControlCommand, Equatable {
        public static let name = "set-brightness"
        public var value: Double
        /// Seconds to fade over; 0 is at once.
        public var duration: Double?

        public init(value: Double, duration: Double? = nil) {
            self.value = value
            self.duration = duration
        }

        public init(_ a: Arguments) throws(ControlError) {
            value = try a.number("value", in: 0...1, required: "0 to 1")
            duration = try a.number("duration", in: 0...Request.maxDelay)
        }

        public var fields: [String: JSONValue] {
            var f = Fields()
            f["value"] = value
            f["duration"] = duration
            return f.object
        }
    }

    /// `display`: the picture on, or black on every output while the clock runs on.
    public struct Display: ControlCommand, Equatable {
        public static let name = "display"
        public var state: DisplayState

        public init(state: DisplayState) { self.state = state }

        public init(_ a: Arguments) throws(ControlError) {
            state = try a.choice("state", DisplayState.self, required: DisplayState.choices)
        }

        public var fields: [String: JSONValue] { ["state": .string(state.rawValue)] }
    }
}
