import SignGraphics
import SignMatrix

/// Reads signd-matrix's config file (docs/configuration.md, "HUB75 panels on a Raspberry
/// Pi"): `output`, `library`, `user`, `status`, and every panel option under hzeller's
/// name; problems come back as `FILE:LINE: key: message`, as signd's do.
public enum MatrixConfigLoader {
    static let bridgeKeys: Set<String> = ["output", "library", "user", "status"]

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws(ConfigError) -> MatrixConfig {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: TOMLGuard.maxFileSize)
        } catch {
            throw ConfigError(problems: [
                ConfigProblem(file: path, line: 0, key: "-", message: "cannot read the file: \(error.message)")
            ])
        }
        guard let source = String(bytes: bytes, encoding: .utf8) else {
            throw ConfigError(problems: [ConfigProblem(file: path, line: 0, key: "-", message: "the file is not UTF-8")])
        }
        return try parse(source, file: path)
    }

    /// Checks `source` (named `file` in problems).
    public static func parse(_ source: String, file: String) throws(ConfigError) -> MatrixConfig {
        let root: ConfigTable
        do {
            root = try ConfigParser.parse(source, mode: .here)
        } catch {
            throw ConfigError(problems: [
                ConfigProblem(file: file, line: error.line, key: error.key ?? "-", message: error.message)
            ])
        }
        var r = ConfigReader(file: file, keyLines: TOMLKeyLines(source: source))
        let keys = MatrixOptions.keys
        r.rejectUnknownKeys(root, at: "", allowed: bridgeKeys.union(keys.map(\.name)))
        r.refuseControlCharacters(in: root, at: "")
        var config = MatrixConfig()
        if let output = r.string(root, "output", at: "") {
            if output.isEmpty || output.count > 64
                || !output.unicodeScalars.allSatisfy({
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                        || $0 == "_"
                })
            {
                r.problem("output", "\"\(output)\" must be the name of one of signd's shm outputs (letters, digits, '-', '_')")
            } else {
                config.output = output
            }
        }
        config.library = r.string(root, "library", at: "") ?? config.library
        config.user = r.string(root, "user", at: "") ?? config.user
        config.status = r.string(root, "status", at: "") ?? config.status
        for key in keys {
            switch key.value {
            case .int(let path, let range):
                if let value = r.int(root, key.name, at: "", in: range) { config.options[keyPath: path] = value }
            case .string(let path):
                if let value = r.string(root, key.name, at: "") { config.options[keyPath: path] = value }
            case .bool(let path):
                if let value = r.bool(root, key.name, at: "") { config.options[keyPath: path] = value }
            }
        }
        for (key, message) in config.options.problems where root[key] != nil {
            r.problem(key, message)
        }
        if !r.problems.isEmpty { throw ConfigError(problems: r.problems) }
        return config
    }
}
