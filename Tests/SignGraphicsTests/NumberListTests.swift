import SignGraphics
import Testing

@Suite("Number lists")
struct NumberListTests {
    @Test("up to eight numbers and past eight, a list reads back what was put in")
    func readsBack() {
        for count in [0, 1, 3, 8, 9, 20] {
            let numbers = (0..<count).map { Double($0) * 0.25 - 1 }
            let list = NumberList(numbers)
            #expect(list.count == count)
            #expect(Array(list) == numbers)
        }
    }

    @Test("lists are equal, and hash alike, exactly when their numbers are")
    func equality() {
        let a: NumberList = [0, 0.5, 1]
        #expect(a == NumberList([0, 0.5, 1]))
        #expect(a.hashValue == NumberList([0, 0.5, 1]).hashValue)
        #expect(a != [0, 0.5])
        #expect(a != [0, 0.5, 1, 0])
        #expect(NumberList(count: 10) { Double($0) } != NumberList(count: 10) { $0 == 9 ? 0 : Double($0) })
    }

    @Test("an element can be written in place, inline or spilled")
    func write() {
        var short: NumberList = [1, 2, 3]
        short[1] = 7
        #expect(Array(short) == [1, 7, 3])
        var long = NumberList(count: 12) { Double($0) }
        long[11] = -1
        #expect(long.last == -1 && long.count == 12)
    }
}
