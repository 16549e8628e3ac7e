import SignGraphics
import SignScene
import SignTiming

/// Reads layers that are not marquees: `type = "plain" | "text" | "gradient" | "shape"`
/// with their Core Animation properties, a `[...mask]`, `[[...sublayer]]`s and
/// `[[...animation]]`s, and the `shimmer` preset.
extension ConfigReader {
    static let layerTypes = [
        "marquee", "plain", "text", "gradient", "shape", "image", "shimmer", "spotlight", "stream",
        "emitter", "replicator",
    ]

    static let commonKeys: Set<String> = Set<String>([
        "id", "type", "x", "y", "width", "height", "opacity", "background", "corner_radius", "border_color",
        "border_width", "masks_to_bounds", "hidden", "motion", "mask", "sublayer", "animation",
    ]).union(timingKeys).union(transformLayerKeys).union(shadowKeys)
    /// A layer's own CAMediaTiming (`Layer.timing`).
    static let timingKeys: Set<String> = [
        "begin_time", "duration", "speed", "time_offset", "repeat_count", "repeat_duration", "autoreverses",
        "fill_mode",
    ]
    static let textKeys: Set<String> = [
        "text", "font", "font_size", "antialias", "fallback_fonts", "color", "align", "direction", "font_features",
    ]
    static let gradientKeys: Set<String> = ["colors", "locations", "start_point", "end_point", "gradient"]
    static let shapeKeys: Set<String> = Set(["path", "fill", "stroke", "stroke_colors", "line_width"])
        .union(pathShapeKeys)
    static let imageKeys: Set<String> = ["image", "scaling", "loop"]

    /// Deepest nesting of masks and sublayers under a top-level layer.
    static let maxLayerDepth = 16

    /// A layer of `type` in a parent of `parentSize` (the board, for a top-level layer),
    /// `depth` levels of masks and sublayers below the top.
    mutating func layer(
        _ t: ConfigTable, type: String, at path: String, parentSize: Size, fonts: FontLibrary?, depth: Int = 0
    ) -> Layer? {
        guard depth <= Self.maxLayerDepth else {
            problem(path, "masks and sublayers nest at most \(Self.maxLayerDepth) deep")
            return nil
        }
        if type == "shimmer" { return shimmer(t, at: path, parentSize: parentSize, fonts: fonts) }
        var allowed = Self.commonKeys
        switch type {
        case "text": allowed.formUnion(Self.textKeys)
        case "gradient": allowed.formUnion(Self.gradientKeys)
        case "shape": allowed.formUnion(Self.shapeKeys)
        case "image": allowed.formUnion(Self.imageKeys)
        case "stream": allowed.formUnion(Self.streamKeys)
        case "emitter": allowed.formUnion(Self.emitterKeys)
        case "replicator": allowed.formUnion(Self.replicatorKeys)
        default: break
        }
        rejectUnknownKeys(t, at: path, allowed: allowed)
        var layer = Layer(id: string(t, "id", at: path) ?? "", frame: frame(t, at: path, parentSize: parentSize))
        if let v = number(t, "opacity", at: path, in: 0...1) { layer.opacity = v }
        layer.backgroundColor = color(t, "background", at: path)
        if let v = number(t, "corner_radius", at: path, in: 0...10000) { layer.cornerRadius = v }
        layer.borderColor = color(t, "border_color", at: path)
        if let v = number(t, "border_width", at: path, in: 0...10000) { layer.borderWidth = v }
        if let v = bool(t, "masks_to_bounds", at: path) { layer.masksToBounds = v }
        if let v = bool(t, "hidden", at: path) { layer.isHidden = v }
        if let v: Marquee.Motion = choice(t, "motion", at: path) { layer.motion = v }
        layer.timing = layerTiming(t, at: path)
        readTransform(t, at: path, into: &layer)
        if type == "replicator" { layer.replicator = replicator(t, at: path) }
        switch type {
        case "text": layer.content = textContent(t, at: path, fonts: fonts).map { .text($0) } ?? .none
        case "gradient":
            layer.content = .gradient(
                gradient(t, at: path, default: Gradient(ramp: ColorRamp(colors: [.black, .white]))))
        case "shape": layer.content = shapeContent(t, at: path, size: layer.size, cornerRadius: layer.cornerRadius)
        case "image": layer.content = imageContent(t, at: path).map { .image($0) } ?? .none
        case "stream":
            layer.content =
                streamInput(t, at: path, id: layer.id, size: layer.size).map {
                    .stream(StreamContent(feed: $0.feed))
                } ?? .none
        case "emitter": layer.content = .emitter(emitterContent(t, at: path))
        default: break
        }
        if let mask = table(t, "mask", at: path) {
            let type = string(mask, "type", at: "\(path).mask") ?? "plain"
            layer.mask = self.layer(
                mask, type: type, at: "\(path).mask", parentSize: layer.size, fonts: fonts, depth: depth + 1)
        }
        layer.sublayers = tables(t, "sublayer", at: path).enumerated().compactMap { i, sub in
            let subPath = "\(path).sublayer[\(i)]"
            return self.layer(
                sub, type: string(sub, "type", at: subPath) ?? "plain", at: subPath, parentSize: layer.size,
                fonts: fonts, depth: depth + 1)
        }
        layer.animations = animations(t, at: path)
        checkPathAnimations(layer, at: path)
        readShadow(t, at: path, into: &layer)
        return layer
    }

