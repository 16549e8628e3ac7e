import Foundation
import Glibc
import SignConfig

/// Where `load-scene` may read from: the directories `control.scene_dirs` names (by default
/// the config's own). A path outside them is refused with the same words whether or not it
/// exists, so a client learns nothing of the files signd can read elsewhere.
public struct SceneDirectories: Sendable, Equatable {
    /// The directories, as configured (absolute).
    public let directories: [String]

    public init(_ directories: [String]) {
        self.directories = directories
    }

    /// The message for a path outside the directories (and for one that cannot be read).
    var refusal: String {
        "scenes are loaded only from \(directories.joined(separator: ", ")) (control.scene_dirs)"
    }

    /// The file to read for `path`: its real path when that lies inside a scene directory
    /// (through symbolic links, resolved), otherwise the refusal.
    public func resolve(_ path: String) -> Result<String, Refused> {
        guard path.hasPrefix("/") else { return .failure(Refused(message: "the path must be absolute")) }
        let real = directories.compactMap(Self.realPath)
        guard let file = Self.realPath(path) else {
            // A file that does not exist (or cannot be reached) is answered like one outside,
            // unless its lexical path lies inside: then it is simply missing.
            let lexical = URL(fileURLWithPath: path).standardized.path
            let inside = (real + directories).contains { Self.isInside(lexical, $0) }
            return .failure(Refused(message: inside ? "no such scene file" : refusal))
        }
        guard real.contains(where: { Self.isInside(file, $0) }) else { return .failure(Refused(message: refusal)) }
        return .success(file)
    }

    /// Why a path was refused.
    public struct Refused: Error, Sendable, Equatable {
        public let message: String
    }

    static func isInside(_ path: String, _ directory: String) -> Bool {
        let dir = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(dir)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension ConfigProblem {
    /// This problem without the values it quotes from the file (`"purplish" is not a colour`
    /// becomes `"…" is not a colour`): what a client that loaded a scene is told, so the
    /// contents of a file it cannot read never reach it. The line and key stay.
    public var withoutValues: ConfigProblem {
        var message = ""
        var quote: Character?
        for c in self.message {
            if let open = quote {
                if c == open {
                    message.append("…")
                    message.append(c)
                    quote = nil
                }
            } else {
                message.append(c)
                if c == "\"" || c == "'" { quote = c }
            }
        }
        if quote != nil { message.append("…") }
        // "0.5 is out of range 1...1000": the number before is the file's.
        if let range = message.range(of: " is out of range ") {
            message = "the value" + message[range.lowerBound...]
        }
        return ConfigProblem(file: file, line: line, key: key, message: message)
    }
}
