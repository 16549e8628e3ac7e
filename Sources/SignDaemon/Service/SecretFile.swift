import SignGraphics

/// A secret kept in a file (an MQTT password, the web token): a regular file of at most
/// 4 KiB, read at start. Its content never appears in a message or the log.
enum SecretFile {
    /// The file's text without its trailing line break; `key` names the setting in errors.
    static func read(_ path: String, key: String) throws(DaemonError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 4096)
        } catch {
            throw DaemonError("\(key) \(path): \(error.message)")
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw DaemonError("\(key) \(path): not UTF-8 text")
        }
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
