import CSystemd
import Glibc
import Logging

/// A swift-log handler that writes structured entries to the systemd journal: the message,
/// its priority, and each metadata key as an upper-case field (`OUTPUT=`, `DEVICE=`).
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let identifier: String

    public init(identifier: String) {
        self.identifier = identifier
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = [
            "MESSAGE=\(event.message)", "PRIORITY=\(Self.priority(event.level))", "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)", "CODE_LINE=\(event.line)", "CODE_FUNC=\(event.function)",
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields.append("\(Self.fieldName(key))=\(value)")
        }
        Self.send(fields)
    }

    /// syslog priorities, as the journal files them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// Journal field names are upper-case letters, digits and underscores.
    static func fieldName(_ key: String) -> String {
        let name = String(key.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        return name.first?.isLetter == true ? name : "F_" + name
    }

    private static func send(_ fields: [String]) {
        // sd_journal_send is variadic; sd_journal_sendv takes the fields as iovecs into one buffer.
        let bytes = fields.flatMap { Array($0.utf8) }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            let vectors = fields.map { field -> iovec in
                let length = field.utf8.count
                defer { offset += length }
                return iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: length)
            }
            _ = sd_journal_sendv(vectors, Int32(vectors.count))
        }
    }
}
