import Glibc
import SignGraphics
import Testing

@testable import SignScene

@Suite("Emitter")
struct EmitterTests {
    static let fonts = try! FontLibrary()

    /// One cell of 1 px squares: `rate` a second, living `lifetime` s, leaving at `velocity`
    /// along `longitude`, falling at `gravity`.
    static func emitter(
        rate: Double = 4, lifetime: Double = 1, velocity: Double = 10, longitude: Double = 0, gravity: Double = 2
    ) -> EmitterContent {
        var cell = EmitterCell(contents: Sprite(look: .square, width: 1, height: 1))
        cell.birthRate = rate
        cell.lifetime = lifetime
        cell.velocity = velocity
        cell.emissionLongitude = longitude
        cell.yAcceleration = gravity
        return EmitterContent(cells: [cell])
    }

    static func particles(_ e: EmitterContent, at t: Double) -> [Particle] {
        var all: [Particle] = []
        e.forEachParticle(at: t) { all.append($0) }
        return all
    }

    @Test("particle k is born at k / (cell rate x layer rate) and dies when its lifetime is over")
    func birthsAndDeaths() {
        var e = Self.emitter(rate: 2, lifetime: 1)
        e.birthRate = 2  // 4 a second: births at 0, 0.25, 0.5, ...
        // At 1.1 s, particle 0 (born at 0) is 1.1 s old: dead. 1 to 4 (born 0.25 to 1.0) live.
        #expect(Self.particles(e, at: 1.1).map(\.index) == [1, 2, 3, 4])
        #expect(Self.particles(e, at: 1.1).map(\.birth) == [0.25, 0.5, 0.75, 1.0])
        // At exactly 1.0 particle 0 has just died and particle 4 is born.
        #expect(Self.particles(e, at: 1.0).map(\.index) == [1, 2, 3, 4])
        #expect(Self.particles(e, at: 0).map(\.index) == [0])
        #expect(Self.particles(e, at: -0.5).isEmpty)
        // The layer's lifetime multiplies: 2 s lives hold particles 0 to 4 at 1.1 s.
        e.lifetime = 2
        #expect(Self.particles(e, at: 1.1).map(\.index) == [0, 1, 2, 3, 4])
    }

    @Test("a particle is at p0 + v age + a age^2 / 2: along its longitude, falling under y acceleration")
    func closedFormPosition() {
        var e = Self.emitter(rate: 4, lifetime: 5, velocity: 10, longitude: 0.5, gravity: 3)
        e.position = Point(x: 20, y: 7)
        e.cells[0].xAcceleration = -1
        for t in [0.3, 1.0, 2.71] {
            for p in Self.particles(e, at: t) {
                let age = t - Double(p.index) / 4
                let x = 20 + 10 * cos(0.5) * age - age * age / 2
                let y = 7 + 10 * sin(0.5) * age + 3 * age * age / 2
                #expect(abs(p.age - age) < 1e-12)
                #expect(abs(p.position.x - x) < 1e-9, "particle \(p.index) at \(t) s: x \(p.position.x), expected \(x)")
                #expect(abs(p.position.y - y) < 1e-9, "particle \(p.index) at \(t) s: y \(p.position.y), expected \(y)")
            }
        }
        // Particle 2 at 1 s: born at 0.5, so 0.5 s old.
        let p = e.particle(cell: 0, index: 2, at: 1)!
        #expect(abs(p.position.x - (20 + 5 * cos(0.5) - 0.125)) < 1e-9)
        #expect(abs(p.position.y - (7 + 5 * sin(0.5) + 0.375)) < 1e-9)
    }

