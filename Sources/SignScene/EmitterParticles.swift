import SignGraphics

/// One particle as it is at a time: which cell emitted it and which of that cell's particles
/// it is, when it was born, and where and how it shows.
public struct Particle: Sendable, Equatable {
    public var cell: Int
    /// The particle's number in its cell's schedule: born at `index / rate`.
    public var index: Int
    public var birth: Double
    public var age: Double
    public var lifetime: Double
    /// In the emitter layer's own coordinates.
    public var position: Point
    public var scale: Double
    /// Radians turned since birth.
    public var angle: Double
    /// Straight red, green, blue, alpha, each held to 0...1.
    public var color: SIMD4<Double>
}

/// What a particle is given at its birth (`EmitterContent.birth`): when it is born and how
/// long it lives, where it starts and its velocity, its scale and spin rate before age, and
/// its colour before age (straight, not yet held to 0...1).
struct Birth {
    /// The particle's number in its cell's schedule; -1 for a slot of `ParticleBirths` not
    /// yet filled.
    var index: Int
    var birth: Double
    var lifetime: Double
    var x: Double, y: Double
    var vx: Double, vy: Double
    var scale: Double
    var spin: Double
    var red: Double, green: Double, blue: Double, alpha: Double
}

/// The particles of an emitter at a time, computed from nothing but that time: particle `k`
/// of a cell is born at `k / rate` (the layer's local time 0 the first), lives its
/// lifetime, and every random attribute is a hash of (seed, cell, k, attribute). Position is
/// `p0 + v age + a age² / 2`; scale, spin and colour change linearly with age. No state is
/// carried between frames, so any frame can be drawn first and any board shows the same.
extension EmitterContent {
    /// The random attributes a particle draws: each a 21-bit field of one of the particle's hash
    /// words, three to a word, the ones most cells use in the first word (the particle's key).
    enum Attribute: UInt64, CaseIterable {
        case direction, place, spin, velocity, lifetime, scale, along, alpha, red, green, blue
    }

