/// What signd and signctl say they are: the release and the commit they were built from,
/// in `--version`, `status`, the MQTT device block and the page.
public enum SignVersion {
    /// The release (debian/changelog's upstream version says the same).
    public static let number = "0.9.0"
    /// The commit the sources were built from (`git describe --always`), or
    /// `unknown` when they were not built from a git checkout.
    public static let commit = buildCommit
    /// `0.9.0 (commit 1a2b3c4d5e6f)`.
    public static var description: String { "\(number) (commit \(commit))" }
}