    /// A layer's own CAMediaTiming. Its time runs without end unless it has a `duration`, so
    /// repeating, autoreversing or a repeat duration without one is a problem, not ignored.
    mutating func layerTiming(_ t: ConfigTable, at path: String) -> MediaTiming {
        let timing = mediaTiming(t, at: path)
        if timing.duration == 0 {
            for key in ["repeat_count", "repeat_duration", "autoreverses"] where t[key] != nil {
                problem(
                    "\(path).\(key)",
                    "a layer's time repeats only with a duration: set \"duration\" (seconds of one cycle) or remove \"\(key)\""
                )
            }
        }
        return timing
    }

    /// x, y, width, height; the parent's whole area by default.
    mutating func frame(_ t: ConfigTable, at path: String, parentSize: Size) -> Rect {
        let x = number(t, "x", at: path, in: -10000...10000) ?? 0, y = number(t, "y", at: path, in: -10000...10000) ?? 0
        let w = number(t, "width", at: path, in: 0...10000) ?? parentSize.width
        let h = number(t, "height", at: path, in: 0...10000) ?? parentSize.height
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// A text layer's text; `direction` is the text's own unless the layer type gives the key
    /// another meaning (a shimmer's sweep).
    mutating func textContent(_ t: ConfigTable, at path: String, fonts: FontLibrary?, readsDirection: Bool = true)
        -> TextContent?
    {
        let font = fontSpec(t, at: path, fonts: fonts)
        var content = TextContent(
            text: string(t, "text", at: path) ?? "", font: font.primary, fallbacks: font.fallbacks)
        if let v = color(t, "color", at: path) { content.color = v }
        if let v: TextContent.Alignment = choice(t, "align", at: path) { content.alignment = v }
        if readsDirection, let v: TextDirection = choice(t, "direction", at: path) { content.direction = v }
        content.features = fontFeatures(t, at: path)
        return content
    }

    /// `font_features = ["-liga", "tnum"]`: OpenType features in HarfBuzz's syntax, each one
    /// HarfBuzz cannot read named as a problem.
    mutating func fontFeatures(_ t: ConfigTable, at path: String) -> [FontFeature] {
        guard let value = t["font_features"] else { return [] }
        guard let items = value.array else {
            problem("\(path).font_features", "expected an array of OpenType features such as [\"-liga\", \"tnum\"]")
            return []
        }
        var features: [FontFeature] = []
        for item in items {
            guard let text = item.string, let feature = FontFeature(text) else {
                problem(
                    "\(path).font_features",
                    "\(item.string.map { "\"\($0)\"" } ?? "\(item.type)") is not an OpenType feature (HarfBuzz's syntax: "
                        + "\"liga\", \"-kern\", \"ss01=1\", \"tnum[2:5]\")")
                continue
            }
            features.append(feature)
        }
        return features
    }

