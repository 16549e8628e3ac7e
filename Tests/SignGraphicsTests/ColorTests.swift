import Testing

@testable import SignGraphics

@Suite("Color")
struct ColorTests {
    @Test("parses #rgb, #rrggbb, #rrggbbaa and names")
    func parsing() {
        #expect(Color(parsing: "#f80") == Color(red: 255, green: 136, blue: 0))
        #expect(Color(parsing: "#102030") == Color(red: 16, green: 32, blue: 48))
        #expect(Color(parsing: "#10203040") == Color(red: 16, green: 32, blue: 48, alpha: 64))
        #expect(Color(parsing: "Amber") == Color(red: 255, green: 191, blue: 0))
    }

    @Test("rejects what is not a colour", arguments: ["", "#12", "#ggg", "102030", "#1234567", "chartreuse"])
    func rejects(text: String) {
        #expect(Color(parsing: text) == nil)
    }

    @Test("hexString round-trips")
    func hexString() {
        #expect(Color(red: 1, green: 171, blue: 255).hexString == "#01abff")
        #expect(Color(red: 1, green: 2, blue: 3, alpha: 4).hexString == "#01020304")
    }

    @Test("white to transparent black passes through grey, as in Core Animation")
    func straightInterpolation() {
        let mid = Color.white.interpolated(to: .clear, fraction: 0.5)
        #expect(mid == Color(red: 128, green: 128, blue: 128, alpha: 128))
    }
}
