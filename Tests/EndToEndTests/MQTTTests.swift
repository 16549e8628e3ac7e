import Foundation
import Glibc
import SignControl
import Testing

/// A mosquitto broker of the test's own on a loopback address, with the project's real
/// clients (mosquitto_pub, mosquitto_sub) beside it.
final class Broker {
    let scratch: Scratch
    let host = "127.81.\(UInt8.random(in: 1...254)).\(UInt8.random(in: 1...254))"
    let port = 1883
    private(set) var process: Process?
    let config: String
    /// mosquitto_pub/sub arguments for connecting (credentials, TLS).
    var clientArguments: [String]

    /// With `password`, the broker takes only user `sign` with it; with `tls`, it speaks TLS
    /// with a certificate from a CA the test makes (`ca` is that CA's file).
    init(_ scratch: Scratch, password: String? = nil, tls: Bool = false) throws {
        self.scratch = scratch
        var lines = ["listener \(port) \(host)", "persistence false", "allow_anonymous \(password == nil)"]
        clientArguments = ["-h", host, "-p", "\(port)"]
        if let password {
            let file = scratch.dir.appendingPathComponent("mosquitto.passwd").path
            let made = try run("/usr/bin/mosquitto_passwd", ["-c", "-b", file, "sign", password])
            #expect(made.status == 0, "mosquitto_passwd: \(made.stderr)")
            lines.append("password_file \(file)")
            clientArguments += ["-u", "sign", "-P", password]
        }
        if tls {
            try Self.makeCertificates(in: scratch.dir, host: host)
            let dir = scratch.dir.path
            lines += ["cafile \(dir)/ca.pem", "certfile \(dir)/server.pem", "keyfile \(dir)/server.key"]
            clientArguments += ["--cafile", "\(dir)/ca.pem"]
        }
        config = try scratch.write(
            lines.joined(separator: "\n") + "\n", "mosquitto-\(UInt32.random(in: 0...UInt32.max)).conf")
        try start()
    }

    var caFile: String { scratch.dir.appendingPathComponent("ca.pem").path }

