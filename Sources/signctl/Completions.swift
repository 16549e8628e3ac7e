import ArgumentParser
import Glibc
import SignControl

/// Names a running signd knows, offered by the shells' tab completion: its layers, its shm
/// outputs, its playlists. Asked of the socket the command line names (`--socket`, else
/// `$SIGND_SOCKET`, else the system's), waiting at most half a second; nothing is offered
/// when no signd answers, so completion never hangs or prints an error.
enum DaemonNames {
    /// Layer ids.
    static let layers = CompletionKind.custom { words, _, _ in
        names(words) { $0.layers.map(\.id) }
    }

    /// Names of shm outputs.
    static let sharedMemoryOutputs = CompletionKind.custom { words, _, _ in
        names(words) { $0.outputs.filter { $0.type == "shm" }.map(\.name) }
    }

    /// Playlist names.
    static let playlists = CompletionKind.custom { words, _, _ in
        names(words) { $0.playlists }
    }

    private static func names(_ words: [String], _ pick: (SignControl.Status) -> [String]) -> [String] {
        guard let status = status(socket: socket(in: words)) else { return [] }
        // One a line to the shell: a name with a line break in it could not be offered whole.
        return pick(status).filter { !$0.contains("\n") }
    }

    /// The socket the words typed so far name.
    static func socket(in words: [String]) -> String {
        var flag: String?
        for (i, word) in words.enumerated() {
            if word == "--socket", i + 1 < words.count { flag = words[i + 1] }
            if word.hasPrefix("--socket=") { flag = String(word.dropFirst("--socket=".count)) }
        }
        return SocketPath.resolve(flag: flag)
    }

    private static func status(socket: String) -> SignControl.Status? {
        guard let client = try? ControlClient(path: socket) else { return nil }
        var limit = timeval(tv_sec: 0, tv_usec: 500_000)
        _ = setsockopt(client.descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(client.descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return try? client.request(Request.Status()).decode()
    }
}
