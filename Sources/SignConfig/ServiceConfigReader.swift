/// The config's ways in from the network: `[web]` (docs/contracts.md, "The web API") and
/// `[mqtt]` ("MQTT").
extension ConfigLoader {
    /// `[web]`: `listen` (a numeric address and port) and `token_file`, which anything but a
    /// loopback address must have: a page that changes the sign, open to the whole network
    /// without a token, is refused rather than started.
    static func readWeb(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "web", at: "") else { return }
        r.rejectUnknownKeys(t, at: "web", allowed: ["listen", "token_file"])
        guard let listen = r.string(t, "listen", at: "web") else {
            if t["listen"] == nil {
                r.problem("web.listen", "missing: the address and port to serve the page on, e.g. \"127.0.0.1:8080\"")
            }
            return
        }
        guard let (host, port) = DaemonConfig.Web.parseListen(listen) else {
            r.problem(
                "web.listen",
                "not a numeric address and port (e.g. \"127.0.0.1:8080\", \"0.0.0.0:8080\" or \"[::1]:8080\")")
            return
        }
        var web = DaemonConfig.Web(host: host, port: port)
        web.tokenFile = r.string(t, "token_file", at: "web").map { r.fromConfigDirectory($0) }
        if web.tokenFile == nil, !web.isLoopback {
            r.problem(
                "web.token_file",
                "required when web.listen is not a loopback address: without it anyone on the network could change the sign (put a long random token in a file only signd can read)"
            )
        }
        config.web = web
    }

    /// `[mqtt]`: the broker's `url` and how signd appears there (docs/contracts.md, "MQTT").
    /// Credentials come from files, never from the config itself.
    static func readMQTT(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "mqtt", at: "") else { return }
        r.rejectUnknownKeys(
            t, at: "mqtt",
            allowed: [
                "url", "node_id", "topic", "username", "password_file", "ca_file", "cert_file", "key_file", "groups",
                "discovery",
            ])
        guard let url = r.string(t, "url", at: "mqtt") else {
            if t["url"] == nil { r.problem("mqtt.url", "missing: the broker, e.g. \"mqtt://broker.local:1883\"") }
            return
        }
        guard let (host, port, tls) = parseBrokerURL(url) else {
            r.problem(
                "mqtt.url",
                "not a broker URL (\"mqtt://HOST[:PORT]\" or \"mqtts://HOST[:PORT]\"; credentials go in username and password_file)"
            )
            return
        }
        let nodeID = r.string(t, "node_id", at: "mqtt") ?? DaemonConfig.MQTT.defaultNodeID
        if !DaemonConfig.MQTT.isName(nodeID) {
            r.problem("mqtt.node_id", "1 to 64 of a-z, 0-9, _ and -")
        }
        var mqtt = DaemonConfig.MQTT(host: host, port: port, tls: tls, nodeID: nodeID)
        if let topic = r.string(t, "topic", at: "mqtt") {
            if topic.isEmpty || topic.contains("+") || topic.contains("#") || topic.hasSuffix("/")
                || topic.utf8.count > 200
            {
                r.problem("mqtt.topic", "a topic prefix without wildcards (+, #) or a trailing /")
            } else if topic.hasPrefix("$") {
                r.problem(
                    "mqtt.topic",
                    "\"\(topic)\" starts with $, which brokers keep for themselves ($SYS/...) and refuse to clients")
            } else {
                mqtt.topic = topic
            }
        }
        mqtt.username = r.string(t, "username", at: "mqtt")
        mqtt.passwordFile = r.string(t, "password_file", at: "mqtt").map { r.fromConfigDirectory($0) }
        mqtt.caFile = r.string(t, "ca_file", at: "mqtt").map { r.fromConfigDirectory($0) }
        mqtt.certFile = r.string(t, "cert_file", at: "mqtt").map { r.fromConfigDirectory($0) }
        mqtt.keyFile = r.string(t, "key_file", at: "mqtt").map { r.fromConfigDirectory($0) }
        if mqtt.passwordFile != nil, mqtt.username == nil {
            r.problem("mqtt.password_file", "a password needs a username")
        }
        if (mqtt.certFile == nil) != (mqtt.keyFile == nil) {
            r.problem("mqtt.cert_file", "a client certificate needs its key_file, and a key its cert_file")
        }
        if !tls, mqtt.caFile != nil || mqtt.certFile != nil {
            r.problem("mqtt.url", "ca_file and cert_file are for TLS: use an mqtts:// URL")
        }
        if let value = t["groups"] {
            let names = value.array?.compactMap { $0.string } ?? []
            if names.count != value.array?.count || !names.allSatisfy(DaemonConfig.MQTT.isName) {
                r.problem("mqtt.groups", "expected an array of group names, each 1 to 64 of a-z, 0-9, _ and -")
            } else {
                mqtt.groups = names
            }
        }
        if let v = r.bool(t, "discovery", at: "mqtt") { mqtt.discovery = v }
        config.mqtt = mqtt
    }

    /// Splits `mqtt://host[:port]` or `mqtts://host[:port]` (an IPv6 host in brackets).
    static func parseBrokerURL(_ url: String) -> (host: String, port: Int, tls: Bool)? {
        let tls: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst("mqtt://".count)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst("mqtts://".count)
        } else {
            return nil
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("@"), !rest.contains("/") else { return nil }
        var host: Substring
        var port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        let number = port.map { Int($0) } ?? (tls ? 8883 : 1883)
        guard let number, (1...65535).contains(number), !host.isEmpty, !host.contains(":") || rest.hasPrefix("[")
        else { return nil }
        return (String(host), number, tls)
    }
}
