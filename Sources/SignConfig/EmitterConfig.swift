import SignGraphics
import SignScene

/// Reads `type = "emitter"` layers (`CAEmitterLayer`) and their `[[layer.emitter_cell]]`
/// tables (`CAEmitterCell`), Core Animation's names in TOML spelling. A cell's population
/// (how many of its particles can be alive at once) is bounded, and a layer's in all.
extension ConfigReader {
    static let emitterKeys: Set<String> = [
        "emitter_position", "emitter_z_position", "emitter_size", "emitter_shape", "emitter_mode", "render_mode",
        "birth_rate", "lifetime", "velocity", "scale", "spin", "seed", "emitter_cell",
    ]
    static let emitterCellKeys: Set<String> = [
        "name", "enabled", "contents", "shape", "shape_size", "birth_rate", "lifetime", "lifetime_range", "velocity",
        "velocity_range", "emission_longitude", "emission_latitude", "emission_range", "x_acceleration",
        "y_acceleration", "scale", "scale_range", "scale_speed", "spin", "spin_range", "color", "red_range",
        "green_range", "blue_range", "alpha_range", "red_speed", "green_speed", "blue_speed", "alpha_speed",
    ]
    /// Built-in particle shapes (`shape`), for cells without a PNG.
    static let particleShapes = ["circle", "square"]
    /// Largest rate, speed, size or acceleration a key takes: bounds the arithmetic, not
    /// the population (which `EmitterContent.maxCellPopulation` bounds).
    static let emitterLimit = 1e6

    /// The emitter of a layer at `path`.
    mutating func emitterContent(_ t: ConfigTable, at path: String) -> EmitterContent {
        var e = EmitterContent(cells: [])
        if let p = pair(t, "emitter_position", at: path) { e.position = Point(x: p.0, y: p.1) }
        if let v = number(t, "emitter_z_position", at: path, in: -10000...10000) { e.zPosition = v }
        if let p = pair(t, "emitter_size", at: path, in: 0...10000) { e.size = Size(width: p.0, height: p.1) }
        if let text = string(t, "emitter_shape", at: path) {
            if let shape = EmitterContent.Shape(rawValue: text) {
                e.shape = shape
            } else if text == "cuboid" || text == "sphere" {
                problem("\(path).emitter_shape", "\"\(text)\" needs depth, which a flat board has not (point, line, rectangle, circle)")
            } else {
                problem("\(path).emitter_shape", "\"\(text)\" is not one of \"point\", \"line\", \"rectangle\", \"circle\"")
            }
        }
        if let v: EmitterContent.Mode = choice(t, "emitter_mode", at: path) { e.mode = v }
        if let text = string(t, "render_mode", at: path) {
            if let mode = EmitterContent.RenderMode(rawValue: text) {
                e.renderMode = mode
            } else if text == "back_to_front" {
                problem("\(path).render_mode", "\"back_to_front\" sorts by depth, which a flat board has not (unordered, oldest_first, oldest_last, additive)")
            } else {
                problem("\(path).render_mode", "\"\(text)\" is not one of \"unordered\", \"oldest_first\", \"oldest_last\", \"additive\"")
            }
        }
        let limit = Self.emitterLimit
        if let v = number(t, "birth_rate", at: path, in: 0...limit) { e.birthRate = v }
        if let v = number(t, "lifetime", at: path, in: 0...limit) { e.lifetime = v }
        if let v = number(t, "velocity", at: path, in: -limit...limit) { e.velocity = v }
        if let v = number(t, "scale", at: path, in: -limit...limit) { e.scale = v }
        if let v = number(t, "spin", at: path, in: -limit...limit) { e.spin = v }
        if let v = int(t, "seed", at: path, in: 0...Int(UInt32.max)) { e.seed = UInt32(v) }
        let cells = tables(t, "emitter_cell", at: path)
        if cells.isEmpty {
            problem("\(path).emitter_cell", "an emitter needs at least one [[layer.emitter_cell]]")
        } else if cells.count > EmitterContent.maxCells {
            problem("\(path).emitter_cell", "\(cells.count) cells: an emitter holds at most \(EmitterContent.maxCells)")
        }
        for (i, c) in cells.prefix(EmitterContent.maxCells).enumerated() {
            if let cell = emitterCell(c, at: "\(path).emitter_cell[\(i)]") { e.cells.append(cell) }
        }
        // Bounded per cell and per layer: what a frame can be asked to draw.
        var total = 0.0
        for i in e.cells.indices {
            let population = e.population(of: i)
            total += population
            if population > Double(EmitterContent.maxCellPopulation) {
                problem(
                    "\(path).emitter_cell[\(i)].birth_rate",
                    "up to \(Self.count(population)) particles alive at once (birth_rate \(e.cells[i].birthRate) x layer birth_rate \(e.birthRate) x (lifetime + lifetime_range) \(e.cells[i].lifetime + e.cells[i].lifetimeRange) x layer lifetime \(e.lifetime)); a cell may have at most \(EmitterContent.maxCellPopulation)"
                )
            }
        }
        if total > Double(EmitterContent.maxLayerPopulation), e.cells.indices.allSatisfy({ e.population(of: $0) <= Double(EmitterContent.maxCellPopulation) }) {
            problem(
                "\(path).emitter_cell",
                "up to \(Self.count(total)) particles alive at once in all cells; an emitter may have at most \(EmitterContent.maxLayerPopulation)"
            )
        }
        return e
    }

