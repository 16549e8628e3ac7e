/// One thing wrong in a config file, located by line and key path.
public struct ConfigProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let line: Int
    /// Dotted path of the key, e.g. `layer[0].speed`.
    public let key: String
    public let message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `FILE:LINE: key.path: message`, as `signd check-config` prints it.
    public var description: String { "\(file):\(line): \(key): \(message)" }
}

/// A config that could not be used, with every problem found in it.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public let problems: [ConfigProblem]
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
