import Foundation
import SignGraphics
import SignScene
import SignTiming
import Testing

@testable import SignConfig

@Suite("ConfigLoader")
struct ConfigLoaderTests {
    static let fonts = try! FontLibrary()
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    func problems(_ source: String, fonts: FontLibrary? = nil) -> [String] {
        do {
            _ = try ConfigLoader.parse(source, file: "t.toml", fonts: fonts)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("the demo config is valid and describes the demo")
    func demo() throws {
        let config = try ConfigLoader.load(
            path: Self.root.appendingPathComponent("configs/demo.toml").path, fonts: Self.fonts)
        #expect(config.display.width == 128 && config.display.height == 32 && config.display.fps == 60)
        #expect(config.layers.map(\.text) == ["Now Playing"])
        #expect(config.outputs == [.sharedMemory(name: "demo", mode: 0o640, group: nil)])
    }

    @Test("signd-matrix's config given to signd is named as such, in one problem")
    func matrixConfigGivenToSignd() throws {
        let path = Self.root.appendingPathComponent("configs/matrix.toml").path
        let source = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            problems(source) == [
                "t.toml:1: -: this is signd-matrix's config (output = \"...\" beside panel keys such as rows), not signd's: signd-matrix reads it (signd-matrix --config t.toml); signd's has [display], [[layer]] and [[output]] tables"
            ])
    }

    @Test("defaults: misc-fixed 6x10 with unifont and colour emoji fallbacks, 30 px/s, the seed's 2.6 % fade")
    func defaults() throws {
        let config = try ConfigLoader.parse("[[layer]]\ntext = \"x\"\n", file: "t.toml", fonts: nil)
        guard case .marquee(let layer) = config.layers[0] else {
            Issue.record("a layer with text and no type is a marquee")
            return
        }
        #expect(layer.id == "main")
        #expect(layer.font == FontSpec(name: "6x10", size: 10))
        #expect(layer.fallbacks == [.unifont, .emoji(size: 10)])
        #expect(layer.marquee == Marquee(speed: 30, gap: nil, fade: .fraction(0.026), scroll: .always, motion: .smooth))
        #expect(config.preview.terminal == .auto)
    }

    @Test("fade is pixels as a number and a fraction of the width as a percentage")
    func fade() throws {
        let px = try ConfigLoader.parse("[[layer]]\nfade = 12\n", file: "t", fonts: nil)
        let percent = try ConfigLoader.parse("[[layer]]\nfade = \"10%\"\n", file: "t", fonts: nil)
        guard case .marquee(let a) = px.layers[0], case .marquee(let b) = percent.layers[0] else {
            Issue.record("expected marquee layers")
            return
        }
        #expect(a.marquee.fade == .pixels(12))
        #expect(b.marquee.fade == .fraction(0.1))
    }

    @Test("a fade in quotes that is not a percentage is told both ways of writing it")
    func fadeAsString() {
        #expect(
            problems("[[layer]]\nfade = \"12\"\n") == [
                "t.toml:2: layer[0].fade: \"12\" is a string: write fade = 12 for pixels, or \"12%\" for a fraction of the width (0% to 50%)"
            ])
        #expect(
            problems("[[layer]]\nfade = \"wide\"\n") == [
                "t.toml:2: layer[0].fade: \"wide\" is neither pixels (a number) nor a percentage from \"0%\" to \"50%\""
            ])
    }

    @Test("check-config lists the problems in the order of the file, not of the keys' names")
    func problemsInFileOrder() {
        do {
            _ = try ConfigLoader.parse("zeta = 1\n[[layer]]\ntext = \"x\"\nspeed = \"fast\"\nalpha = 2\n", file: "t.toml", fonts: nil)
            Issue.record("the config has three problems")
        } catch {
            #expect(
                error.description.split(separator: "\n").map { $0.prefix(while: { $0 != " " }) } == [
                    "t.toml:1:", "t.toml:4:", "t.toml:5:",
                ])
        }
    }

    @Test("every problem is reported as file:line: key: message")
    func problemsNameFileLineAndKey() {
        let source = """
            [display]
            width = "wide"
            fps = 0

            [[layer]]
            text = "a"

            [[layer]]
            id = "main"
            color = "purplish"
            speed = -1
            scroll = "sometimes"
            colour = "#fff"

            [[output]]
            type = "hdmi"
            """
        #expect(
            problems(source) == [
                "t.toml:2: display.width: expected an integer, found string",
                "t.toml:3: display.fps: 0.0 is out of range 1.0...1000.0",
                "t.toml:13: layer[1].colour: unknown key (did you mean \"color\"?) (expected one of: animation, antialias, color, direction, fade, fallback_fonts, font, font_features, font_size, gap, height, id, mode, motion, pause, scroll, scroll_direction, speed, text, transition, transition_duration, transition_timing, type, width, x, y)",
                "t.toml:9: layer[1].id: another layer already has id \"main\"",
                "t.toml:10: layer[1].color: \"purplish\" is not a colour (use #rrggbb, #rrggbbaa or a name such as amber)",
                "t.toml:11: layer[1].speed: -1.0 is out of range 0.0...10000.0",
                "t.toml:12: layer[1].scroll: \"sometimes\" is not one of \"always\", \"overflow\"",
                "t.toml:16: output[0].type: \"hdmi\" is not a known output type (\"shm\", \"fadecandy\", \"framework\", \"bulk\", \"ddp\", \"e131\", \"artnet\", \"opc\", \"flaschen-taschen\", \"colorlight\", \"serial\", \"dmx-usb-pro\", \"spi\")",
            ])
    }

    @Test(
        "display.brightness, display.timezone and [[brightness]] entries are read, and each mistake named at its line")
    func brightnessSchedule() throws {
        let good = try ConfigLoader.parse(
            """
            [display]
            brightness = 0.6
            timezone = "Europe/Berlin"
            [[layer]]
            text = "a"
            [[brightness]]
            at = "22:00"
            value = 0.2
            fade = 600
            [[brightness]]
            at = "07:00:30"
            value = 1
            """, file: "t.toml", fonts: nil)
        #expect(good.display.brightness == 0.6 && good.display.timeZone == "Europe/Berlin")
        #expect(
            good.brightnessSchedule == [
                .init(at: 22 * 3600, value: 0.2, fade: 600), .init(at: 7 * 3600 + 30, value: 1, fade: 0),
            ])
        let bad = """
            [display]
            brightness = 2
            timezone = "Mars/Olympus"
            [[layer]]
            text = "a"
            [[brightness]]
            at = "25:00"
            value = 0.5
            [[brightness]]
            at = "06:00"
            [[brightness]]
            value = -1
            fade = 1e9
            when = "later"
            """
        #expect(
            problems(bad) == [
                "t.toml:2: display.brightness: 2.0 is out of range 0.0...1.0",
                "t.toml:3: display.timezone: not a time zone this system knows (an IANA name such as \"Europe/Berlin\")",
                "t.toml:7: brightness[0].at: not a time of day (\"HH:MM\", 00:00 to 23:59)",
                "t.toml:9: brightness[1].value: missing: the brightness, 0 to 1",
                "t.toml:14: brightness[2].when: unknown key (expected one of: at, fade, value)",
                "t.toml:11: brightness[2].at: missing: the time of day, \"HH:MM\"",
                "t.toml:12: brightness[2].value: -1.0 is out of range 0.0...1.0",
                "t.toml:13: brightness[2].fade: 1000000000.0 is out of range 0.0...86400.0",
            ])
    }

    @Test("a TOML syntax error names its line")
    func syntaxError() {
        let found = problems("[display]\nwidth = 12\nheight = = 3\n")
        #expect(found.count == 1 && found[0].hasPrefix("t.toml:3: -: TOML syntax"))
    }

    @Test("a font that cannot be opened is a problem at the font key")
    func missingFont() {
        let found = problems("[[layer]]\nfont = \"/no/such/font.otf\"\n", fonts: Self.fonts)
        #expect(
            found == ["t.toml:2: layer[0].font: open failed for /no/such/font.otf: No such file or directory"])
    }

    @Test("a misc-fixed name that is not installed is told as a name, with the nearest one that is")
    func misspeltFontName() {
        #expect(
            problems("[[layer]]\nfont = \"9x18BB\"\nfallback_fonts = [\"unifont\"]\n", fonts: Self.fonts) == [
                "t.toml:2: layer[0].font: no font named \"9x18BB\" (no /usr/share/fonts/X11/misc/9x18BB.pcf.gz) (did you mean \"9x18B\"?); name a misc-fixed face such as 6x10 or 9x18B, \"unifont\", or a font file's path"
            ])
    }

    @Test("a FIFO or a device named as a font is refused at once, never opened and waited on")
    func fontNotARegularFile() {
        let fifo = "/tmp/signd-font-fifo-\(getpid()).ttf"
        mkfifo(fifo, 0o600)
        defer { unlink(fifo) }
        for path in [fifo, "/dev/zero"] {
            #expect(
                problems("[[layer]]\nfont = \"\(path)\"\n", fonts: Self.fonts) == [
                    "t.toml:2: layer[0].font: open failed for \(path): not a regular file"
                ])
        }
    }

    @Test("a config with no layer is refused")
    func noLayer() {
        #expect(
            problems("[display]\nwidth = 64\n") == [
                "t.toml:1: layer: no [[layer]]: a sign needs at least one text layer"
            ])
    }

    @Test("an unreadable file is reported, not crashed on")
    func unreadable() {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: "/no/such/signd.toml", fonts: Self.fonts) }
    }

    @Test("every example config is valid")
    func examples() throws {
        let dir = Self.root.appendingPathComponent("configs/examples").path
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".toml") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(throws: Never.self, "\(file)") { try ConfigLoader.load(path: "\(dir)/\(file)", fonts: Self.fonts) }
        }
    }

    @Test("a layer's animations are read with their key path, values and timing")
    func animationsRead() throws {
        let source = """
            [[layer]]
            id = "shine"
            type = "gradient"
            colors = ["gray", "white", "gray"]
            locations = [0.25, 0.5, 0.75]
            start_point = [0, 0.5]
            end_point = [1, 0.5]
            [[layer.animation]]
            key_path = "locations"
            from = [0, 0, 0.25]
            to = [0.75, 1, 1]
            duration = 1.7
            repeat_count = "infinity"
            timing_function = "ease-in-out"
            fill_mode = "both"
            """
        let config = try ConfigLoader.parse(source, file: "t.toml", fonts: nil)
        guard case .layer(let layer) = config.layers[0], case .property(let a) = layer.animations.first else {
            Issue.record("expected a gradient layer with a property animation")
            return
        }
        #expect(a.keyPath == .locations)
        #expect(a.timing == MediaTiming(duration: 1.7, repeatCount: .infinity, fillMode: .both))
        #expect(a.timingFunction == .easeInEaseOut)
        #expect(a.motion == .basic(BasicValues(from: .numbers([0, 0, 0.25]), to: .numbers([0.75, 1, 1]))))
    }

    @Test("animation problems name the line and key")
    func animationProblems() {
        let source = """
            [[layer]]
            type = "plain"
            [[layer.animation]]
            key_path = "wobble"
            [[layer.animation]]
            key_path = "opacity"
            from = "half"
            timing_function = "bouncy"
            [[layer.animation]]
            key_path = "position"
            values = [[0, 0], [1]]
            """
        #expect(
            problems(source) == [
                "t.toml:4: layer[0].animation[0].key_path: unknown key path \"wobble\" (one of: \(ConfigReader.valueKinds.keys.sorted().joined(separator: ", ")))",
                "t.toml:7: layer[0].animation[1].from: expected a number",
                "t.toml:8: layer[0].animation[1].timing_function: \"bouncy\" is not a timing function (a name such as easeInEaseOut or ease-in, \"x1,y1,x2,y2\", or steps(n))",
                "t.toml:11: layer[0].animation[2].values[1]: expected [x, y]",
            ])
    }

    @Test("an image that cannot be read is a config problem at its key")
    func missingImage() {
        let found = problems("[[layer]]\ntype = \"image\"\nimage = \"no-such.png\"\n")
        #expect(found.count == 1 && found[0].hasPrefix("t.toml:3: layer[0].image: cannot read the image:"))
    }

    @Test("playlists and schedules: each mistake is a problem at its key")
    func playlistProblems() {
        let found = problems(
            """
            [[layer]]
            text = "x"
            [[playlist]]
            name = "offers"
            layer = "nope"
            [[playlist.item]]
            text = "a"
            duration = 2
            loops = 2
            [[playlist.item]]
            duration = 2
            [[schedule]]
            days = ["weekdays"]
            from = "25:00"
            playlist = "missing"
            """)
        #expect(found.contains { $0.hasPrefix("t.toml:5: playlist[0].layer: no layer with this id shows text") })
        #expect(found.contains { $0.contains("playlist[0].item[0]: give duration or loops, not both") })
        #expect(found.contains { $0.contains("playlist[0].item[1]: an item shows a text or a scene") })
        #expect(found.contains { $0.hasPrefix("t.toml:13: schedule[0].days:") })
        #expect(found.contains { $0.hasPrefix("t.toml:14: schedule[0].from: not a time of day") })
        #expect(found.contains { $0.hasPrefix("t.toml:15: schedule[0].playlist: no [[playlist]] has this name") })
        #expect(found.count == 6, "\(found)")
        #expect(
            problems(
                "[[layer]]\ntext = \"x\"\n[[playlist]]\nname = \"p\"\n[[playlist.item]]\ntext = \"{time:%H:%M}\"\n[[schedule]]\ndays = [\"mon-fri\"]\nfrom = \"09:00\"\nto = \"18:00\"\nplaylist = \"p\"\n"
            ).isEmpty)
    }

    @Test("a malformed live field in a text is a problem at the text's line, without the text")
    func malformedField() {
        let found = problems("[[layer]]\ntext = \"left {countdown:soon}\"\n")
        #expect(found.count == 1 && found[0].hasPrefix("t.toml:2: layer[0].text: a {countdown:...} field needs"))
        #expect(!found[0].contains("soon"))
        #expect(problems("[[layer]]\ntext = \"{time:%H:%M} {var:temp}\"\n").isEmpty)
    }

    @Test("text naming an icon that is not in [icons] is a problem")
    func unknownIcon() {
        #expect(
            problems("[[layer]]\ntext = \"tea {icon:cup}\"\n") == [
                "t.toml:2: layer[0].text: no icon \"cup\" in [icons]"
            ])
    }

    @Test("USB outputs: the Fadecandy example's board, panel and correction")
    func fadecandyOutput() throws {
        let config = try ConfigLoader.load(
            path: Self.root.appendingPathComponent("configs/examples/fadecandy-32x16.toml").path, fonts: Self.fonts)
        guard case .usb(let board) = config.outputs.first else {
            Issue.record("the example's output is a USB output")
            return
        }
        #expect(board.name == "board" && board.device == .fadecandy(dithering: true, interpolation: true))
        #expect(board.correction.curve == .exponent(2.5) && board.correction.brightness == 0.6)
        #expect(board.correction.whitePoint == [1.0, 0.85, 0.7])
        #expect(board.panels.count == 1 && board.panels[0].serpentine && board.panels[0].width == 32)
    }

    @Test("USB output mistakes are named with their key and line")
    func usbProblems() {
        let found = problems(
            """
            [[layer]]
            text = "x"
            [[output]]
            type = "bulk"
            name = "panel"
            vid = 0x1209
            order = "RGBX"
            gamma = "srgb"
            header = "AA 5"
            [[output.panel]]
            width = 8
            height = 8
            rotate = 45
            [[output]]
            type = "fadecandy"
            name = "board"
            white_point = [1, 2]
            pixel_order = "GRB"
            """)
        #expect(found.contains { $0.hasPrefix("t.toml:3: output[0]: a bulk output needs vid and pid") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("t.toml:8: output[0].gamma: expected an exponent") })
        #expect(found.contains { $0.hasPrefix("t.toml:17: output[1].white_point: expected three gains") })
        #expect(found.contains { $0.hasPrefix("t.toml:18: output[1].pixel_order: unknown key") })
    }

    @Test("a misspelt key path is a config error with a hint, never an animation that does nothing")
    func keyPathTypo() {
        let source = """
            [[layer]]
            text = "Hi"
            [[layer.animation]]
            key_path = "opactiy"
            from = 0
            to = 1
            """
        #expect(
            problems(source) == [
                "t.toml:4: layer[0].animation[0].key_path: unknown key path \"opactiy\" (did you mean \"opacity\"?) (one of: \(ConfigReader.valueKinds.keys.sorted().joined(separator: ", ")))"
            ])
    }

    @Test("a key in the wrong case is hinted at its right spelling, as any other typo is")
    func keyInWrongCase() {
        let found = problems("[display]\nWidth = 64\n[[layer]]\ntext = \"Hi\"\nSPEED = 10\n")
        #expect(found.count == 2)
        #expect(found.contains { $0.hasPrefix("t.toml:2: display.Width: unknown key (did you mean \"width\"?)") })
        #expect(found.contains { $0.hasPrefix("t.toml:5: layer[0].SPEED: unknown key (did you mean \"speed\"?)") })
    }

    @Test("a misspelt timing function is hinted at the name it is nearest")
    func timingFunctionTypo() {
        let source = """
            [[layer]]
            type = "plain"
            [[layer.animation]]
            key_path = "opacity"
            timing_function = "easein"
            """
        #expect(
            problems(source) == [
                "t.toml:5: layer[0].animation[0].timing_function: \"easein\" is not a timing function (did you mean \"easeIn\"?) (a name such as easeInEaseOut or ease-in, \"x1,y1,x2,y2\", or steps(n))"
            ])
    }

    @Test(
        "animation values that are not finite, or beyond the limit, are config problems",
        arguments: ["nan", "inf", "-inf", "1e308"])
    func nonFiniteAnimationValues(value: String) {
        let source = """
            [[layer]]
            type = "plain"
            [[layer.animation]]
            key_path = "position"
            from = [0, \(value)]
            to = [1, 1]
            [[layer.animation]]
            key_path = "opacity"
            values = [0, \(value)]
            """
        #expect(
            problems(source) == [
                "t.toml:5: layer[0].animation[0].from: numbers must be finite, from -1000000 to 1000000",
                "t.toml:9: layer[0].animation[1].values[1]: must be a finite number from -1000000 to 1000000",
            ])
    }
}