    /// A population for a message: a whole number, or its power of ten when huge.
    static func count(_ v: Double) -> String {
        v < 1e15 ? String(Int(v.rounded(.up))) : "\(v)"
    }

    /// A cell at `path`; `nil` (with a problem) when it has no contents.
    mutating func emitterCell(_ t: ConfigTable, at path: String) -> EmitterCell? {
        rejectUnknownKeys(t, at: path, allowed: Self.emitterCellKeys)
        let limit = Self.emitterLimit
        var sprite: Sprite?
        let shapeName = string(t, "shape", at: path)
        if t["contents"] != nil, shapeName != nil {
            problem("\(path).shape", "a cell shows \"contents\" (a PNG) or a \"shape\", not both")
        }
        if t["contents"] != nil {
            if let image = imageContent(t, key: "contents", at: path) {
                sprite = Sprite(
                    look: .image(image.bitmap), width: Double(image.bitmap.width), height: Double(image.bitmap.height))
            }
        } else if let name = shapeName {
            let size = number(t, "shape_size", at: path, in: 0...1000) ?? 1
            switch name {
            case "circle": sprite = Sprite(look: .circle, width: size, height: size)
            case "square": sprite = Sprite(look: .square, width: size, height: size)
            default:
                problem("\(path).shape", "\"\(name)\" is not one of \"circle\", \"square\"")
            }
        } else {
            problem(path, "a cell needs \"contents\" (a PNG file) or \"shape\" (\"circle\" or \"square\")")
        }
        if t["shape_size"] != nil && shapeName == nil {
            problem("\(path).shape_size", "a size for a built-in \"shape\": a PNG's size is its own")
        }
        var cell = EmitterCell(contents: sprite ?? Sprite(look: .square, width: 0, height: 0))
        if let v = string(t, "name", at: path) { cell.name = v }
        if let v = bool(t, "enabled", at: path) { cell.enabled = v }
        if let v = number(t, "birth_rate", at: path, in: 0...1e12) { cell.birthRate = v }
        if let v = number(t, "lifetime", at: path, in: 0...limit) { cell.lifetime = v }
        if let v = number(t, "lifetime_range", at: path, in: 0...limit) { cell.lifetimeRange = v }
        if let v = number(t, "velocity", at: path, in: -limit...limit) { cell.velocity = v }
        if let v = number(t, "velocity_range", at: path, in: 0...limit) { cell.velocityRange = v }
        if let v = number(t, "emission_longitude", at: path, in: -limit...limit) { cell.emissionLongitude = v }
        if let v = number(t, "emission_latitude", at: path, in: -limit...limit) { cell.emissionLatitude = v }
        if let v = number(t, "emission_range", at: path, in: 0...limit) { cell.emissionRange = v }
        if let v = number(t, "x_acceleration", at: path, in: -limit...limit) { cell.xAcceleration = v }
        if let v = number(t, "y_acceleration", at: path, in: -limit...limit) { cell.yAcceleration = v }
        if let v = number(t, "scale", at: path, in: -limit...limit) { cell.scale = v }
        if let v = number(t, "scale_range", at: path, in: 0...limit) { cell.scaleRange = v }
        if let v = number(t, "scale_speed", at: path, in: -limit...limit) { cell.scaleSpeed = v }
        if let v = number(t, "spin", at: path, in: -limit...limit) { cell.spin = v }
        if let v = number(t, "spin_range", at: path, in: 0...limit) { cell.spinRange = v }
        if let c = color(t, "color", at: path) {
            cell.color = SIMD4(Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)) / 255
        }
        for (i, channel) in ["red", "green", "blue", "alpha"].enumerated() {
            if let v = number(t, "\(channel)_range", at: path, in: 0...1) { cell.colorRange[i] = v }
            if let v = number(t, "\(channel)_speed", at: path, in: -limit...limit) { cell.colorSpeed[i] = v }
        }
        return sprite == nil ? nil : cell
    }

    /// `[x, y]`: two numbers, each within `range`.
    mutating func pair(
        _ t: ConfigTable, _ key: String, at path: String, in range: ClosedRange<Double> = -10000...10000
    ) -> (Double, Double)? {
        guard let value = t[key] else { return nil }
        let items = value.array?.compactMap { $0.double ?? $0.int.map(Double.init) }
        guard let items, items.count == 2, value.array?.count == 2 else {
            problem(join(path, key), "expected [x, y], two numbers")
            return nil
        }
        guard items.allSatisfy(range.contains) else {
            problem(join(path, key), "[\(items[0]), \(items[1])] is out of range \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return (items[0], items[1])
    }
}