    /// A CA and a server certificate for `host`, made with openssl.
    static func makeCertificates(in dir: URL, host: String) throws {
        let d = dir.path
        for arguments in [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=signd test CA", "-keyout",
                "\(d)/ca.key", "-out", "\(d)/ca.pem",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(host)", "-keyout", "\(d)/server.key", "-out",
                "\(d)/server.csr",
            ],
            [
                "x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
                "-CAcreateserial",
                "-days", "2", "-extfile", try scratchFile(dir, "san.cnf", "subjectAltName = IP:\(host)\n"), "-out",
                "\(d)/server.pem",
            ],
        ] {
            let done = try run("/usr/bin/openssl", arguments)
            #expect(done.status == 0, "openssl \(arguments[0]): \(done.stderr)")
        }
        // mosquitto, started as root, reads these as user mosquitto: readable whatever the umask.
        for file in ["ca.pem", "server.pem", "server.key"] { chmod("\(d)/\(file)", 0o644) }
        chmod(d, 0o755)
    }

    private static func scratchFile(_ dir: URL, _ name: String, _ text: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts mosquitto and waits until it takes connections.
    func start() throws {
        let process = try scratch.launch("/usr/sbin/mosquitto", ["-c", config])
        self.process = process
        let arguments = clientArguments + ["-t", "test/ready", "-m", "1"]
        if eventually(timeout: 20, { (try? run("/usr/bin/mosquitto_pub", arguments))?.status == 0 }) { return }
        throw ControlClient.Unreachable(path: "mosquitto", reason: "did not start: \(scratch.stderr(of: process))")
    }

    /// Kills the broker (as a crash or a power cut would).
    func kill() {
        guard let process else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    func publish(_ topic: String, _ message: String, qos: Int = 1) throws {
        let done = try run("/usr/bin/mosquitto_pub", clientArguments + ["-q", "\(qos)", "-t", topic, "-m", message])
        #expect(done.status == 0, "mosquitto_pub: \(done.stderr)")
    }

    /// `count` messages on `topics` (retained ones included), each as "topic payload"; what
    /// came within `seconds` if fewer.
    func receive(_ topics: [String], count: Int, seconds: Int = 10) throws -> [String] {
        // Under timeout(1): mosquitto_sub's own -W waits for a SIGALRM, which a child of the
        // test runner starts with blocked, so with fewer messages it would wait for ever.
        let done = try run(
            "/usr/bin/timeout",
            ["-s", "KILL", "\(seconds)", "/usr/bin/mosquitto_sub"] + clientArguments + topics.flatMap { ["-t", $0] }
                + ["-v", "-C", "\(count)"])
        return done.stdout.split(separator: "\n").map(String.init)
    }

    /// Starts a subscriber and returns once it is subscribed; `collect` returns what it got
    /// on `topics` by then.
    func listen(_ topics: [String], seconds: Int = 10) throws -> (collect: () -> [String], stop: () -> Void) {
        let out = scratch.dir.appendingPathComponent("sub-\(UInt32.random(in: 0...UInt32.max)).txt")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        // A topic of its own beside `topics`: a message on it that comes through says the
        // subscriptions are in place (the broker takes them in order).
        let marker = "test/listening-\(UInt32.random(in: 0...UInt32.max))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = clientArguments + (topics + [marker]).flatMap { ["-t", $0] } + ["-v", "-W", "\(seconds)"]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let lines = { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        // SIGKILL: a child of the test runner starts with SIGTERM blocked.
        let stop = { if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) } }
        var published = 0
        let subscribed = eventually {
            // Published again now and then: one sent before the subscription is lost.
            if published % 20 == 0 {
                _ = try? run("/usr/bin/mosquitto_pub", clientArguments + ["-t", marker, "-m", "1"])
            }
            published += 1
            return lines().contains { $0.hasPrefix(marker + " ") }
        }
        guard subscribed else {
            stop()
            throw ControlClient.Unreachable(path: "mosquitto_sub", reason: "never subscribed to \(topics)")
        }
        return ({ lines().filter { !$0.hasPrefix(marker + " ") } }, stop)
    }

    deinit { kill() }
}

@Suite("MQTT", .serialized)
struct MQTTTests {
    /// A 64x16 board with one text layer, a playlist, and `[mqtt]` for `broker` (node
    /// `window`, group `shop`, discovery on).
    static func config(_ s: Scratch, _ broker: Broker, tls: Bool = false, extra: String = "") throws -> String {
        try s.write(
            s.config(
                text: "Hello",
                extra: """
                    [[playlist]]
                    name = "day"
                    [[playlist.item]]
                    text = "Good morning"
                    duration = 600
                    [mqtt]
                    url = "\(tls ? "mqtts" : "mqtt")://\(broker.host):\(broker.port)"
                    node_id = "window"
                    groups = ["shop"]
                    discovery = true
                    \(extra)
                    """))
    }

    /// Waits until `status` says the MQTT link is `state`.
    /// Waits until `status`'s mqtt link is in `state` and, with `withError`, has a `last_error`
    /// (a link starts out `waiting` with none, before its first attempt has been answered).
    static func waitForLink(_ s: Scratch, _ state: String, withError: Bool = false, seconds: Double = 15) throws
        -> JSONValue?
    {
        var link: JSONValue?
        if try eventually(
            timeout: seconds,
            {
                link = try s.request("status")["mqtt"]
                return link?["state"]?.stringValue == state && (!withError || link?["last_error"]?.stringValue != nil)
            })
        {
            return link
        }
        Issue.record("the MQTT link did not become \(state): \(String(describing: link))")
        return link
    }