    /// `font`, `font_size`, `antialias`, `fallback_fonts`, each face checked when `fonts` is given.
    mutating func fontSpec(_ t: ConfigTable, at path: String, fonts: FontLibrary?) -> (
        primary: FontSpec, fallbacks: [FontSpec]
    ) {
        let name = string(t, "font", at: path) ?? FontSpec.defaultFace.name
        let size = int(t, "font_size", at: path, in: 1...512) ?? ConfigLoader.defaultSize(forFont: name)
        let antialias = bool(t, "antialias", at: path) ?? true
        let primary = FontSpec(name: name, size: size, antialias: antialias)
        var fallbacks = FontSpec.defaultFallbacks(for: primary)
        if let value = t["fallback_fonts"] {
            if let names = value.array?.compactMap({ $0.string }), names.count == value.array?.count {
                fallbacks = names.map { FontSpec(name: $0, size: $0 == "unifont" ? 16 : size, antialias: antialias) }
            } else {
                problem("\(path).fallback_fonts", "expected an array of font names")
            }
        }
        if let fonts {
            for (key, spec) in [("font", primary)] + fallbacks.map({ ("fallback_fonts", $0) }) {
                if let message = fonts.configProblem(with: spec) { problem("\(path).\(key)", message) }
            }
        }
        return (primary, fallbacks)
    }

    mutating func gradient(_ t: ConfigTable, at path: String, default base: Gradient) -> Gradient {
        var g = base
        if let raw = t["colors"] {
            let colors = raw.array?.compactMap { $0.string.flatMap(Color.init(parsing:)) }
            if let colors, colors.count == raw.array?.count, !colors.isEmpty {
                g.ramp.colors = ColorList(colors)
            } else {
                problem("\(path).colors", "expected an array of colours such as [\"gray\", \"#ffffff\"]")
            }
        }
        if case .numbers(let v)? = value(t, "locations", .numbers, at: path) {
            if v.count == g.ramp.colors.count {
                g.ramp.locations = v
            } else {
                problem("\(path).locations", "expected \(g.ramp.colors.count) locations, one per colour")
            }
        }
        if case .point(let p)? = value(t, "start_point", .point, at: path) { g.startPoint = p }
        if case .point(let p)? = value(t, "end_point", .point, at: path) { g.endPoint = p }
        if let kind: Gradient.Kind = choice(t, "gradient", at: path) { g.kind = kind }
        return g
    }

