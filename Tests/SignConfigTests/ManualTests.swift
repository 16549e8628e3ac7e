import Foundation
import Testing

@testable import SignConfig

/// signd.toml(5) against the config reader: every key the reader takes in any example is
/// documented, under its table.
@Suite("signd.toml(5)")
struct ManualTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    /// Every kind of table the examples use, with the keys the reader takes there.
    static func knownKeys() throws -> [String: Set<String>] {
        let directory = root.appendingPathComponent("configs/examples").path
        let files =
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".toml") }.map {
                "\(directory)/\($0)"
            } + [root.appendingPathComponent("configs/demo.toml").path]
        // The tables no example has.
        let more = """
            [control]
            socket = "/run/signd/control.sock"
            [state]
            directory = "/var/lib/signd"
            [web]
            listen = "127.0.0.1:8080"
            [[layer]]
            text = "x"
            [[layer.sublayer]]
            type = "plain"
            [[layer.sublayer.animation]]
            key_path = "opacity"
            """
        var keys: [String: Set<String>] = [:]
        for source in try files.map({ try String(contentsOfFile: $0, encoding: .utf8) }) + [more] {
            for (kind, known) in ConfigLoader.knownKeys(in: source) {
                keys[Self.section(of: kind), default: []].formUnion(known)
            }
        }
        return keys
    }

    /// The page's section for a kind of table: masks and sublayers, however deep, take a
    /// layer's keys under `[[layer.sublayer]]`; their animations are a layer's animations.
    static func section(of kind: String) -> String {
        if kind.isEmpty { return "Tables" }
        let parts = kind.split(separator: ".")
        guard parts.first == "layer", parts.contains(where: { $0 == "mask" || $0 == "sublayer" }) else { return kind }
        let rest = parts.drop { $0 == "layer" || $0 == "mask" || $0 == "sublayer" }
        return rest.isEmpty ? "layer.sublayer" : (["layer"] + rest).joined(separator: ".")
    }

    @Test("every key the config reader takes is documented in signd.toml(5), in its table's section")
    func everyKeyDocumented() throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("docs/man/signd.toml.5"), encoding: .utf8)
        // Sections are `.Ss [table]` or `.Ss [[table]]`; keys `.It Cm key`.
        var documented: [String: Set<String>] = [:]
        var section = ""
        for line in page.split(separator: "\n") {
            if line.hasPrefix(".Ss ") {
                section = line.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "[]\" "))
            } else if line.hasPrefix(".It ") {
                // `.It Cm width , Cm height`: each word after a Cm.
                let words = line.split(separator: " ").map(String.init)
                for (i, word) in words.enumerated() where word == "Cm" && i + 1 < words.count {
                    documented[section, default: []].insert(words[i + 1])
                }
            }
        }
        let known = try Self.knownKeys()
        #expect(known.count > 10, "the examples reach most tables: \(known.keys.sorted())")
        for (table, keys) in known.sorted(by: { $0.key < $1.key }) {
            let missing = keys.subtracting(documented[table] ?? [])
            #expect(missing.isEmpty, "signd.toml(5) lacks, under \(table): \(missing.sorted())")
        }
    }
}