    @Test("scale, spin and colour change linearly with age and colour is held to 0...1")
    func linearInAge() {
        var e = Self.emitter(rate: 1, lifetime: 10)
        e.cells[0].scale = 2
        e.cells[0].scaleSpeed = -0.5
        e.cells[0].spin = 1.5
        e.spin = 2
        e.scale = 3
        e.cells[0].color = SIMD4(1, 0.5, 0.2, 1)
        e.cells[0].colorSpeed = SIMD4(-0.1, 0.2, 0, -0.25)
        let p = e.particle(cell: 0, index: 1, at: 4)!  // 3 s old
        #expect(abs(p.scale - (2 - 1.5) * 3) < 1e-12)
        #expect(abs(p.angle - 1.5 * 2 * 3) < 1e-12)
        #expect(abs(p.color[0] - 0.7) < 1e-12)
        #expect(p.color[1] == 1)  // 0.5 + 0.6, held at 1
        #expect(abs(p.color[2] - 0.2) < 1e-12)
        #expect(abs(p.color[3] - 0.25) < 1e-12)
    }

    @Test("ranges spread attributes within value +/- range, from a hash of seed, cell and k")
    func rangesFromTheHash() {
        var e = Self.emitter(rate: 100, lifetime: 5, velocity: 10, gravity: 0)
        e.cells[0].lifetimeRange = 1
        e.cells[0].velocityRange = 4
        e.cells[0].emissionRange = 1
        e.cells[0].colorRange = SIMD4(0.2, 0, 0, 0)
        e.cells[0].color = SIMD4(0.5, 1, 1, 1)
        var speeds: [Double] = []
        for k in 0..<400 {
            // At its birth a particle is where it started; a little later its speed shows.
            guard let p = e.particle(cell: 0, index: k, at: Double(k) / 100 + 0.5) else {
                Issue.record("particle \(k) died before 0.5 s with lifetimes of 4 to 6 s")
                continue
            }
            #expect((4...6).contains(p.lifetime))
            #expect((0.3...0.7).contains(p.color[0]))
            let d = (p.position.x * p.position.x + p.position.y * p.position.y).squareRoot() / 0.5
            #expect((6 - 1e-9...14 + 1e-9).contains(d))
            #expect(abs(atan2(p.position.y, p.position.x)) <= 0.5 + 1e-9)
            speeds.append(d)
        }
        // Spread, not constant: the hash reaches both ends of the range.
        #expect(speeds.min()! < 7 && speeds.max()! > 13)
        // Another seed, other particles; the same seed, the same.
        var other = e
        other.seed = 1
        #expect(Self.particles(other, at: 3) != Self.particles(e, at: 3))
        #expect(Self.particles(e, at: 3) == Self.particles(e, at: 3))
    }

