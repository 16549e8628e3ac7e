import Foundation
import SignGraphics
import Testing

@testable import SignConfig

/// Inputs on which the TOML parser would abort or exhaust the stack are refused before it
/// sees them, as syntax problems with their line; every example config still passes.
@Suite("TOMLGuard")
struct TOMLGuardTests {
    func problems(_ source: String) -> [String] { configProblems(source) }

    @Test(
        "a table header that does not start with a key is a syntax problem, not an abort",
        arguments: [
            "[[{x]]", "[=isplay]", "[ {x]", "[[ +a]]", "[\u{1}]", "[.a]",
        ])
    func badHeaders(header: String) {
        let found = problems("# a comment\n" + header + "\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("t.toml:2: -: TOML syntax: a table header must start with a key") == true)
    }

    @Test(
        "a character beyond ASCII outside strings and comments is a syntax problem; inside them it is text",
        arguments: ["\u{A0}[[{x]]", "\u{3000} [=a]", "wth = he-h\u{FFFD} 1, t\u{FFFD}\u{FFFD}t", "a = 1\u{2028}"])
    func beyondASCII(line: String) {
        #expect(
            problems("# a comment\n" + line + "\n")
                == ["t.toml:2: -: TOML syntax: a character beyond ASCII outside a string or comment"])
        #expect(TOMLGuard.check("# ☕ \u{A0}\ntext = \"☕ 안녕 \u{A0}\"\n'☕' = 1\n") == nil)
    }

    @Test(
        "a date-shaped value, a space and one digit is a syntax problem, not an abort",
        arguments: [
            "a = 1979-05-27 7", "wth=  3300-he-'\u{F3} 1, t", "a = [1979-05-27 7]", "a = 19_79-05-27 7#",
            "a = {b = 1234-ab-cd 1}",
        ])
    func dateThenLoneDigit(line: String) {
        #expect(
            problems("# a comment\n" + line + "\n")
                == ["t.toml:2: -: TOML syntax: a date followed by a space and a single digit (a time needs hh:mm:ss)"])
    }

    @Test("a date with a time after a space, or a longer number after it, is left to the parser")
    func dateThenTime() {
        #expect(TOMLGuard.check("a = 1979-05-27 07:32:00\nb = 1979-05-27 72\nc = 1979-05-27 7") == nil)
    }

    @Test("a byte-order mark may open the file, and a header after it is checked like any other")
    func byteOrderMark() {
        #expect(TOMLGuard.check("\u{FEFF}[display]\nwidth = 64\n") == nil)
        #expect(problems("\u{FEFF} [[[[[align\n").first?.contains("a table header must start with a key") == true)
    }

    @Test("one byte changed anywhere in the installed config never aborts the parser")
    func everyByteOfTheInstalledConfig() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../configs/signd.toml")
        let original = Array(try Data(contentsOf: url))
        // Each position gets the bytes that open or break TOML structure.
        for i in original.indices {
            for byte in Array("=[]{}\"'.#,\n".utf8) where original[i] != byte {
                var changed = original
                changed[i] = byte
                _ = problems(String(decoding: changed, as: UTF8.self))
            }
        }
    }

    @Test("headers, dotted keys and values nested past the limit are refused before parsing")
    func nesting() {
        let deepHeader = "[" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "]"
        #expect(problems(deepHeader).first?.contains("table names are limited to 32 dotted parts") == true)
        let deepKey = Array(repeating: "a", count: 40).joined(separator: ".") + " = 1"
        #expect(problems(deepKey).first?.contains("dotted keys are limited to 32 parts") == true)
        let deepValue = "a = " + String(repeating: "[", count: 700) + String(repeating: "]", count: 700)
        #expect(problems(deepValue).first?.contains("limited to 32 levels of nesting") == true)
        let deepInline = "a = " + String(repeating: "{b = ", count: 700) + "1" + String(repeating: "}", count: 700)
        #expect(problems(deepInline).first?.contains("limited to 32 levels of nesting") == true)
    }

    @Test("a mask or sublayer chain deeper than the limit is a config problem")
    func layerDepth() {
        var source = "[[layer]]\ntype = \"plain\"\n"
        var path = "layer"
        for _ in 0..<20 {
            path += ".mask"
            source += "[\(path)]\n"
        }
        #expect(problems(source).contains { $0.contains("masks and sublayers nest at most 16 deep") })
    }

    @Test("strings, comments and multi-line arrays are not mistaken for headers")
    func validFiles() throws {
        #expect(
            TOMLGuard.check(
                """
                # [=not a header]
                text = "[=not a header either] a.b.c"
                multi = \"\"\"
                [=inside a string]
                \"\"\"
                values = [
                  [{x = 1}],
                  [+1, 2],
                ]
                [display]
                """) == nil)
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../configs")
        for file in try FileManager.default.subpathsOfDirectory(atPath: examples.path) where file.hasSuffix(".toml") {
            let source = try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)
            #expect(TOMLGuard.check(source) == nil, "\(file)")
        }
    }

    @Test("a FIFO or a device named as the config is refused at once")
    func notRegular() throws {
        let fifo = "/tmp/signd-test-fifo-\(getpid())"
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: fifo, fonts: try FontLibrary()) }
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: "/dev/zero", fonts: try FontLibrary()) }
    }
}
