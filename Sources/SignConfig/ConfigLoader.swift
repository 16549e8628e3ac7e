import Foundation
import SignControl
import SignGraphics
import SignMatrix
import SignScene

/// Turns a TOML config file into a `DaemonConfig`, or into every problem found in it,
/// each as `FILE:LINE: key.path: message`.
public enum ConfigLoader {
    /// Reads and checks the file at `path`, fonts included.
    public static func load(path: String, fonts: FontLibrary, parser: ConfigParser.Mode = .here)
        throws(ConfigError) -> DaemonConfig
    {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: TOMLGuard.maxFileSize)
        } catch {
            throw ConfigError(problems: [
                ConfigProblem(file: path, line: 0, key: "-", message: "cannot read the file: \(error.message)")
            ])
        }
        guard let source = String(bytes: bytes, encoding: .utf8) else {
            throw ConfigError(problems: [ConfigProblem(file: path, line: 0, key: "-", message: "the file is not UTF-8")]
            )
        }
        return try parse(source, file: path, fonts: fonts, parser: parser)
    }

    /// Checks `source` (named `file` in problems); with `fonts`, also that every font opens.
    public static func parse(_ source: String, file: String, fonts: FontLibrary?, parser: ConfigParser.Mode = .here)
        throws(ConfigError) -> DaemonConfig
    {
        let root: ConfigTable
        do {
            root = try ConfigParser.parse(source, mode: parser)
        } catch {
            throw ConfigError(problems: [
                ConfigProblem(file: file, line: error.line, key: error.key ?? "-", message: error.message)
            ])
        }
        // signd-matrix's config lives beside signd's in /etc/signd: said as such, rather than
        // as a dozen unknown keys and a missing [[layer]].
        if root["output"]?.string != nil, root["layer"] == nil, root["display"] == nil,
            root.keys.contains(where: { key in MatrixOptions.keys.contains { $0.name == key } })
        {
            throw ConfigError(problems: [
                ConfigProblem(
                    file: file, line: 1, key: "-",
                    message:
                        "this is signd-matrix's config (output = \"...\" beside panel keys such as rows), not signd's: signd-matrix reads it (signd-matrix --config \(file)); signd's has [display], [[layer]] and [[output]] tables"
                )
            ])
        }
        let (config, reader) = read(root, source: source, file: file, fonts: fonts)
        if !reader.problems.isEmpty { throw ConfigError(problems: reader.problems) }
        return config
    }

    /// The keys each kind of table in `source` takes, as the reader knows them (problems
    /// aside): what signd.toml(5) documents.
    static func knownKeys(in source: String) -> [String: Set<String>] {
        guard let root = try? ConfigParser.parse(source, mode: .here) else { return [:] }
        return read(root, source: source, file: "-", fonts: nil).1.knownKeys
    }

    /// Reads a parsed document into a config, with the reader that holds its problems.
    private static func read(_ root: ConfigTable, source: String, file: String, fonts: FontLibrary?) -> (
        DaemonConfig, ConfigReader
    ) {
        var reader = ConfigReader(file: file, keyLines: TOMLKeyLines(source: source))
        var config = DaemonConfig()
        reader.rejectUnknownKeys(
            root, at: "",
            allowed: [
                "display", "control", "layer", "output", "preview", "state", "icons", "brightness", "playlist",
                "schedule", "web", "mqtt",
            ])
        reader.refuseControlCharacters(in: root, at: "")
        readDisplay(root, into: &config, &reader)
        readControl(root, into: &config, &reader)
        readPreview(root, into: &config, &reader)
        readWeb(root, into: &config, &reader)
        readMQTT(root, into: &config, &reader)
        readState(root, into: &config, &reader)
        readIcons(root, into: &config, &reader)
        readBrightness(root, into: &config, &reader)
        readLayers(root, into: &config, &reader, fonts: fonts)
        readOutputs(root, into: &config, &reader)
        readPlaylists(root, into: &config, &reader)
        readSchedule(root, into: &config, &reader)
        config.streams = reader.streams
        reader.checkFrameBudget(config)
        for (i, layer) in config.layers.enumerated() {
            for name in RichText.iconNames(in: layer.text ?? "") where config.icons[name] == nil {
                reader.problem("layer[\(i)].text", "no icon \"\(name)\" in [icons]")
            }
            for problem in LiveFields.problems(in: layer.text ?? "") {
                reader.problem("layer[\(i)].text", problem.description)
            }
        }
        return (config, reader)
    }

    private static func readDisplay(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "display", at: "") else { return }
        r.rejectUnknownKeys(
            t, at: "display",
            allowed: [
                "width", "height", "fps", "background", "blank_on_stop", "brightness", "timezone", "timeline", "epoch",
                "canvas", "viewport",
            ])
        if let v = r.int(t, "width", at: "display", in: 1...4096) { config.display.width = v }
        if let v = r.int(t, "height", at: "display", in: 1...4096) { config.display.height = v }
        if let v = r.number(t, "fps", at: "display", in: 1...1000) { config.display.fps = v }
        if let v = r.color(t, "background", at: "display") { config.display.background = v }
        if let v = r.bool(t, "blank_on_stop", at: "display") { config.display.blankOnStop = v }
        if let v = r.number(t, "brightness", at: "display", in: 0...1) { config.display.brightness = v }
        func pair(_ key: String) -> DaemonConfig.Display.Size2? {
            guard let value = t[key] else { return nil }
            guard let items = value.array, items.count == 2, let a = items[0].int, let b = items[1].int,
                (0...4096).contains(a), (0...4096).contains(b)
            else {
                r.problem("display.\(key)", "expected two whole numbers from 0 to 4096, e.g. [256, 32]")
                return nil
            }
            return .init(a, b)
        }
        let canvas = pair("canvas"), viewport = pair("viewport")
        if let canvas {
            let origin = viewport ?? .init(0, 0)
            if origin.a + config.display.width > canvas.a || origin.b + config.display.height > canvas.b {
                r.problem(
                    "display.viewport",
                    "the board's \(config.display.width)x\(config.display.height) window at [\(origin.a), \(origin.b)] does not fit the \(canvas.a)x\(canvas.b) canvas"
                )
            } else {
                config.display.canvas = canvas
                config.display.viewport = origin
            }
        } else if viewport != nil {
            r.problem("display.viewport", "a viewport needs a canvas (display.canvas = [width, height])")
        }
        switch r.string(t, "timeline", at: "display") {
        case nil, "monotonic":
            if t["epoch"] != nil { r.problem("display.epoch", "only for timeline = \"realtime\"") }
        case "realtime":
            config.display.realtimeEpoch = 0
            if let epoch = r.string(t, "epoch", at: "display") {
                if let date = ISO8601DateFormatter().date(from: epoch) {
                    config.display.realtimeEpoch = date.timeIntervalSince1970
                } else {
                    r.problem(
                        "display.epoch", "not an ISO 8601 instant with its offset (e.g. \"2026-01-01T00:00:00Z\")")
                }
            }
        default:
            r.problem("display.timeline", "one of \"monotonic\" (default) or \"realtime\"")
        }
        if let v = r.string(t, "timezone", at: "display") {
            if TimeZone(identifier: v) != nil {
                config.display.timeZone = v
            } else {
                r.problem(
                    "display.timezone", "not a time zone this system knows (an IANA name such as \"Europe/Berlin\")")
            }
        }
    }

    /// `[[brightness]]`: `at = "HH:MM"`, `value` 0 to 1, `fade` seconds (default 0, a step).
    private static func readBrightness(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        for (i, t) in r.tables(root, "brightness", at: "").enumerated() {
            let path = "brightness[\(i)]"
            r.rejectUnknownKeys(t, at: path, allowed: ["at", "value", "fade"])
            let at = r.string(t, "at", at: path)
            let seconds = at.flatMap(ConfigReader.timeOfDay)
            if at == nil { r.problem(path + ".at", "missing: the time of day, \"HH:MM\"") }
            if at != nil, seconds == nil { r.problem(path + ".at", "not a time of day (\"HH:MM\", 00:00 to 23:59)") }
            let value = r.number(t, "value", at: path, in: 0...1)
            if t["value"] == nil { r.problem(path + ".value", "missing: the brightness, 0 to 1") }
            let fade = r.number(t, "fade", at: path, in: 0...86400) ?? 0
            if let seconds, let value {
                config.brightnessSchedule.append(BrightnessEntry(at: seconds, value: value, fade: fade))
            }
        }
    }

    /// `[[playlist]]` with its `[[playlist.item]]`s.
    private static func readPlaylists(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        for (i, t) in r.tables(root, "playlist", at: "").enumerated() {
            let path = "playlist[\(i)]"
            r.rejectUnknownKeys(t, at: path, allowed: ["name", "layer", "transition", "item"])
            guard let name = r.string(t, "name", at: path) else {
                r.problem(path + ".name", "missing: the playlist's name")
                continue
            }
            if config.playlists.contains(where: { $0.name == name }) {
                r.problem(path + ".name", "another playlist has this name")
            }
            let layer = r.string(t, "layer", at: path)
            if let layer, !config.layers.contains(where: { $0.id == layer && $0.text != nil }) {
                r.problem(path + ".layer", "no layer with this id shows text")
            } else if layer == nil, config.scene.mainLayerID == nil {
                r.problem(path + ".layer", "the config has no text layer to show the playlist on")
            }
            let transition: Transition.Kind? = r.choice(t, "transition", at: path)
            var items: [Playlist.Item] = []
            for (j, item) in r.tables(t, "item", at: path).enumerated() {
                let itemPath = "\(path).item[\(j)]"
                r.rejectUnknownKeys(item, at: itemPath, allowed: ["text", "scene", "duration", "loops"])
                let text = r.string(item, "text", at: itemPath)
                let scene = r.string(item, "scene", at: itemPath)
                let duration = r.number(item, "duration", at: itemPath, in: 0.1...86400)
                let loops = r.int(item, "loops", at: itemPath, in: 1...1000)
                if duration != nil, loops != nil {
                    r.problem(itemPath, "give duration or loops, not both")
                }
                switch (text, scene) {
                case (let text?, nil):
                    if text.unicodeScalars.count > Request.maxTextLength {
                        r.problem(itemPath + ".text", "longer than \(Request.maxTextLength) characters")
                    }
                    for problem in LiveFields.problems(in: text) { r.problem(itemPath + ".text", problem.description) }
                    for icon in RichText.iconNames(in: text) where config.icons[icon] == nil {
                        r.problem(itemPath + ".text", "no icon \"\(icon)\" in [icons]")
                    }
                    items.append(Playlist.Item(.text(text), duration: duration, loops: loops ?? 1))
                case (nil, let scene?):
                    items.append(
                        Playlist.Item(.scene(r.fromConfigDirectory(scene)), duration: duration ?? 10, loops: loops ?? 1)
                    )
                default:
                    r.problem(itemPath, "an item shows a text or a scene: give one of them")
                }
            }
            if items.isEmpty, !t.keys.contains("item") { r.problem(path + ".item", "missing: a playlist needs items") }
            config.playlists.append(Playlist(name: name, layer: layer, transition: transition, items: items))
        }
    }

    /// `[[schedule]]`: what is shown by day and time.
    private static func readSchedule(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        for (i, t) in r.tables(root, "schedule", at: "").enumerated() {
            let path = "schedule[\(i)]"
            r.rejectUnknownKeys(t, at: path, allowed: ["days", "from", "to", "playlist", "scene"])
            var days = Set(1...7)
            if let value = t["days"] {
                let words = value.array?.compactMap(\.string)
                if let words, words.count == value.array?.count, let d = ScheduleEntry.days(words), !d.isEmpty {
                    days = d
                } else {
                    r.problem(path + ".days", "expected an array of days of the week, e.g. [\"mon-fri\", \"sat\"]")
                }
            }
            func time(_ key: String) -> Int? {
                guard let text = r.string(t, key, at: path) else { return nil }
                guard let seconds = ConfigReader.timeOfDay(text) else {
                    r.problem(path + "." + key, "not a time of day (\"HH:MM\", 00:00 to 23:59)")
                    return nil
                }
                return seconds
            }
            let (from, to) = (time("from"), time("to"))
            let playlist = r.string(t, "playlist", at: path), scene = r.string(t, "scene", at: path)
            switch (playlist, scene) {
            case (let name?, nil):
                if !config.playlists.contains(where: { $0.name == name }) {
                    r.problem(path + ".playlist", "no [[playlist]] has this name")
                }
                config.schedule.append(ScheduleEntry(days: days, from: from, to: to, target: .playlist(name)))
            case (nil, let scene?):
                config.schedule.append(
                    ScheduleEntry(days: days, from: from, to: to, target: .scene(r.fromConfigDirectory(scene))))
            default:
                r.problem(path, "an entry shows a playlist or a scene: give one of them")
            }
        }
    }

    /// `[icons]`: name = "file.png" (a PNG, GIF or WebP, relative to the config file), shown
    /// by `{icon:name}`; an animated one plays as the file says.
    private static func readIcons(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "icons", at: "") else { return }
        for name in t.keys.sorted() {
            guard let content = r.imageContent(
                    ConfigTable([name: t[name]!]), key: name, at: "icons", options: false) else { continue }
            config.icons[name] = content.image
        }
    }

    private static func readState(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "state", at: "") else { return }
        r.rejectUnknownKeys(t, at: "state", allowed: ["directory"])
        config.state.directory = r.string(t, "directory", at: "state")
    }

    private static func readControl(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "control", at: "") else { return }
        r.rejectUnknownKeys(t, at: "control", allowed: ["socket", "mode", "group", "scene_dirs"])
        config.control.socket = r.string(t, "socket", at: "control")
        if let v = r.int(t, "mode", at: "control", in: 0...0o777) { config.control.mode = UInt32(v) }
        config.control.group = r.string(t, "group", at: "control")
        if let value = t["scene_dirs"] {
            guard let names = value.array?.compactMap({ $0.string }), names.count == value.array?.count else {
                r.problem("control.scene_dirs", "expected an array of directories")
                return
            }
            config.control.sceneDirs = names.map { r.fromConfigDirectory($0) }
        }
    }

    private static func readPreview(_ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader) {
        guard let t = r.table(root, "preview", at: "") else { return }
        r.rejectUnknownKeys(t, at: "preview", allowed: ["terminal", "fps"])
        if let b = t["terminal"]?.bool {
            config.preview.terminal = b ? .on : .off
        } else if let v: DaemonConfig.Preview.Mode = r.choice(t, "terminal", at: "preview") {
            config.preview.terminal = v
        }
        if let v = r.number(t, "fps", at: "preview", in: 1...120) { config.preview.fps = v }
    }

    static let layerKeys: Set<String> = [
        "id", "text", "font", "font_size", "antialias", "fallback_fonts", "color", "speed", "gap", "fade",
        "scroll", "motion", "x", "y", "width", "height", "type", "animation", "mode", "pause", "transition",
        "transition_duration", "transition_timing", "direction", "font_features", "scroll_direction",
    ]

    private static func readLayers(
        _ root: ConfigTable, into config: inout DaemonConfig, _ r: inout ConfigReader, fonts: FontLibrary?
    ) {
        let tables = r.tables(root, "layer", at: "")
        if tables.isEmpty && root["layer"] == nil {
            r.problem("layer", "no [[layer]]: a sign needs at least one text layer")
        }
        var ids = Set<String>()
        for (i, t) in tables.enumerated() {
            let path = "layer[\(i)]"
            let type = r.string(t, "type", at: path) ?? "marquee"
            guard ConfigReader.layerTypes.contains(type) else {
                r.problem(
                    "\(path).type",
                    "\"\(type)\" is not a layer type (\(ConfigReader.layerTypes.map { "\"\($0)\"" }.joined(separator: ", ")))"
                )
                continue
            }
            if type == "spotlight" {
                let id = r.string(t, "id", at: path) ?? (i == 0 ? "main" : "layer\(i)")
                if !ids.insert(id).inserted { r.problem("\(path).id", "another layer already has id \"\(id)\"") }
                if let spotlight = r.spotlight(t, at: path, id: id) { config.layers.append(.spotlight(spotlight)) }
                continue
            }
            if type != "marquee" {
                let board = Size(width: Double(config.display.width), height: Double(config.display.height))
                guard var layer = r.layer(t, type: type, at: path, parentSize: board, fonts: fonts) else { continue }
                if layer.id.isEmpty { layer.id = i == 0 ? "main" : "layer\(i)" }
                if !ids.insert(layer.id).inserted {
                    r.problem("\(path).id", "another layer already has id \"\(layer.id)\"")
                }
                config.layers.append(.layer(layer))
                continue
            }
            r.rejectUnknownKeys(t, at: path, allowed: layerKeys)
            let id = r.string(t, "id", at: path) ?? (i == 0 ? "main" : "layer\(i)")
            if id.isEmpty || !ids.insert(id).inserted {
                r.problem(
                    "\(path).id", id.isEmpty ? "a layer id cannot be empty" : "another layer already has id \"\(id)\"")
            }
            var layer = TextLayer(id: id, text: r.string(t, "text", at: path) ?? "")
            let fontName = r.string(t, "font", at: path) ?? FontSpec.defaultFace.name
            let size = r.int(t, "font_size", at: path, in: 1...512) ?? defaultSize(forFont: fontName)
            let antialias = r.bool(t, "antialias", at: path) ?? true
            layer.font = FontSpec(name: fontName, size: size, antialias: antialias)
            layer.fallbacks = FontSpec.defaultFallbacks(for: layer.font)
            if let value = t["fallback_fonts"] {
                if let names = value.array?.compactMap({ $0.string }), names.count == value.array?.count {
                    layer.fallbacks = names.map {
                        FontSpec(name: $0, size: $0 == "unifont" ? 16 : size, antialias: antialias)
                    }
                } else {
                    r.problem("\(path).fallback_fonts", "expected an array of font names")
                }
            }
            if let fonts {
                for (key, spec) in [("font", layer.font)] + layer.fallbacks.map({ ("fallback_fonts", $0) }) {
                    if let problem = fonts.configProblem(with: spec) { r.problem("\(path).\(key)", problem) }
                }
            }
            if let v = r.color(t, "color", at: path) { layer.color = v }
            if let v: TextDirection = r.choice(t, "direction", at: path) { layer.direction = v }
            layer.features = r.fontFeatures(t, at: path)
            if let v: Marquee.ScrollDirection = r.choice(t, "scroll_direction", at: path) {
                layer.marquee.scrollDirection = v
            }
            if let v = r.number(t, "speed", at: path, in: 0...10000) { layer.marquee.speed = v }
            if let v = r.int(t, "gap", at: path, in: 0...100_000) { layer.marquee.gap = v }
            if let v = readFade(t, path: path, &r) { layer.marquee.fade = v }
            if let v: Marquee.Scroll = r.choice(t, "scroll", at: path) { layer.marquee.scroll = v }
            if let v: Marquee.Motion = r.choice(t, "motion", at: path) { layer.marquee.motion = v }
            if let v: Marquee.Mode = r.choice(t, "mode", at: path) {
                layer.marquee.mode = v
                // MarqueeLabel holds a left-right label a moment at each end.
                if v == .leftRight && t["pause"] == nil { layer.marquee.pause = 1 }
            }
            if let v = r.number(t, "pause", at: path, in: 0...3600) { layer.marquee.pause = v }
            if let v: Transition.Kind = r.choice(t, "transition", at: path) { layer.transition.kind = v }
            if let v = r.number(t, "transition_duration", at: path, in: 0...60) { layer.transition.duration = v }
            if let f = r.timingFunction(t, "transition_timing", at: path) { layer.transition.timingFunction = f }
            let geometry = ["x", "y", "width", "height"].map { r.int(t, $0, at: path, in: -4096...4096) }
            if geometry.contains(where: { $0 != nil }) {
                let w = geometry[2] ?? config.display.width, h = geometry[3] ?? config.display.height
                if w <= 0 || h <= 0 {
                    r.problem("\(path).width", "a layer needs a positive width and height")
                } else {
                    layer.frame = PixelRect(x: geometry[0] ?? 0, y: geometry[1] ?? 0, width: w, height: h)
                }
            }
            layer.textAnimations = r.animations(t, at: path)
            config.layers.append(.marquee(layer))
        }
    }

    /// `fade = 12` is pixels; `fade = "10%"` is a fraction of the layer's width.
    private static func readFade(_ t: ConfigTable, path: String, _ r: inout ConfigReader) -> Marquee.Length? {
        guard let value = t["fade"] else { return nil }
        if let text = value.string {
            if text.hasSuffix("%"), let percent = Double(text.dropLast()), (0...50).contains(percent) {
                return .fraction(percent / 100)
            }
            // A number in quotes is most likely pixels written as a string: say both ways.
            r.problem(
                "\(path).fade",
                Double(text) != nil
                    ? "\"\(text)\" is a string: write fade = \(text) for pixels, or \"\(text)%\" for a fraction of the width (0% to 50%)"
                    : "\"\(text)\" is neither pixels (a number) nor a percentage from \"0%\" to \"50%\"")
            return nil
        }
        return r.number(t, "fade", at: path, in: 0...4096).map { .pixels($0) }
    }

    /// misc-fixed names carry their pixel height ("6x10" is 10 px); other faces default to 16.
    static func defaultSize(forFont name: String) -> Int {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        let parts = base.split(separator: "x")
        if parts.count == 2, Int(parts[0]) != nil, let h = Int(parts[1].prefix { $0.isNumber }) { return h }
        return 16
    }
}
