import Foundation

/// Where the control socket is, by the contract's precedence: the `--socket` flag, then
/// `$SIGND_SOCKET`, then (for signd) the config's `control.socket`, then the system default.
public enum SocketPath {
    /// The socket a system service listens on.
    public static let systemDefault = "/run/signd/control.sock"
    public static let environmentVariable = "SIGND_SOCKET"

    public static func resolve(flag: String?, configured: String? = nil) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let env = ProcessInfo.processInfo.environment[environmentVariable], !env.isEmpty { return env }
        if let configured, !configured.isEmpty { return configured }
        return systemDefault
    }
}
