import SignGraphics
import Testing

@Suite("Colour lists")
struct ColorListTests {
    static func colors(_ count: Int) -> [Color] {
        (0..<count).map { (i: Int) -> Color in
            let v = UInt8(i)
            return Color(red: v &* 7, green: 255, blue: v, alpha: 255 - v)
        }
    }

    @Test("up to eight colours and past eight, a list reads back what was put in")
    func readsBack() {
        for count in [0, 1, 2, 8, 9, 20] {
            let list = ColorList(Self.colors(count))
            #expect(list.count == count)
            #expect(Array(list) == Self.colors(count))
        }
    }

    @Test("lists are equal, and hash alike, exactly when their colours are")
    func equality() {
        let a: ColorList = [.black, .white]
        #expect(a == ColorList([.black, .white]))
        #expect(a.hashValue == ColorList([.black, .white]).hashValue)
        #expect(a != [.black])
        #expect(a != [.black, .white, .clear])
        #expect(ColorList(Self.colors(10)) != ColorList(Self.colors(9) + [.black]))
    }

    @Test("a colour can be written in place, inline or spilled")
    func write() {
        var short: ColorList = [.black, .white]
        short[1] = .clear
        #expect(Array(short) == [.black, .clear])
        var long = ColorList(Self.colors(12))
        long[11] = .white
        #expect(long.last == .white && long.count == 12)
    }
}
