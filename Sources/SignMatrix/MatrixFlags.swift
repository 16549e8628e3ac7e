/// hzeller's command-line flags (`--led-rows=32`, `--led-rows 32`, `--led-inverse`) over
/// options read from the config file: a flag wins over its key.
extension MatrixOptions {
    /// A flag that is not one of the panel options, or a value out of its range.
    public struct FlagError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Applies `arguments`, each flag with its value after `=` or as the next argument
    /// (booleans alone, or `=true`/`=false`).
    public mutating func apply(flags arguments: [String]) throws(FlagError) {
        let keys = Self.keys
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw FlagError(description: "unexpected argument \"\(argument)\"") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            var value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let key = keys.first(where: { $0.flag == name }) else {
                let near = keys.map(\.flag).filter { $0.hasPrefix(String(name.prefix(6))) && name.count > 4 }
                throw FlagError(
                    description: "unknown option --\(name)\(near.isEmpty ? "" : " (did you mean --\(near[0])?)"); "
                        + "signd-matrix --help lists them")
            }
            if case .bool(let path) = key.value {
                switch value {
                case nil, "true": self[keyPath: path] = true
                case "false": self[keyPath: path] = false
                default: throw FlagError(description: "--\(name) takes true or false, not \"\(value!)\"")
                }
                continue
            }
            if value == nil {
                guard index < arguments.count else { throw FlagError(description: "--\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            switch key.value {
            case .int(let path, let range):
                guard let number = Int(value!), range.contains(number) else {
                    throw FlagError(
                        description: "--\(name): \"\(value!)\" is not a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                self[keyPath: path] = number
            case .string(let path):
                self[keyPath: path] = value!
            case .bool:
                break
            }
        }
        if let problem = problems.first {
            throw FlagError(description: "--led-\(problem.key.replacingOccurrences(of: "_", with: "-")): \(problem.message)")
        }
    }

    /// The flags and keys, for `--help`.
    public static var help: String {
        keys.map { key in
            let value: String
            switch key.value {
            case .int: value = "=N"
            case .string: value = "=TEXT"
            case .bool: value = ""
            }
            return "  --\(key.flag)\(value)  (key \(key.name))\n      \(key.help)"
        }.joined(separator: "\n")
    }
}
