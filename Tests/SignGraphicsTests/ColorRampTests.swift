import Testing

@testable import SignGraphics

@Suite("ColorRamp")
struct ColorRampTests {
    let fade = ColorRamp(colors: [.clear, .white, .white, .clear], locations: [0, 0.25, 0.75, 1])

    @Test("an edge fade ramps alpha up, holds, and ramps down (hand-computed)")
    func edgeFade() {
        // 8 columns sample at 1/16, 3/16, ... 15/16; the ramp is 0.25 long.
        let alphas = (0..<8).map { fade.color(at: (Double($0) + 0.5) / 8).alpha }
        #expect(alphas == [64, 191, 255, 255, 255, 255, 191, 64])
    }

    @Test("the first and last colours extend past the ends")
    func extendsPastEnds() {
        let g = ColorRamp(colors: [.black, .white], locations: [0.4, 0.6])
        #expect(g.color(at: -3) == .black)
        #expect(g.color(at: 0.1) == .black)
        #expect(g.color(at: 0.5) == Color(red: 128, green: 128, blue: 128))
        #expect(g.color(at: 7) == .white)
    }

    @Test("no locations spreads colours evenly")
    func evenSpread() {
        let g = ColorRamp(colors: [.black, .white, .black])
        #expect(g.resolvedLocations == [0, 0.5, 1])
        #expect(g.color(at: 0.25) == Color(red: 128, green: 128, blue: 128))
    }

    @Test("a decreasing location counts as the running maximum")
    func decreasingLocation() {
        let g = ColorRamp(colors: [.black, .white, .black], locations: [0, 0.6, 0.3])
        #expect(g.resolvedLocations == [0, 0.6, 0.6])
    }

    @Test(
        "the unpacked reader gives the colour of the locations walked in order (running maximum) at every position",
        arguments: [
            ColorRamp(colors: [.clear, .white, .white, .clear], locations: [0, 0.25, 0.75, 1]),
            ColorRamp(colors: [Color(red: 128, green: 128, blue: 128), .white, Color(red: 9, green: 200, blue: 77)]),
            ColorRamp(colors: [.black, .white, .black], locations: [0, 0.6, 0.3]),
            ColorRamp(colors: [.black, .white, .black], locations: [0.5, 0.5, 0.5]),
            ColorRamp(colors: [.black, .white, .black], locations: [.nan, 0.5, 0.7]),
            ColorRamp(colors: [.black, .white, .black], locations: [0.2, .nan, 0.7]),
            ColorRamp(colors: [.black, .white], locations: [0.2, 0.4, 0.6]),
            ColorRamp(colors: [Color(red: 10, green: 20, blue: 30, alpha: 40)]),
            ColorRamp(colors: []),
            ColorRamp(colors: (0..<11).map { Color(red: UInt8($0 * 23), green: UInt8(250 - $0 * 20), blue: 7) }),
        ])
    func readerMatches(_ ramp: ColorRamp) {
        let positions =
            (-40...440).map { Double($0) / 400 } + [-.infinity, .infinity, .nan, 0.5.nextUp, 0.5.nextDown, 0.6.nextUp]
        ramp.withReader { reader in
            for p in positions {
                #expect(reader.color(at: p) == Self.walked(ramp, at: p), "at \(p)")
            }
        }
    }

    /// The definition, read straight off the lists: locations walked in order, a decreasing
    /// one held at the running maximum, the two colours around a position interpolated.
    static func walked(_ ramp: ColorRamp, at position: Double) -> Color {
        let colors = ramp.colors, n = colors.count
        guard let first = colors.first else { return .clear }
        guard n > 1 else { return first }
        let given = ramp.locations?.count == n
        func location(_ i: Int) -> Double { given ? ramp.locations![i] : Double(i) / Double(n - 1) }
        var previous = location(0)
        if position <= previous { return first }
        for i in 1..<n {
            let current = max(previous, location(i))
            if position <= current {
                let span = current - previous
                return colors[i - 1].interpolated(to: colors[i], fraction: span > 0 ? (position - previous) / span : 1)
            }
            previous = current
        }
        return colors[n - 1]
    }
}
