import Foundation
import Testing

@testable import SignControl

/// The hand-written JSON reader and writer (JSONText.swift) against Foundation's, which they
/// stand in for: the same bytes written, the same values read, the same texts refused.
@Suite("JSON text")
struct JSONTextTests {
    /// A fixed sequence of pseudo-random numbers (SplitMix64).
    struct Numbers {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let pieces: [String] = [
        "", "a", "A", "B", "_", "a10", "a9", "é", "e\u{301}", "Z", "z", "/", "\\", "\"", "\u{0}", "\u{1}", "\u{8}",
        "\u{9}", "\u{a}", "\u{b}", "\u{c}", "\u{d}", "\u{1f}", "\u{7f}", "\u{80}", "\u{2028}", "😀", "한", "id", "ok",
        "result", "cmd", "ping", "</script>", " ", "{", "}", "[", "]", ":", ",",
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 0.1, 1.0 / 3, 100, 1e15, 1e16, 1e20, 1e21, 1e22, 1e-5, 1e-7, 5e-324,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 1_800_000_000.5, 0.6, 9.5,
    ]

    static let ints: [Int64] = [0, 1, -1, 42, 1 << 53, (1 << 53) + 1, .max, .min, 9_999_999_999]

    func string(_ r: inout Numbers) -> String {
        (0..<r.below(4)).map { _ in Self.pieces[r.below(Self.pieces.count)] }.joined()
    }

    func value(_ r: inout Numbers, depth: Int) -> JSONValue {
        switch r.below(depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(r.below(2) == 0)
        case 2: return .int(r.below(2) == 0 ? Self.ints[r.below(Self.ints.count)] : Int64(bitPattern: r.next()))
        case 3:
            return .double(
                r.below(2) == 0 ? Self.doubles[r.below(Self.doubles.count)] : Double(bitPattern: r.next()))
        case 4, 5: return .string(string(&r))
        case 6: return .array((0..<r.below(4)).map { _ in value(&r, depth: depth + 1) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<r.below(5) { object[string(&r)] = value(&r, depth: depth + 1) }
            return .object(object)
        }
    }

    @Test("writes JSONEncoder's bytes (sorted keys, slashes as they are) for every kind of value")
    func writer() {
        var r = Numbers(state: 37)
        for _ in 0..<3000 {
            let v = value(&r, depth: 0)
            #expect(v.jsonString == v.foundationJSONString)
        }
        for d in Self.doubles { #expect(JSONValue.double(d).jsonString == JSONValue.double(d).foundationJSONString) }
        for s in Self.pieces { #expect(JSONValue.string(s).jsonString == JSONValue.string(s).foundationJSONString) }
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        #expect(JSONValue.string(controls).jsonString == JSONValue.string(controls).foundationJSONString)
    }

    @Test("nesting JSONEncoder refuses is written as null, as before")
    func tooDeep() {
        for depth in [510, 511, 512, 513] {
            var v: JSONValue = .int(1)
            for i in 0..<depth { v = i % 2 == 0 ? .array([v]) : .object(["k": v]) }
            #expect(v.jsonString == v.foundationJSONString)
        }
    }

    /// The same value or the same refusal as JSONDecoder.
    func same(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        same(Array(text.utf8), sourceLocation: sourceLocation)
    }

    func same(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let mine = try? JSONValue.parse(bytes)
        let foundation = try? JSONValue.foundationParse(bytes)
        #expect(mine == foundation, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test("reads what JSONDecoder reads, and refuses what it refuses")
    func reader() {
        let texts = [
            #"{"cmd":"ping"}"#, #"{"cmd":"ping","id":1}"#, #" { "cmd" : "ping" , "id" : "a" } "#, "\t{\"cmd\":\r\n\"ping\"}\n",
            #"{"id":[1,2,{"a":null}],"cmd":"status"}"#, "{}", "[]", "[ ]", "{ }", "null", "true", "false", "0", "-1",
            "12", "-0", "01", "1.0", "1.5", "1e2", "1E2", "-1.5e-3", "1.", ".5", "+1", "-", "9223372036854775807",
            "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "1e400",
            #""a""#, #""\u0041""#, #""\u00e9\u4e2d""#, #""\ud83d\ude00""#, #""\ud83d""#, #""\ude00""#, #""\ud83dx""#,
            #""\ud83d\u0041""#, #""\uZZZZ""#, #""\u12""#, #""\x""#, #""\/\b\f\n\r\t\\\"""#, "\"a\u{1}b\"", "\"tab\tin\"",
            #"{"a":1,"a":2}"#, #"{"é":1,"e\u0301":2}"#, "{\"é\":1,\"e\u{301}\":2}", #"{"a":1,}"#, "[1,]", "[1 2]",
            #"{"a" 1}"#, #"{a:1}"#, "{\"a\":1}x", "[1]]", "tru", "truex", "nul", "[true,false,null]", "\u{feff}{}",
            "{\"a\":\"\u{7f}\"}", "\u{a0}{}", "", " ", "[[[[[[[[[[1]]]]]]]]]]", "{\"text\":\"Now Playing 😀 한\"}",
            #"{"cmd":"set-text","text":"x","at":1800000000.5}"#, #"{"cmd":"set-brightness","value":0.2}"#,
        ]
        for text in texts { same(text) }
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        same(deep)
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        same(tooDeep)
        // Bytes that are not UTF-8, in and out of strings.
        same([0x22, 0xFF, 0x22])
        same([0x22, 0xC3, 0x22])
        same([0x22, 0xED, 0xA0, 0x80, 0x22])
        same([0x7B, 0x22, 0xC3, 0xA9, 0x22, 0x3A, 0x31, 0x7D])
        same([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])
        same([0x00])
    }

    @Test("the requests clients send every day are read without JSONDecoder")
    func commonCase() {
        let lines = [
            #"{"cmd":"ping","id":1}"#, #"{"cmd":"status"}"#,
            #"{"cmd":"set-text","text":"Now Playing \"x\" 😀\n","layer":"main","id":"a"}"#,
            #"{"cmd":"subscribe","events":["loop-end","notify-end"]}"#, #"{"cmd":"dismiss","all":true,"id":null}"#,
        ]
        for line in lines {
            #expect(Array(line.utf8).withUnsafeBufferPointer(PlainJSONReader.read) != nil, "\(line)")
            same(line)
        }
    }

    @Test("reads back what it writes, as JSONDecoder does")
    func roundTrip() {
        var r = Numbers(state: 11)
        for _ in 0..<3000 {
            same(Array(value(&r, depth: 0).jsonString.utf8))
        }
    }
}