@Suite("ConfigLoader [web]")
struct WebConfigTests {
    func load(_ web: String) throws(ConfigError) -> DaemonConfig {
        try ConfigLoader.parse("[[layer]]\ntext = \"x\"\n[web]\n" + web, file: "/etc/signd/signd.toml", fonts: nil)
    }

    func problems(_ web: String) -> [String] {
        do {
            _ = try load(web)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("listen on a loopback address needs no token; IPv6 in brackets; a token file relative to the config")
    func accepted() throws {
        #expect(try load("listen = \"127.0.0.1:8080\"").web == DaemonConfig.Web(host: "127.0.0.1", port: 8080))
        #expect(try load("listen = \"[::1]:9000\"").web == DaemonConfig.Web(host: "::1", port: 9000))
        let lan = try load("listen = \"0.0.0.0:80\"\ntoken_file = \"web.token\"").web
        #expect(lan == DaemonConfig.Web(host: "0.0.0.0", port: 80, tokenFile: "/etc/signd/web.token"))
        #expect(lan?.listen == "0.0.0.0:80")
        #expect(try load("listen = \"[::]:80\"\ntoken_file = \"/run/t\"").web?.listen == "[::]:80")
    }

    @Test("a non-loopback listen without a token file is refused, naming the key and why")
    func lanNeedsToken() {
        for listen in ["0.0.0.0:8080", "192.168.1.20:80", "[::]:8080"] {
            let found = problems("listen = \"\(listen)\"")
            #expect(found.count == 1)
            #expect(found.first?.contains("web.token_file: required when web.listen is not a loopback address") == true)
        }
    }

    @Test("a listen that is not a numeric address and port is a problem, with an example")
    func badListen() {
        for listen in [
            "localhost:8080", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", ":8080", "::1:8080", "[::1]8080",
            "sign.local:80",
        ] {
            let found = problems("listen = \"\(listen)\"")
            #expect(found.first?.contains("web.listen: not a numeric address and port") == true, "\(listen)")
        }
        #expect(problems("token_file = \"t\"").first?.contains("web.listen: missing") == true)
        #expect(problems("listen = \"127.0.0.1:1\"\nport = 8").first?.contains("web.port") == true)
    }
}

@Suite("ConfigLoader [mqtt]")
struct MQTTConfigTests {
    func load(_ mqtt: String) throws(ConfigError) -> DaemonConfig {
        try ConfigLoader.parse("[[layer]]\ntext = \"x\"\n[mqtt]\n" + mqtt, file: "/etc/signd/signd.toml", fonts: nil)
    }

    func problems(_ mqtt: String) -> [String] {
        do {
            _ = try load(mqtt)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("a broker URL with default ports; the topic defaults to signd/<node_id>; files relative to the config")
    func accepted() throws {
        let plain = try load("url = \"mqtt://broker.local\"\nnode_id = \"window-left\"").mqtt
        #expect(plain?.host == "broker.local" && plain?.port == 1883 && plain?.tls == false)
        #expect(plain?.topic == "signd/window-left")
        let tls = try load(
            "url = \"mqtts://[fd00::5]\"\nnode_id = \"a\"\nusername = \"sign\"\npassword_file = \"mqtt.pw\"\nca_file = \"/etc/ssl/ca.pem\"\ngroups = [\"storefront\", \"north_1\"]\ndiscovery = true\ntopic = \"shop/sign\""
        ).mqtt
        #expect(tls?.host == "fd00::5" && tls?.port == 8883 && tls?.tls == true)
        #expect(tls?.url == "mqtts://[fd00::5]:8883")
        #expect(tls?.passwordFile == "/etc/signd/mqtt.pw" && tls?.caFile == "/etc/ssl/ca.pem")
        #expect(tls?.groups == ["storefront", "north_1"] && tls?.discovery == true && tls?.topic == "shop/sign")
        #expect(DaemonConfig.MQTT.isName(DaemonConfig.MQTT.defaultNodeID))
    }

    @Test(
        "problems name the key: a URL with credentials or another scheme, names, wildcard topics, half a client certificate"
    )
    func refused() {
        let cases: [(String, String)] = [
            ("url = \"mqtt://user:pw@broker\"", "mqtt.url: not a broker URL"),
            ("url = \"http://broker\"", "mqtt.url: not a broker URL"),
            ("url = \"mqtt://broker:0\"", "mqtt.url: not a broker URL"),
            ("url = \"mqtt://b\"\nnode_id = \"Window Left\"", "mqtt.node_id: 1 to 64 of a-z"),
            ("url = \"mqtt://b\"\ntopic = \"signd/#\"", "mqtt.topic: a topic prefix without wildcards"),
            ("url = \"mqtt://b\"\ngroups = [\"Shop\"]", "mqtt.groups: expected an array of group names"),
            ("url = \"mqtt://b\"\npassword_file = \"p\"", "mqtt.password_file: a password needs a username"),
            ("url = \"mqtts://b\"\ncert_file = \"c.pem\"", "mqtt.cert_file: a client certificate needs its key_file"),
            ("url = \"mqtt://b\"\nca_file = \"ca.pem\"", "mqtt.url: ca_file and cert_file are for TLS"),
            ("node_id = \"a\"", "mqtt.url: missing"),
            ("url = \"mqtt://b\"\npassword = \"x\"", "mqtt.password"),
        ]
        for (toml, expected) in cases {
            let found = problems(toml)
            #expect(found.contains { $0.contains(expected) }, "\(toml): \(found)")
        }
    }
}

@Suite("ConfigLoader names and control characters")
struct ConfigStringTests {
    func problems(_ source: String) -> [String] { configProblems(source, file: "/etc/signd/signd.toml") }

    @Test("a NUL written as \\u0000 is refused at its line and key, not cut there without a word")
    func nul() {
        let cases: [(String, String)] = [
            ("[[layer]]\ntext = \"x\"\n[mqtt]\nurl = \"mqtt://b\"\nnode_id = \"ab\\u0000+\"\n", ":5: mqtt.node_id:"),
            ("[[layer]]\ntext = \"x\"\n[mqtt]\nurl = \"mqtt://b\"\ngroups = [\"g\\u0000#\"]\n", ":5: mqtt.groups:"),
            ("[[layer]]\ntext = \"x\"\n[mqtt]\nurl = \"mqtt://b\"\ntopic = \"signd/t\\U00000000/#\"\n", ":5: mqtt.topic:"),
            ("[control]\nsocket = \"/run/s\\u0000x\"\n[[layer]]\ntext = \"x\"\n", ":2: control.socket:"),
            ("[[layer]]\ntext = \"shown\\u0000hidden\"\n", ":2: layer[0].text:"),
        ]
        for (toml, expected) in cases {
            let found = problems(toml)
            #expect(found.count == 1 && found[0].contains(expected) && found[0].contains("NUL"), "\(toml): \(found)")
        }
        #expect(problems("[[layer]]\ntext = \"a\\\\u0000\"\n").isEmpty, "an escaped backslash then u0000 is text")
    }

    @Test("control characters are refused in names, paths, topics and choices, and kept in free text")
    func controlCharacters() {
        let found = problems(
            "[control]\nsocket = \"/run/signd\\n.sock\"\n[[layer]]\nid = \"a\\u0007\"\ntext = \"tab\\there\"\n"
                + "[mqtt]\nurl = \"mqtt://b\"\ngroups = [\"ok\", \"g\\u001b\"]\n")
        #expect(found.contains { $0.contains(":2: control.socket:") && $0.contains("U+000A") }, "\(found)")
        #expect(found.contains { $0.contains(":4: layer[0].id:") && $0.contains("U+0007") }, "\(found)")
        #expect(found.contains { $0.contains("mqtt.groups[1]:") && $0.contains("U+001B") }, "\(found)")
        #expect(!found.contains { $0.contains("layer[0].text") }, "a tab in a text is shown as a space: \(found)")
        #expect(found.allSatisfy { !$0.contains("\n.sock") && !$0.contains("\u{1b}") }, "printed escaped, one a line")
    }

    @Test("a topic starting with $ is refused: brokers keep $SYS/... for themselves")
    func dollarTopic() {
        let found = problems("[[layer]]\ntext = \"x\"\n[mqtt]\nurl = \"mqtt://b\"\ntopic = \"$SYS/signd\"\n")
        #expect(found.count == 1 && found[0].contains(":5: mqtt.topic:") && found[0].contains("$SYS"), "\(found)")
    }
}

@Suite("ConfigLoader frame budget")
struct FrameBudgetTests {
    func problems(_ source: String) -> [String] { configProblems(source) }

    func board(_ width: Int, _ height: Int, fps: Int) -> String {
        "[display]\nwidth = \(width)\nheight = \(height)\nfps = \(fps)\n[[layer]]\ntext = \"x\"\n"
    }

    /// `count` plain layers at `fps`, each with `sublayers` sublayers and a mask when `masked`.
    func layers(_ count: Int, fps: Int, sublayers: Int = 0, masked: Bool = false) -> String {
        var toml = "[display]\nwidth = 128\nheight = 32\nfps = \(fps)\n"
        for _ in 0..<count {
            toml += "[[layer]]\ntype = \"plain\"\nwidth = 4\nheight = 4\n"
            if masked { toml += "[layer.mask]\ntype = \"plain\"\n" }
            toml += String(repeating: "[[layer.sublayer]]\ntype = \"plain\"\n", count: sublayers)
        }
        return toml
    }

    @Test("a board whose pixels a second pass what a frame clock renders and sends is refused, naming the fps that fits")
    func pixels() {
        let found = problems(board(4096, 4096, fps: 1000))
        #expect(
            found == [
                "t.toml:4: display.fps: a 4096x4096 board at 1000 fps is 16777 million pixels a second; a frame clock renders and sends at most 250 million (this board at 14 fps or fewer)"
            ], "\(found)")
        #expect(problems(board(4096, 4096, fps: 14)).isEmpty)
        #expect(problems(board(1920, 1080, fps: 120)).isEmpty)
        #expect(problems(board(128, 32, fps: 1000)).isEmpty, "a small board at the highest rate")
        #expect(problems(board(1920, 1080, fps: 121)).count == 1)
    }

    @Test("layers drawn a second, masks and sublayers counted, are bounded; the problem names the first layer past them")
    func layerCount() {
        #expect(problems(layers(4166, fps: 60)).isEmpty)
        let found = problems(layers(4167, fps: 60))
        #expect(found.count == 1 && found[0].contains("layer[4166]: 4167 layers"), "\(found)")
        #expect(found.first?.contains("at most 250000 (4166 layers at this rate)") == true)
        // 1,000 trees of three layers each (itself, a mask, a sublayer) at 100 fps: 300,000.
        let nested = problems(layers(1000, fps: 100, sublayers: 1, masked: true))
        #expect(nested.count == 1 && nested[0].contains("layer[833]: 3000 layers"), "\(nested)")
        #expect(problems(layers(1000, fps: 60, sublayers: 1, masked: true)).isEmpty)
    }
}

@Suite("ConfigLoader display.timeline")
struct TimelineConfigTests {
    func problems(_ display: String) -> [String] {
        do {
            _ = try ConfigLoader.parse("[display]\n\(display)\n[[layer]]\ntext = \"x\"\n", file: "t.toml", fonts: nil)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("realtime with an ISO 8601 epoch, or the Unix epoch by default; monotonic by default")
    func accepted() throws {
        func epoch(_ display: String) throws -> Double? {
            try ConfigLoader.parse("[display]\n\(display)\n[[layer]]\ntext = \"x\"\n", file: "t.toml", fonts: nil)
                .display.realtimeEpoch
        }
        #expect(try epoch("") == nil)
        #expect(try epoch("timeline = \"monotonic\"") == nil)
        #expect(try epoch("timeline = \"realtime\"") == 0)
        #expect(try epoch("timeline = \"realtime\"\nepoch = \"2026-01-01T00:00:00Z\"") == 1_767_225_600)
        #expect(try epoch("timeline = \"realtime\"\nepoch = \"2026-01-01T01:00:00+01:00\"") == 1_767_225_600)
    }

    @Test(
        "canvas and viewport: the board's window must fit the canvas; a viewport needs a canvas; the scene is the canvas"
    )
    func canvas() throws {
        let config = try ConfigLoader.parse(
            "[display]\nwidth = 128\nheight = 32\ncanvas = [256, 32]\nviewport = [128, 0]\n[[layer]]\ntext = \"x\"\n",
            file: "t.toml", fonts: nil)
        #expect(config.display.canvas == .init(256, 32) && config.display.viewport == .init(128, 0))
        #expect(config.scene.width == 256 && config.scene.height == 32)
        #expect(
            problems("width = 128\nheight = 32\ncanvas = [256, 32]\nviewport = [129, 0]").first?.contains(
                "display.viewport: the board's 128x32 window at [129, 0] does not fit the 256x32 canvas") == true)
        #expect(problems("viewport = [1, 0]").first?.contains("display.viewport: a viewport needs a canvas") == true)
        #expect(problems("canvas = [256]").first?.contains("display.canvas: expected two whole numbers") == true)
    }

    @Test(
        "a timeline that is neither, an epoch that is not an instant, or an epoch without realtime: problems naming the key"
    )
    func refused() {
        #expect(problems("timeline = \"wallclock\"").first?.contains("display.timeline: one of") == true)
        #expect(
            problems("timeline = \"realtime\"\nepoch = \"yesterday\"").first?.contains("display.epoch: not an ISO 8601")
                == true)
        #expect(
            problems("epoch = \"2026-01-01T00:00:00Z\"").first?.contains("display.epoch: only for timeline") == true)
    }
}
