/// A text's base (paragraph) direction: found from its first strong character (`auto`), or
/// set. Runs inside it are ordered by the Unicode Bidirectional Algorithm either way.
public enum TextDirection: String, Sendable, Hashable, Codable, CaseIterable {
    case auto, ltr, rtl
}
