import Foundation
import SignConfig
import Testing

@testable import SignDaemon

/// load-scene reads only inside the scene directories, and tells a client nothing else.
@Suite("SceneDirectories")
struct SceneDirectoriesTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "signd-scenes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path

    func setUp() throws -> SceneDirectories {
        try FileManager.default.createDirectory(atPath: root + "/scenes", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/private", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/scenes/sale.toml", contents: Data("x".utf8))
        FileManager.default.createFile(atPath: root + "/private/secret.toml", contents: Data("x".utf8))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/scenes/escape.toml", withDestinationPath: root + "/private/secret.toml")
        return SceneDirectories([root + "/scenes"])
    }

    @Test("a file inside is read; outside, through a link or .., or missing outside, all get the same refusal")
    func confinement() throws {
        let dirs = try setUp()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try dirs.resolve(root + "/scenes/sale.toml").get().hasSuffix("/scenes/sale.toml"))
        let refusal = SceneDirectories.Refused(message: dirs.refusal)
        for path in [
            root + "/private/secret.toml", root + "/scenes/escape.toml", root + "/scenes/../private/secret.toml",
            root + "/private/missing.toml", "/etc/shadow", "/nonexistent/x.toml",
        ] {
            #expect(throws: refusal, "\(path)") { try dirs.resolve(path).get() }
        }
        #expect(throws: SceneDirectories.Refused(message: "no such scene file")) {
            try dirs.resolve(root + "/scenes/missing.toml").get()
        }
        #expect(throws: SceneDirectories.Refused(message: "the path must be absolute")) {
            try dirs.resolve("scenes/sale.toml").get()
        }
    }

    @Test("problems shown to a client keep the line and key but not the file's values")
    func redaction() {
        let problems = [
            ConfigProblem(
                file: "s.toml", line: 3, key: "display.background", message: #""hunter2" is not a colour (use #rrggbb)"#
            ),
            ConfigProblem(
                file: "s.toml", line: 4, key: "layer[0].scroll",
                message: #""sometimes" is not one of "always", "overflow""#),
            ConfigProblem(file: "s.toml", line: 5, key: "display.fps", message: "0.5 is out of range 1.0...1000.0"),
            ConfigProblem(file: "s.toml", line: 1, key: "-", message: "TOML syntax: expected '=', saw 'p'"),
        ].map(\.withoutValues.description)
        #expect(
            problems == [
                #"s.toml:3: display.background: "…" is not a colour (use #rrggbb)"#,
                #"s.toml:4: layer[0].scroll: "…" is not one of "…", "…""#,
                "s.toml:5: display.fps: the value is out of range 1.0...1000.0",
                "s.toml:1: -: TOML syntax: expected '…', saw '…'",
            ])
    }
}
