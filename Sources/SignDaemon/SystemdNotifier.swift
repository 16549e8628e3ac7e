import CSystemd

/// Tells systemd about the service's state through sd_notify (a no-op when signd does not
/// run under a Type=notify unit, i.e. when NOTIFY_SOCKET is unset).
public enum SystemdNotifier {
    /// Sends `KEY=VALUE` lines, e.g. `["READY=1", "STATUS=..."]`, in one message.
    @discardableResult
    public static func notify(_ lines: [String]) -> Bool {
        sd_notify(0, lines.joined(separator: "\n")) > 0
    }
}
