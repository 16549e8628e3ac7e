import Logging
import Synchronization
import Testing

@testable import SignDaemon

/// Where the capturing handler keeps what it is given.
private final class Lines: Sendable {
    let lines = Mutex<[String]>([])
}

/// A handler that keeps what it is given.
private struct Capture: LogHandler {
    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        lines.lines.withLock { $0.append(([event.message.description] + fields).joined(separator: " ")) }
    }
}

@Suite("EscapingLogHandler")
struct EscapingLogHandlerTests {
    @Test("a newline or escape sequence in a message or a metadata value is written escaped")
    func escapes() {
        let lines = Lines()
        let logger = Logger(label: "t") { _ in EscapingLogHandler(Capture(lines: lines)) }
        logger.info(
            "scene loaded \("/a\nsignd[1]: forged")",
            metadata: ["scene": "/etc/\u{1b}]0;title\u{7}x.toml", "list": ["a\nb"]])
        let written = lines.lines.withLock { $0 }
        #expect(written.count == 1)
        #expect(!written[0].contains("\n") && !written[0].contains("\u{1b}"))
        #expect(written[0].contains(#"/a\u{a}signd[1]: forged"#))
        #expect(written[0].contains(#"scene=/etc/\u{1b}]0;title\u{7}x.toml"#))
    }
}
