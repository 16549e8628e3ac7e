/// The words requests share: every transport, signctl and signd read them from here, so a
/// client can check a request before it sends it and list the choices in its help.

/// When a text change takes effect.
public enum When: String, Sendable, CaseIterable, Codable {
    /// From the next frame (or the request's `at`), the new text starting at home.
    case now
    /// When the current text has finished its loop and is back home.
    case loopEnd = "loop-end"
}

/// How a new text replaces the old one.
public enum TransitionKind: String, Sendable, CaseIterable, Codable {
    case cut, crossfade, slide, push
}

/// What a `playlist` request does.
public enum PlaylistAction: String, Sendable, CaseIterable, Codable {
    case next, previous, select, pause, resume
}

/// Whether the outputs show the picture or black.
public enum DisplayState: String, Sendable, CaseIterable, Codable {
    case on, off
}

/// Where a request came from; the same request means the same thing from every source.
public enum RequestSource: String, Sendable, CaseIterable, Codable {
    case socket, mqtt, http, schedule
    /// A signal to the daemon (SIGHUP: reload).
    case signal
}

/// The events a client may subscribe to.
public enum EventName: String, Sendable, CaseIterable, Codable {
    /// A marquee finished a loop.
    case loopEnd = "loop-end"
    case notifyStart = "notify-start"
    case notifyEnd = "notify-end"
    case playlistItem = "playlist-item"
    /// A stream layer got no frame for its `timeout`, or its sender said it stopped: the
    /// layer is transparent.
    case streamLost = "stream-lost"
    /// A stream layer shows frames again (or for the first time).
    case streamBack = "stream-back"
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// The choices, for help texts and error messages: `now, loop-end`.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

extension String {
    /// This text with control characters (C0, DEL, C1, line and paragraph separators)
    /// written as `\u{1b}` and the like: safe to put on one line of a log, systemd's status
    /// or a terminal, whatever a client set.
    public var escapingControlCharacters: String {
        var out = ""
        for scalar in unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                out += "\\u{" + String(v, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
