@testable import SignConfig

/// The problems `check-config` would print for `source` named `file`; none for a good one.
func configProblems(_ source: String, file: String = "t.toml") -> [String] {
    do {
        _ = try ConfigLoader.parse(source, file: file, fonts: nil)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}
