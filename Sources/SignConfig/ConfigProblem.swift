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

    /// Every problem on a line of its own, in the order of the file (the order the checks
    /// found them in follows the keys' names, which a reader going down the file does not):
    /// by file as each first appears, then line, problems on one line as found.
    public var description: String {
        var fileOrder: [String: Int] = [:]
        for problem in problems where fileOrder[problem.file] == nil { fileOrder[problem.file] = fileOrder.count }
        return problems.enumerated()
            .sorted { a, b in
                (fileOrder[a.element.file]!, a.element.line, a.offset) < (fileOrder[b.element.file]!, b.element.line, b.offset)
            }
            .map(\.element.description).joined(separator: "\n")
    }
}