    @Test("every attribute is uniform in 0..<1 and independent of the others, over 20,000 particles")
    func attributesUniformAndIndependent() {
        let n = 20_000, attributes = EmitterContent.Attribute.allCases
        for (seed, cell) in [(UInt32(0), 0), (7, 1), (2026, 3)] {
            let stream = EmitterContent.mix(UInt64(seed) << 8 | UInt64(cell))
            let units = attributes.map { a in
                (0..<n).map { EmitterContent.unit(EmitterContent.key(stream, $0), a) }
            }
            for (a, u) in zip(attributes, units) {
                let mean = u.reduce(0, +) / Double(n)
                let variance = u.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)
                // The mean's standard error is 0.002: within 3 of them; the variance 1/12.
                #expect(abs(mean - 0.5) < 0.006, "\(a) mean \(mean)")
                #expect(abs(variance - 1.0 / 12) < 0.003, "\(a) variance \(variance)")
                #expect(u.min()! >= 0 && u.min()! < 0.001 && u.max()! < 1 && u.max()! > 0.999, "\(a)")
                // Ten equal bins of 2,000 each (a standard deviation of 42): within 150.
                var bins = [Int](repeating: 0, count: 10)
                for x in u { bins[Int(x * 10)] += 1 }
                #expect(bins.allSatisfy { abs($0 - n / 10) < 150 }, "\(a) bins \(bins)")
            }
            // No two attributes move together (a correlation's standard error is 0.007).
            for i in attributes.indices {
                for j in attributes.indices where j > i {
                    let r = zip(units[i], units[j]).reduce(0) { $0 + ($1.0 - 0.5) * ($1.1 - 0.5) } / Double(n) * 12
                    #expect(abs(r) < 0.03, "\(attributes[i]) and \(attributes[j]): \(r)")
                }
            }
        }
    }

    @Test("render modes: oldest first draws in order of birth across cells, oldest last the reverse")
    func renderOrder() {
        var e = Self.emitter(rate: 3, lifetime: 2)
        var second = e.cells[0]
        second.birthRate = 5
        e.cells.append(second)
        e.renderMode = .oldestFirst
        let first = Self.particles(e, at: 1.9)
        #expect(first.count == 6 + 10)
        #expect(first.map(\.birth) == first.map(\.birth).sorted())
        e.renderMode = .oldestLast
        let last = Self.particles(e, at: 1.9)
        #expect(last.map(\.birth) == last.map(\.birth).sorted().reversed())
        e.renderMode = .unordered
        #expect(Self.particles(e, at: 1.9).map(\.cell) == Array(repeating: 0, count: 6) + Array(repeating: 1, count: 10))
    }

    @Test("a disabled cell emits nothing; a cell of rate or lifetime 0 neither")
    func disabledCells() {
        var e = Self.emitter()
        e.cells[0].enabled = false
        #expect(Self.particles(e, at: 3).isEmpty)
        #expect(Self.particles(Self.emitter(rate: 0), at: 3).isEmpty)
        #expect(Self.particles(Self.emitter(lifetime: 0), at: 3).isEmpty)
    }

    @Test("a rectangle's outline and surface, a circle's and a line's places are on the shape")
    func shapes() {
        var e = Self.emitter(rate: 50, lifetime: 10, velocity: 0, gravity: 0)
        e.position = Point(x: 10, y: 20)
        e.size = Size(width: 8, height: 4)
        e.shape = .rectangle
        e.mode = .outline
        for p in Self.particles(e, at: 2) {
            let (dx, dy) = (abs(p.position.x - 10), abs(p.position.y - 20))
            #expect(abs(dx - 4) < 1e-9 || abs(dy - 2) < 1e-9)
            #expect(dx <= 4 + 1e-9 && dy <= 2 + 1e-9)
        }
        e.mode = .points
        for p in Self.particles(e, at: 2) {
            #expect(abs(abs(p.position.x - 10) - 4) < 1e-9 && abs(abs(p.position.y - 20) - 2) < 1e-9)
        }
        e.shape = .circle
        e.mode = .outline
        for p in Self.particles(e, at: 2) {
            #expect(abs(hypot(p.position.x - 10, p.position.y - 20) - 4) < 1e-9)
        }
        e.mode = .surface
        for p in Self.particles(e, at: 2) { #expect(hypot(p.position.x - 10, p.position.y - 20) <= 4 + 1e-9) }
        e.shape = .line
        for p in Self.particles(e, at: 2) {
            #expect(p.position.y == 20 && abs(p.position.x - 10) <= 4)
        }
    }

    @Test("candidates are bounded by the population whatever the time, and none past any scene's time")
    func boundedCandidates() {
        let e = Self.emitter(rate: 1000, lifetime: 2)
        for t in [0.0, 1.5, 86_400, 31_536_000] {
            let range = e.candidates(of: 0, at: t)!
            #expect(range.count <= 2002)
        }
        #expect(e.candidates(of: 0, at: .infinity) == nil)
        #expect(e.candidates(of: 0, at: .nan) == nil)
        #expect(e.candidates(of: 0, at: 1e40) == nil)
    }

    func scene(_ emitter: EmitterContent) throws -> PreparedScene {
        let layer = Layer(content: .emitter(emitter), frame: Rect(x: 0, y: 0, width: 32, height: 16))
        return try PreparedScene(
            Scene(width: 32, height: 16, layers: [.layer(layer)]), beginTime: 0, fonts: Self.fonts)
    }

    static var snow: EmitterContent {
        var e = emitter(rate: 12, lifetime: 3, velocity: 6, longitude: 1.5, gravity: 1)
        e.shape = .line
        e.position = Point(x: 16, y: 0)
        e.size = Size(width: 32, height: 0)
        e.cells[0].velocityRange = 2
        e.cells[0].emissionRange = 0.5
        e.cells[0].spin = 2
        e.cells[0].spinRange = 1
        e.cells[0].contents = Sprite(look: .circle, width: 2, height: 2)
        var confetti = e.cells[0]
        confetti.contents = Sprite(look: .square, width: 2, height: 1.5)
        confetti.color = SIMD4(1, 0.3, 0.2, 0.8)
        e.cells.append(confetti)
        return e
    }

    @Test("a frame is a function of its time: drawn directly, or after earlier frames, the same bytes")
    func pureFunctionOfTime() throws {
        for mode in EmitterContent.RenderMode.allCases {
            var e = Self.snow
            e.renderMode = mode
            let scene = try scene(e)
            let renderer = Renderer(width: 32, height: 16)
            var frame = Frame(width: 32, height: 16)
            for k in 0..<120 { renderer.render(scene, at: Double(k) / 60, into: &frame) }
            renderer.render(scene, at: 2.5, into: &frame)
            let direct = Renderer.render(scene, at: 2.5)
            #expect(frame == direct, "\(mode)")
            // And it shows particles at all.
            #expect(direct.pixels.contains { $0 != 0 }, "\(mode)")
            // A second scene prepared anew (another board) draws the same.
            #expect(Renderer.render(try self.scene(e), at: 2.5) == direct, "\(mode)")
        }
    }

    @Test("kept birth attributes give the particles worked out afresh, to the bit, whatever order times come in")
    func keptBirthsAreWorkedOutOnes() {
        var e = Self.emitter(rate: 30, lifetime: 2, velocity: 8, longitude: 1.2, gravity: 1)
        e.cells[0].lifetimeRange = 0.5
        e.cells[0].velocityRange = 2
        e.cells[0].emissionRange = 0.8
        e.cells[0].scaleRange = 0.3
        e.cells[0].scaleSpeed = -0.1
        e.cells[0].spin = 2
        e.cells[0].spinRange = 1
        e.cells[0].colorRange = SIMD4(0.2, 0.1, 0, 0.3)
        e.cells[0].colorSpeed = SIMD4(0, -0.2, 0, -0.1)
        var round = e.cells[0]
        round.contents = Sprite(look: .circle, width: 2, height: 2)
        round.birthRate = 45
        e.cells.append(round)
        (e.shape, e.mode, e.size, e.seed) = (.rectangle, .surface, Size(width: 20, height: 4), 9)
        for mode in EmitterContent.RenderMode.allCases {
            e.renderMode = mode
            let births = ParticleBirths(e)
            // Forward a frame at a time, a jump back, the same time twice, far ahead, back again.
            for t in [3.0, 3.016, 3.033, 1.2, 7.5, 7.5, 2.9, 500, 3.016] {
                var kept: [Particle] = []
                births.with(e) { rings in
                    #expect(rings != nil)
                    e.forEachParticle(at: t, births: rings) { kept.append($0) }
                }
                let fresh = Self.particles(e, at: t)
                #expect(!fresh.isEmpty)
                #expect(kept == fresh, "\(mode) at \(t)")
            }
            // Another emitter is not drawn from these births.
            var other = e
            other.seed = 10
            births.with(other) { #expect($0 == nil) }
        }
    }

    @Test("an emitter drawn from its kept births (a batch at a time) draws the bytes and damage drawn without them")
    func batchedIsOneByOne() {
        // Over 256 particles (more than a batch), circles and spinning squares, some translucent.
        var e = Self.emitter(rate: 120, lifetime: 3, velocity: 5, longitude: 1.4, gravity: 0.5)
        e.cells[0].contents = Sprite(look: .square, width: 2, height: 2)
        e.cells[0].spin = 2
        e.cells[0].spinRange = 3
        e.cells[0].colorRange = SIMD4(0.3, 0.2, 0.1, 0.4)
        var round = e.cells[0]
        round.contents = Sprite(look: .circle, width: 2, height: 2)
        round.colorSpeed = SIMD4(0, -0.1, 0, -0.2)
        e.cells.append(round)
        // One colour for all (its pixel worked out once a frame), sizes spread (no table known).
        var plain = round
        (plain.colorRange, plain.colorSpeed, plain.color) = (.zero, .zero, SIMD4(0.2, 0.9, 0.5, 0.7))
        (plain.contents, plain.scaleRange) = (Sprite(look: .circle, width: 1.5, height: 1.5), 0.4)
        e.cells.append(plain)
        // Transparent throughout: nothing drawn.
        var hidden = plain
        (hidden.color, hidden.scaleRange) = (SIMD4(1, 1, 1, 0), 0)
        e.cells.append(hidden)
        (e.shape, e.position, e.size) = (.line, Point(x: 24, y: 0), Size(width: 48, height: 0))
        for mode in EmitterContent.RenderMode.allCases {
            e.renderMode = mode
            let births = ParticleBirths(e)
            var count = 0
            e.forEachParticle(at: 2.5) { _ in count += 1 }
            #expect(count > 2 * ParticleBirths.batch, "\(mode)")
            for t in [2.5, 2.516, 0.7] {
                var batched = Canvas(width: 48, height: 24), single = Canvas(width: 48, height: 24)
                let clip = Rect(x: 1, y: 0.5, width: 45, height: 22)
                batched.draw(e, at: t, origin: Point(x: 0, y: 1), opacity: 0.8, clip: clip, mask: nil, births: births)
                single.draw(e, at: t, origin: Point(x: 0, y: 1), opacity: 0.8, clip: clip, mask: nil, births: nil)
                #expect(batched.pixels == single.pixels, "\(mode) at \(t)")
                #expect(batched.pixels.contains { $0 != 0 })
                for y in 0..<24 {
                    #expect(batched.damage.span(y).map { [$0.0, $0.1] } == single.damage.span(y).map { [$0.0, $0.1] })
                }
            }
        }
    }

    @Test("a particle is drawn where its position says: a 1 px square at a pixel centre lights that pixel")
    func drawnAtItsPosition() throws {
        // No speed, no gravity: born at the emitter's position and staying there.
        var e = Self.emitter(rate: 1, lifetime: 10, velocity: 0, gravity: 0)
        e.position = Point(x: 5.5, y: 3.5)
        let frame = Renderer.render(try scene(e), at: 0.5)
        #expect(frame.pixel(x: 5, y: 3) == .white)
        #expect(frame.pixels.filter { $0 != 0 }.count == 3)
    }

    @Test("check-config's summary names each cell's population and the caps; emitters are found down the tree")
    func populationSummary() {
        var e = Self.emitter(rate: 5, lifetime: 8)
        e.cells[0].name = "near"
        e.cells[0].lifetimeRange = 1
        var far = e.cells[0]
        far.name = ""
        far.birthRate = 9
        far.lifetimeRange = 0
        far.lifetime = 12
        e.cells.append(far)
        e.birthRate = 0.5
        #expect(
            e.populationSummary
                == "at most 77 particles alive (\"near\" 23, cell 1 54); caps 2000 a cell, 4000 an emitter")
        var outer = Layer(id: "outer")
        outer.sublayers = [Layer(id: "plain"), Layer(id: "snow", content: .emitter(e))]
        #expect(outer.emitters.map(\.path) == ["outer/snow"])
        #expect(outer.emitters.first?.emitter == e)
    }
}