    /// SplitMix64's finaliser: a bijection of 64-bit words that mixes every input bit into
    /// every output bit.
    @inline(__always)
    static func mix(_ z: UInt64) -> UInt64 {
        var z = z
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Attribute `a` of the particle with `key`, uniform in 0..<1 in steps of 2^-21: field
    /// `a % 3` of word `a / 3`, word 0 the key itself and word n the key's SplitMix64 step n
    /// (hashed only by a cell whose ranges reach that far; the compiler shares a word between
    /// the attributes drawn from it).
    @inline(__always)
    static func unit(_ key: UInt64, _ a: Attribute) -> Double {
        let n = a.rawValue / 3
        let word = n == 0 ? key : mix(key &+ n &* 0x9E37_79B9_7F4A_7C15)
        return Double(word >> (21 &* (a.rawValue % 3)) & 0x1F_FFFF) * 0x1p-21
    }

    /// The hash of particle `index` of the cell with `stream`: SplitMix64's output `index`.
    @inline(__always)
    static func key(_ stream: UInt64, _ index: Int) -> UInt64 {
        mix(stream &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The same in -1..<1: how a range spreads a value both ways.
    @inline(__always)
    static func signed(_ key: UInt64, _ a: Attribute) -> Double { 2 * unit(key, a) - 1 }

    /// `range` spread by attribute `a`: 0 without hashing when there is no range.
    @inline(__always)
    static func spread(_ range: Double, _ key: UInt64, _ a: Attribute) -> Double {
        range == 0 ? 0 : range * signed(key, a)
    }

    /// The numbers of cell `i`'s particles that may be alive at `t`, oldest first (each is
    /// checked against its own lifetime by `particle`); `nil` when none can be. At most
    /// `population(of:) + 2` of them: the first is found from `t` directly, no dead particle
    /// before it is visited.
    public func candidates(of i: Int, at t: Double) -> ClosedRange<Int>? {
        let r = rate(of: i), life = longestLife(of: i)
        guard r > 0, life > 0, t.isFinite, t >= 0 else { return nil }
        let newest = (t * r).rounded(.down), oldest = max(0, ((t - life) * r).rounded(.down))
        // Far beyond any scene's time: nothing rather than a count that cannot be held.
        guard newest < 0x1p52 else { return nil }
        return Int(oldest)...Int(newest)
    }

    /// What a frame needs of one cell, worked out once a frame instead of once a particle:
    /// its rate, its stream of the hash, the direction's cosine and sine when it has no
    /// emission range, and its candidates (`first > last`: none).
    struct CellFrame {
        var rate: Double
        var stream: UInt64
        var cosine: Double
        var sine: Double
        var first: Int
        var last: Int
    }

    /// Cell `i`'s constants at `t`.
    func frame(of i: Int, at t: Double) -> CellFrame {
        let range = candidates(of: i, at: t)
        // `emissionLongitude + 0` is what a particle's direction is without a range.
        let (sine, cosine) = sineCosine(cells[i].emissionLongitude + 0)
        return CellFrame(
            rate: rate(of: i), stream: Self.mix(UInt64(seed) << 8 | UInt64(truncatingIfNeeded: i & 0xFF)),
            cosine: cosine, sine: sine, first: range?.lowerBound ?? 1, last: range?.upperBound ?? 0)
    }

    /// Particle `index` of cell `i` at the layer's time `t`; `nil` when it is not alive then.
    public func particle(cell i: Int, index: Int, at t: Double) -> Particle? {
        let f = frame(of: i, at: t)
        return cells.withUnsafeBufferPointer { particle($0.baseAddress! + i, f, cell: i, index: index, at: t) }
    }

    /// The same with the cell read in place (no copy of it) and its constants at hand.
    @inline(__always)
    func particle(_ cell: UnsafePointer<EmitterCell>, _ f: CellFrame, cell i: Int, index: Int, at t: Double)
        -> Particle?
    {
        guard f.rate > 0, index >= 0, t - Double(index) / f.rate >= 0 else { return nil }
        return particle(born: birth(cell, f, index: index), cell, cell: i, at: t)
    }

    /// What particle `index` of a cell is given at its birth: every random attribute drawn
    /// and multiplied out, so that what it is at any later time is a few sums (`particle(born:
    /// ...)`). A function of the seed, the cell, the emitter and `index` alone, so it may be
    /// kept (`ParticleBirths`) and gives the same bits whether kept or worked out again.
    @inline(__always)
    func birth(_ cell: UnsafePointer<EmitterCell>, _ f: CellFrame, index: Int) -> Birth {
        let birth = Double(index) / f.rate
        // The hash the particle's attributes are drawn from: its number in its cell's stream.
        let key = Self.key(f.stream, index)
        let c = cell
        let life = max(
            0, (c.pointee.lifetime + Self.spread(c.pointee.lifetimeRange, key, .lifetime)) * lifetime)
        let speed = (c.pointee.velocity + Self.spread(c.pointee.velocityRange, key, .velocity)) * velocity
        let cone = c.pointee.emissionRange / 2
        let dx: Double, dy: Double
        if cone == 0 {
            (dx, dy) = (f.cosine, f.sine)
        } else {
            let direction = c.pointee.emissionLongitude + Self.spread(cone, key, .direction)
            (dy, dx) = sineCosine(direction)
        }
        let start = origin(key)
        let scale = c.pointee.scale + Self.spread(c.pointee.scaleRange, key, .scale)
        let spin = (c.pointee.spin + Self.spread(c.pointee.spinRange, key, .spin)) * spin
        let ranges = c.pointee.colorRange
        let spread = SIMD4(
            Self.spread(ranges[0], key, .red), Self.spread(ranges[1], key, .green),
            Self.spread(ranges[2], key, .blue), Self.spread(ranges[3], key, .alpha))
        let color = c.pointee.color + spread
        return Birth(
            index: index, birth: birth, lifetime: life, x: start.x, y: start.y, vx: speed * dx, vy: speed * dy,
            scale: scale, spin: spin, red: color[0], green: color[1], blue: color[2], alpha: color[3])
    }

    /// The particle born as `b` at the layer's time `t`; `nil` when it is not alive then.
    /// Position is `p0 + v age + a age² / 2`, scale, turn and colour linear in age.
    @inline(__always)
    func particle(born b: Birth, _ c: UnsafePointer<EmitterCell>, cell i: Int, at t: Double) -> Particle? {
        let age = t - b.birth
        guard age >= 0, age < b.lifetime else { return nil }
        let x = b.x + b.vx * age + c.pointee.xAcceleration * age * age / 2
        let y = b.y + b.vy * age + c.pointee.yAcceleration * age * age / 2
        let scale = (b.scale + c.pointee.scaleSpeed * age) * self.scale
        let angle = b.spin * age
        // Held to 0...1 lane by lane in place (`clamped` is a loop out of line).
        var color = SIMD4(b.red, b.green, b.blue, b.alpha) + c.pointee.colorSpeed * age
        color.replace(with: 0, where: color .< 0)
        color.replace(with: 1, where: color .> 1)
        return Particle(
            cell: i, index: b.index, birth: b.birth, age: age, lifetime: b.lifetime, position: Point(x: x, y: y),
            scale: scale, angle: angle, color: color)
    }

    /// Where the particle with `key` is born: on the emitter's shape as its mode says.
    @inline(__always)
    func origin(_ key: UInt64) -> Point {
        let (cx, cy) = (position.x, position.y)
        let (w, h) = (size.width, size.height)
        if shape == .point || (shape == .circle && mode == .points) { return position }
        let u = Self.unit(key, .place)
        switch (shape, mode) {
        case (.point, _):
            return position
        case (.line, .points):
            return Point(x: cx + (u < 0.5 ? -w / 2 : w / 2), y: cy)
        case (.line, _):
            return Point(x: cx + (u - 0.5) * w, y: cy)
        case (.rectangle, .points):
            let corner = Int(u * 4)
            return Point(x: cx + (corner & 1 == 0 ? -w / 2 : w / 2), y: cy + (corner < 2 ? -h / 2 : h / 2))
        case (.rectangle, .outline):
            // A place along the perimeter, side by side.
            let perimeter = 2 * (w + h)
            guard perimeter > 0 else { return position }
            var d = u * perimeter
            if d < w { return Point(x: cx - w / 2 + d, y: cy - h / 2) }
            d -= w
            if d < h { return Point(x: cx + w / 2, y: cy - h / 2 + d) }
            d -= h
            if d < w { return Point(x: cx + w / 2 - d, y: cy + h / 2) }
            return Point(x: cx - w / 2, y: cy + h / 2 - (d - w))
        case (.rectangle, _):
            let v = Self.unit(key, .along)
            return Point(x: cx + (u - 0.5) * w, y: cy + (v - 0.5) * h)
        case (.circle, .points):
            return position
        case (.circle, .outline):
            let (sine, cosine) = sineCosine(2 * Double.pi * u)
            return Point(x: cx + w / 2 * cosine, y: cy + w / 2 * sine)
        case (.circle, _):
            // Uniform over the disc's area.
            let v = Self.unit(key, .along)
            let (sine, cosine) = sineCosine(2 * Double.pi * u), d = w / 2 * v.squareRoot()
            return Point(x: cx + d * cosine, y: cy + d * sine)
        }
    }

    /// Calls `body` with every particle alive at `t`, in the order `renderMode` draws them.
    /// Allocates nothing: the cells' constants and their places in a merge are kept on the
    /// stack, and the cells are read in place.
    public func forEachParticle(at t: Double, _ body: (Particle) -> Void) {
        forEachParticle(at: t, births: nil, body)
    }

    /// The same, each particle's birth attributes taken from `births` (made for this emitter)
    /// when it holds them and put there when it does not: the same particles, to the bit.
    func forEachParticle(at t: Double, births: ParticleBirths.Rings?, _ body: (Particle) -> Void) {
        let n = min(cells.count, Self.maxCells)
        guard n > 0 else { return }
        cells.withUnsafeBufferPointer { cellBuffer in
            let cell = cellBuffer.baseAddress!
            withUnsafeTemporaryAllocation(of: CellFrame.self, capacity: Self.maxCells) { frames in
                for i in 0..<n { frames.initializeElement(at: i, to: frame(of: i, at: t)) }
                /// Particle `k` of cell `i` at `t`, from its kept birth where there is a ring.
                @inline(__always) func particle(_ i: Int, _ k: Int) -> Particle? {
                    guard let births, births.masks[i] >= 0 else {
                        return self.particle(cell + i, frames[i], cell: i, index: k, at: t)
                    }
                    let slot = births.slots + (births.offsets[i] &+ (k & births.masks[i]))
                    if slot.pointee.index != k {
                        guard frames[i].rate > 0, k >= 0 else { return nil }
                        slot.pointee = birth(cell + i, frames[i], index: k)
                    }
                    return self.particle(born: slot.pointee, cell + i, cell: i, at: t)
                }
                // One loop and one call of `body` for every render mode, so that `body` is
                // compiled into it rather than called a particle with the particle in memory.
                // Unordered: the cells one after another, each oldest first. Otherwise a merge.
                let merge = renderMode == .oldestFirst || renderMode == .oldestLast
                let oldestFirst = renderMode != .oldestLast
                withUnsafeTemporaryAllocation(of: (next: Int, end: Int, birth: Double).self, capacity: Self.maxCells) {
                    cursor in
                    // Each cell's next particle and its birth, worked out once a step of that
                    // cell rather than once a step of the merge.
                    for i in 0..<n {
                        let f = frames[i]
                        let (next, end) =
                            f.first > f.last ? (0, 0) : oldestFirst ? (f.first, f.last + 1) : (f.last, f.first - 1)
                        cursor[i] = (next, end, merge && next != end ? Double(next) / f.rate : 0)
                    }
                    var current = 0
                    while true {
                        var chosen = -1
                        if merge {
                            // The cell whose next particle was born first (last), the lower cell on a tie.
                            var when = 0.0
                            for i in 0..<n where cursor[i].next != cursor[i].end {
                                let birth = cursor[i].birth
                                if chosen < 0 || (oldestFirst ? birth < when : birth > when) { (chosen, when) = (i, birth) }
                            }
                        } else {
                            while current < n, cursor[current].next == cursor[current].end { current &+= 1 }
                            if current < n { chosen = current }
                        }
                        guard chosen >= 0 else { return }
                        let k = cursor[chosen].next
                        let next = k + (oldestFirst ? 1 : -1)
                        cursor[chosen].next = next
                        if merge { cursor[chosen].birth = Double(next) / frames[chosen].rate }
                        if let p = particle(chosen, k) { body(p) }
                    }
                }
            }
        }
    }
}