    /// What a response says, without what differs from one run to the next: ok, the error's
    /// code, and the result's keys.
    static func shape(_ line: String) throws -> String {
        let json = try JSONValue.parse(Array(line.utf8))
        if json["ok"]?.boolValue == true {
            return "ok " + (json["result"]?.objectValue?.keys.sorted().joined(separator: ",") ?? "")
        }
        return "error " + (json["error"]?["code"]?.stringValue ?? "?")
    }

    @Test("every request over cmd gets the response the socket gives, with its id; text/set changes the frame")
    func sameAsSocket() throws {
        let s = try Scratch()
        let broker = try Broker(s)
        let signd = try s.startSignd(config: try Self.config(s, broker))
        defer { s.stop(signd) }
        _ = try Self.waitForLink(s, "ok")
        let requests = [
            #"{"cmd":"ping"}"#, #"{"cmd":"status"}"#, #"{"cmd":"outputs"}"#, #"{"cmd":"set-text","text":"A"}"#,
            #"{"cmd":"set-text","text":"B","layer":"nope"}"#, #"{"cmd":"select-zone","layer":"main","zone":"x"}"#,
            #"{"cmd":"set-property","layer":"main","key":"opactiy","value":1}"#,
            #"{"cmd":"set-property","layer":"main","key":"opacity","value":0.5}"#, #"{"cmd":"stop"}"#,
            #"{"cmd":"start"}"#, #"{"cmd":"load-scene","path":"/etc/passwd"}"#, #"{"cmd":"notify","text":"N"}"#,
            #"{"cmd":"dismiss","all":true}"#, #"{"cmd":"set-var","name":"t","value":"1"}"#,
            #"{"cmd":"set-var","name":"bad name","value":"1"}"#, #"{"cmd":"playlist","action":"next"}"#,
            #"{"cmd":"playlist","action":"select","name":"nope"}"#, #"{"cmd":"set-brightness","value":0.5}"#,
            #"{"cmd":"set-brightness","value":2}"#, #"{"cmd":"display","state":"on"}"#, #"{"cmd":"reload"}"#,
            #"{"cmd":"fly"}"#, #"{"cmd":"set-text"}"#, #"{"cmd":"set-text","text":5}"#, #"[1]"#, "not json",
            #"{"cmd":"set-text","text":"C","at":1}"#,
        ]
        for (i, body) in requests.enumerated() {
            let client = try ControlClient(path: s.socket)
            try client.send(raw: Array((body + "\n").utf8))
            let overSocket = String(decoding: try client.readLine() ?? [], as: UTF8.self)
            // The same request over MQTT, with an id so its response can be told apart.
            var withID = body
            if body.hasPrefix("{\"cmd\"") { withID = "{\"id\":\(1000 + i)," + body.dropFirst() }
            let results = try broker.listen(["signd/window/result"])
            try broker.publish("signd/window/cmd", withID)
            let overMQTT = firstValue {
                results.collect().first.map { String($0.dropFirst("signd/window/result ".count)) }
            }
            results.stop()
            guard let overMQTT else {
                Issue.record("no result over MQTT for \(body)")
                continue
            }
            #expect(try Self.shape(overMQTT) == Self.shape(overSocket), "\(body)")
            if withID != body {
                #expect(try JSONValue.parse(Array(overMQTT.utf8))["id"] == .int(Int64(1000 + i)), "\(body)")
            }
        }
        let before = try run("/usr/bin/env", ["python3", Paths.shmReader, s.name, "frame", s.dir.path + "/before.rgb"])
        #expect(before.status == 0)
        try broker.publish("signd/window/text/set", "Über MQTT")
        let changed = try eventually {
            _ = try run("/usr/bin/env", ["python3", Paths.shmReader, s.name, "frame", s.dir.path + "/after.rgb"])
            let shown = try s.request("status")["text"]?.stringValue == "Über MQTT"
            return shown
                && (try? Data(contentsOf: s.dir.appendingPathComponent("after.rgb")))
                    != (try? Data(contentsOf: s.dir.appendingPathComponent("before.rgb")))
        }
        #expect(changed, "text/set did not change the shm frame")
        #expect(try broker.receive(["signd/window/text/state"], count: 1) == ["signd/window/text/state Über MQTT"])
    }