    mutating func shapeContent(_ t: ConfigTable, at path: String, size: Size, cornerRadius: Double) -> Layer.Content {
        var shape = ShapeContent(path: RoundedRect(rect: Rect(origin: .zero, size: size), cornerRadius: cornerRadius))
        switch value(t, "path", .path, at: path) {
        case .path(let p)?: shape.path = p
        case .pathData(let p)?: shape.pathData = p
        default: break
        }
        shape.fill = color(t, "fill", at: path).map { .color($0) }
        shape.stroke = color(t, "stroke", at: path).map { .color($0) }
        pathShape(t, at: path, into: &shape)
        if let raw = t["stroke_colors"] {
            let colors = raw.array?.compactMap { $0.string.flatMap(Color.init(parsing:)) }
            if let colors, colors.count == raw.array?.count, colors.count >= 2 {
                shape.stroke = .gradient(
                    Gradient(
                        ramp: ColorRamp(colors: colors), startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1)))
            } else {
                problem("\(path).stroke_colors", "expected two or more colours for a gradient stroke")
            }
        }
        if let v = number(t, "line_width", at: path, in: 0...1000) { shape.lineWidth = v }
        return .shape(shape)
    }

    /// `image` (a PNG, GIF or WebP, relative to the config file), `scaling` and `loop`; the
    /// file is decoded now, every frame, so a missing, broken or oversized image is a config
    /// problem, never a failure in a frame.
    /// (`options` false: an `[icons]` entry, whose table holds only its file.)
    mutating func imageContent(_ t: ConfigTable, key: String = "image", at path: String, options: Bool = true)
        -> ImageContent?
    {
        guard let name = string(t, key, at: path) else {
            problem("\(path).\(key)", "missing: the PNG, GIF or WebP file to show")
            return nil
        }
        let full = fromConfigDirectory(name)
        let scaling: ImageBitmap.Scaling = options ? choice(t, "scaling", at: path) ?? .linear : .linear
        let loop = options ? imageLoop(t, at: path) : .file
        do {
            return ImageContent(source: full, image: try ImageFile.read(full), scaling: scaling, loop: loop)
        } catch {
            problem("\(path).\(key)", "cannot read the image: \(error.message) (\(full))")
            return nil
        }
    }

    /// Most plays `loop` may ask for.
    static let maxLoop = 1_000_000

    /// `loop`: how often an animated image's frames play: `"file"` (as the file says, the
    /// default), `"forever"`, or a number of plays.
    mutating func imageLoop(_ t: ConfigTable, at path: String) -> ImageLoop {
        guard let value = t["loop"] else { return .file }
        if let n = value.int {
            guard (1...Self.maxLoop).contains(n) else {
                problem("\(path).loop", "\(n) is out of range 1...\(Self.maxLoop) (or \"forever\", \"file\")")
                return .file
            }
            return .times(n)
        }
        switch value.string {
        case "file": return .file
        case "forever": return .forever
        default:
            problem("\(path).loop", "expected \"file\", \"forever\" or a number of plays")
            return .file
        }
    }

    static let spotlightKeys: Set<String> = [
        "id", "type", "zone", "selected", "dim", "border_colors", "border_width", "corner_radius", "duration",
        "timing_function",
    ]

    /// The spotlight effect: `[[layer.zone]]` tables (name, x, y, width, height), the zone
    /// lit first, the dimming, the border and the move between zones.
    mutating func spotlight(_ t: ConfigTable, at path: String, id: String) -> Spotlight? {
        rejectUnknownKeys(t, at: path, allowed: Self.spotlightKeys)
        var zones: [Spotlight.Zone] = []
        for (i, z) in tables(t, "zone", at: path).enumerated() {
            let zonePath = "\(path).zone[\(i)]"
            rejectUnknownKeys(z, at: zonePath, allowed: ["name", "x", "y", "width", "height"])
            let rect = frame(z, at: zonePath, parentSize: .zero)
            if rect.width <= 0 || rect.height <= 0 { problem(zonePath, "a zone needs a width and a height") }
            zones.append(Spotlight.Zone(name: string(z, "name", at: zonePath), rect: rect))
        }
        guard (1...3).contains(zones.count) else {
            problem("\(path).zone", "a spotlight needs one to three [[layer.zone]] tables, found \(zones.count)")
            return nil
        }
        var spotlight = Spotlight(id: id, zones: zones)
        if let name = t["selected"].flatMap({ $0.string ?? $0.int.map(String.init) }) {
            if let index = spotlight.zoneIndex(named: name) {
                spotlight.selected = index
            } else {
                problem("\(path).selected", "no zone \"\(name)\"")
            }
        }
        if let v = number(t, "dim", at: path, in: 0...1) { spotlight.dim = v }
        if let raw = t["border_colors"] {
            let colors = raw.array?.compactMap { $0.string.flatMap(Color.init(parsing:)) }
            if let colors, colors.count == raw.array?.count, !colors.isEmpty {
                spotlight.borderColors = colors
            } else {
                problem("\(path).border_colors", "expected an array of colours")
            }
        }
        if let v = number(t, "border_width", at: path, in: 0...100) { spotlight.borderWidth = v }
        if let v = number(t, "corner_radius", at: path, in: 0...1000) { spotlight.cornerRadius = v }
        if let v = number(t, "duration", at: path, in: 0...60) { spotlight.duration = v }
        if let f = timingFunction(t, "timing_function", at: path) { spotlight.timingFunction = f }
        return spotlight
    }

    static let shimmerKeys: Set<String> = [
        "id", "type", "x", "y", "width", "height", "text", "font", "font_size", "antialias", "fallback_fonts", "align",
        "colors", "locations", "from", "to", "duration", "timing_function", "direction", "band", "pause",
        "font_features",
    ]

    /// The shimmer preset: a gradient masked by text whose `locations` sweep across it (the
    /// seed: gray / white / gray at [0.25, 0.5, 0.75], from [0, 0, 0.25] to [0.75, 1, 1]
    /// over 1.7 s, forever).
    mutating func shimmer(_ t: ConfigTable, at path: String, parentSize: Size, fonts: FontLibrary?) -> Layer? {
        rejectUnknownKeys(t, at: path, allowed: Self.shimmerKeys)
        let frame = frame(t, at: path, parentSize: parentSize)
        let direction = string(t, "direction", at: path) ?? "right"
        let axis: (Point, Point)
        switch direction {
        case "right": axis = (Point(x: 0, y: 0.5), Point(x: 1, y: 0.5))
        case "left": axis = (Point(x: 1, y: 0.5), Point(x: 0, y: 0.5))
        case "down": axis = (Point(x: 0.5, y: 0), Point(x: 0.5, y: 1))
        case "up": axis = (Point(x: 0.5, y: 1), Point(x: 0.5, y: 0))
        default:
            problem("\(path).direction", "\"\(direction)\" is not one of \"right\", \"left\", \"up\", \"down\"")
            axis = (Point(x: 0, y: 0.5), Point(x: 1, y: 0.5))
        }
        // The band: from the bright stop to each gray stop, as a fraction of the width.
        let band = number(t, "band", at: path, in: 0.01...0.5) ?? 0.25
        let pause = number(t, "pause", at: path, in: 0...3600) ?? 0
        let gray = Color(red: 128, green: 128, blue: 128)
        let seed = Gradient(
            ramp: ColorRamp(colors: [gray, .white, gray], locations: [0.5 - band, 0.5, 0.5 + band]), startPoint: axis.0,
            endPoint: axis.1)
        var layer = Layer(
            id: string(t, "id", at: path) ?? "", content: .gradient(gradient(t, at: path, default: seed)), frame: frame)
        var text = textContent(t, at: path, fonts: fonts, readsDirection: false) ?? TextContent(text: "")
        if t["align"] == nil { text.alignment = .center }
        layer.mask = Layer(content: .text(text), frame: Rect(origin: .zero, size: frame.size))
        // Without a pause, the seed's sweep: the bright stop from one edge to the other. With
        // one, the band comes in from beyond one edge and leaves beyond the other, so nothing
        // shows while it waits.
        let defaultFrom: [Double] = pause > 0 ? [-2 * band, -band, 0] : [0, 0, band]
        let defaultTo: [Double] = pause > 0 ? [1, 1 + band, 1 + 2 * band] : [1 - band, 1, 1]
        let from = value(t, "from", .numbers, at: path) ?? .numbers(NumberList(defaultFrom))
        let to = value(t, "to", .numbers, at: path) ?? .numbers(NumberList(defaultTo))
        let duration = number(t, "duration", at: path, in: 0.01...3600) ?? 1.7
        let function = timingFunction(t, "timing_function", at: path)
        if pause > 0 {
            let sweep = LayerPropertyAnimation(
                keyPath: .locations, motion: .basic(BasicValues(from: from, to: to)),
                timing: MediaTiming(duration: duration, fillMode: .both), timingFunction: function)
            layer.animations = [
                .group(
                    AnimationGroup(
                        timing: MediaTiming(duration: duration + pause, repeatCount: .infinity),
                        animations: [.property(sweep)]))
            ]
        } else {
            layer.animations = [
                .property(
                    PropertyAnimation(
                        keyPath: .locations, motion: .basic(BasicValues(from: from, to: to)),
                        timing: MediaTiming(duration: duration, repeatCount: .infinity), timingFunction: function))
            ]
        }
        return layer
    }
}