    @Test(
        "availability: online when connected, offline by the last will; a QoS 1 request sent while signd was away runs when it is back; a broker restart is reconnected to without a stall of signd's own"
    )
    func awayAndBack() throws {
        let s = try Scratch()
        let broker = try Broker(s)
        let config = try Self.config(s, broker)
        var signd = try s.startSignd(config: config)
        _ = try Self.waitForLink(s, "ok")
        #expect(try broker.receive(["signd/window/availability"], count: 1) == ["signd/window/availability online"])
        // signd dies without a word: the broker says so for it.
        kill(signd.processIdentifier, SIGKILL)
        signd.waitUntilExit()
        #expect(try broker.receive(["signd/window/availability"], count: 1) == ["signd/window/availability offline"])
        try broker.publish("signd/window/text/set", "sent while away")
        try broker.publish("signd/group/shop/cmd", #"{"cmd":"set-var","name":"note","value":"queued too"}"#)
        signd = try s.startSignd(config: config)
        defer { s.stop(signd) }
        var status = try s.request("status")
        _ = try eventually {
            status = try s.request("status")
            return status["text"]?.stringValue == "sent while away" && status["vars"]?["note"] != nil
        }
        #expect(status["text"]?.stringValue == "sent while away")
        #expect(status["vars"]?["note"]?.stringValue == "queued too")
        // The broker goes away and comes back.
        let stallsBefore = status["stalls_own"]?.doubleValue ?? 0
        broker.kill()
        let waiting = try Self.waitForLink(s, "waiting", withError: true)
        #expect(waiting?["last_error"]?.stringValue != nil)
        try broker.start()
        _ = try Self.waitForLink(s, "ok", seconds: 20)
        #expect(try broker.receive(["signd/window/availability"], count: 1) == ["signd/window/availability online"])
        try broker.publish("signd/window/text/set", "after the restart")
        _ = try eventually { try s.request("status")["text"]?.stringValue == "after the restart" }
        let after = try s.request("status")
        #expect(after["text"]?.stringValue == "after the restart")
        #expect((after["stalls_own"]?.doubleValue ?? 0) == stallsBefore)
    }

    @Test(
        "Home Assistant discovery: retained configs with the required fields, again when Home Assistant comes online; the light's command turns the display off; a reload without playlists removes the select"
    )
    func discovery() throws {
        let s = try Scratch()
        let broker = try Broker(s)
        let signd = try s.startSignd(config: try Self.config(s, broker))
        defer { s.stop(signd) }
        _ = try Self.waitForLink(s, "ok")
        let lines = try broker.receive(["homeassistant/#"], count: 4)
        var configs: [String: JSONValue] = [:]
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            configs[parts[0]] = try JSONValue.parse(Array(parts[1].utf8))
        }
        #expect(
            Set(configs.keys) == [
                "homeassistant/text/window/text/config", "homeassistant/light/window/display/config",
                "homeassistant/sensor/window/dropped/config", "homeassistant/select/window/playlist/config",
            ])
        for (topic, config) in configs {
            #expect(config["availability_topic"]?.stringValue == "signd/window/availability", "\(topic)")
            let parts = topic.split(separator: "/")
            #expect(config["unique_id"]?.stringValue == "signd_window_\(parts[3])", "\(topic)")
            #expect(config["default_entity_id"]?.stringValue == "\(parts[1]).window_\(parts[3])", "\(topic)")
            #expect(config["origin"]?["name"]?.stringValue == "signd", "\(topic)")
            #expect(config["device"]?["identifiers"] == ["window"], "\(topic)")
            #expect(config["device"]?["model"]?.stringValue == "signd", "\(topic)")
            #expect(config["device"]?["sw_version"]?.stringValue?.isEmpty == false, "\(topic)")
            #expect(config["name"]?.stringValue?.isEmpty == false, "\(topic)")
            #expect(config["command_topic"] != nil || topic.contains("/sensor/"), "\(topic)")
            // Every state comes from the retained state, which is never empty.
            #expect(config["state_topic"]?.stringValue == "signd/window/state", "\(topic)")
        }
        let light = configs["homeassistant/light/window/display/config"]
        #expect(light?["brightness_command_topic"]?.stringValue == "signd/window/cmd")
        #expect(configs["homeassistant/select/window/playlist/config"]?["options"] == ["day"])
        // Home Assistant restarts: the configs come again.
        let again = try broker.listen(["homeassistant/+/window/+/config"])
        try broker.publish("homeassistant/status", "online")
        _ = eventually { again.collect().count >= 8 }
        #expect(again.collect().count >= 8, "4 retained + 4 re-published")
        again.stop()
        // What Home Assistant sends to turn the light off.
        try broker.publish(light?["command_topic"]?.stringValue ?? "", light?["payload_off"]?.stringValue ?? "")
        _ = try eventually { try s.request("status")["display"]?.stringValue == "off" }
        #expect(try s.request("status")["display"]?.stringValue == "off")
        // A reload without playlists removes the select: its retained config goes.
        try s.write(
            s.config(
                text: "Hello",
                extra: """
                    [mqtt]
                    url = "mqtt://\(broker.host):\(broker.port)"
                    node_id = "window"
                    discovery = true
                    """))
        let selectTopic = "homeassistant/select/window/playlist/config"
        let removal = try broker.listen([selectTopic])
        _ = try s.request("reload")
        // Removed: published empty, which mosquitto_sub -v shows as "(null)".
        func removed() -> Bool { removal.collect().contains(selectTopic + " (null)") }
        _ = eventually { removed() }
        #expect(removed(), "the select's config was not removed: \(removal.collect())")
        removal.stop()
        #expect(
            try broker.receive([selectTopic], count: 1, seconds: 2).isEmpty, "the select's config is still retained")
    }

    @Test(
        "a config an older signd retained (unique_id without signd_) is removed and published anew, so Home Assistant keeps the entity id; current ones are left alone"
    )
    func olderConfigReplaced() throws {
        let s = try Scratch()
        let broker = try Broker(s)
        let topic = "homeassistant/light/window/display/config"
        let old =
            #"{"name":"Display","unique_id":"window_display","object_id":"window_display","command_topic":"signd/window/cmd"}"#
        let done = try run(
            "/usr/bin/mosquitto_pub", broker.clientArguments + ["-q", "1", "-r", "-t", topic, "-m", old])
        #expect(done.status == 0)
        let seen = try broker.listen([topic], seconds: 20)
        let signd = try s.startSignd(config: try Self.config(s, broker))
        defer { s.stop(signd) }
        _ = try Self.waitForLink(s, "ok")
        func current(_ line: String) -> Bool {
            line.hasPrefix(topic + " {") && line.contains("\"signd_window_display\"")
        }
        // The old one (retained), then signd's, the removal, and signd's again.
        _ = eventually { seen.collect().drop { !$0.contains("(null)") }.contains(where: current) }
        let lines = seen.collect()
        seen.stop()
        #expect(lines.first == topic + " " + old)
        let removal = try #require(lines.firstIndex(of: topic + " (null)"), "\(lines)")
        #expect(lines[(removal + 1)...].contains(where: current), "\(lines)")
        #expect(lines.filter { $0.hasSuffix("(null)") }.count == 1, "signd's own configs are not removed: \(lines)")
        // What stays retained is signd's.
        let retained = try broker.receive([topic], count: 1)
        #expect(retained.count == 1 && current(retained[0]), "\(retained)")
    }

    @Test(
        "a broker with a password file: the right password connects; a wrong one is waited out with the broker's reason"
    )
    func password() throws {
        let s = try Scratch()
        let broker = try Broker(s, password: "correct horse")
        let good = try s.write("correct horse\n", "mqtt.password")
        let signd = try s.startSignd(
            config: try Self.config(s, broker, extra: "username = \"sign\"\npassword_file = \"\(good)\""))
        _ = try Self.waitForLink(s, "ok")
        s.stop(signd)
        let bad = try s.write("wrong", "mqtt.bad")
        let refused = try s.startSignd(
            config: try Self.config(s, broker, extra: "username = \"sign\"\npassword_file = \"\(bad)\""))
        defer { s.stop(refused) }
        let link = try Self.waitForLink(s, "waiting", withError: true)
        #expect(link?["last_error"]?.stringValue?.contains("refused") == true, "\(String(describing: link))")
        #expect(!s.stderr(of: refused).contains("wrong"), "the password must never be logged")
    }

    @Test(
        "a burst of 3,000 requests on cmd: each that arrives is carried out or answered busy, and signd goes on answering"
    )
    func burst() throws {
        let s = try Scratch()
        let broker = try Broker(s)
        let signd = try s.startSignd(config: try Self.config(s, broker))
        defer { s.stop(signd) }
        _ = try Self.waitForLink(s, "ok")
        let results = try broker.listen(["signd/window/result"], seconds: 30)
        let publisher = Process()
        publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        publisher.arguments = broker.clientArguments + ["-q", "1", "-l", "-t", "signd/window/cmd"]
        let input = Pipe()
        publisher.standardInput = input
        try publisher.run()
        let burst = (1...3000).map { #"{"id":\#($0),"cmd":"set-text","text":"burst \#($0)"}"# }.joined(separator: "\n")
        input.fileHandleForWriting.write(Data((burst + "\n").utf8))
        try input.fileHandleForWriting.close()
        publisher.waitUntilExit()
        // mosquitto queues at most 1,000 messages for a client and drops the rest ("outgoing
        // messages are being dropped"): wait until what it passed on has been answered. A
        // marker request sent after the burst comes back after every answer before it (one
        // cmd topic, carried out in order); sent again while mosquitto may still drop it.
        var marks = 0
        let marked = try eventually(timeout: 60) {
            if marks % 100 == 0 { try broker.publish("signd/window/cmd", #"{"id":"marker","cmd":"ping"}"#) }
            marks += 1
            return results.collect().contains { $0.contains(#""id":"marker""#) }
        }
        #expect(marked, "the marker request after the burst was never answered")
        try broker.publish("signd/window/text/set", "after the burst")
        _ = try eventually { try s.request("status")["text"]?.stringValue == "after the burst" }
        #expect(try s.request("status")["text"]?.stringValue == "after the burst")
        let lines = results.collect().filter { !$0.contains(#""id":"marker""#) }
        results.stop()
        #expect(lines.count >= 1000, "answered \(lines.count) of the 3,000")
        #expect(lines.allSatisfy { $0.contains("\"ok\":true") || $0.contains("\"code\":\"busy\"") })
        #expect(signd.isRunning)
    }

    @Test("TLS with a CA of the test's own: mqtts with ca_file connects")
    func tls() throws {
        let s = try Scratch()
        let broker = try Broker(s, tls: true)
        let signd = try s.startSignd(
            config: try Self.config(s, broker, tls: true, extra: "ca_file = \"\(broker.caFile)\""))
        defer { s.stop(signd) }
        _ = try Self.waitForLink(s, "ok")
        try broker.publish("signd/window/text/set", "over TLS")
        _ = try eventually { try s.request("status")["text"]?.stringValue == "over TLS" }
        #expect(try s.request("status")["text"]?.stringValue == "over TLS")
    }
}
