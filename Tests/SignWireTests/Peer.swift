import Foundation

/// tools/wire-peer.py: the sacn, python-led-ddp and stupidArtnet packages' own packet code.
enum Peer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../tools/wire-peer.py").standardized.path

    /// Runs `wire-peer.py mode protocol` with `lines` on standard input; its output lines.
    static func run(_ mode: String, _ proto: String, _ lines: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, mode, proto]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerFailed(message: String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Parses datagrams with the peer; one JSON object each.
    static func parse(_ proto: String, _ packets: [[UInt8]]) throws -> [[String: Any]] {
        try run("parse", proto, packets.map(hex)).map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    /// Builds datagrams with the peer from JSON requests.
    static func make(_ proto: String, _ requests: [[String: Any]]) throws -> [[UInt8]] {
        let lines = try requests.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        return try run("make", proto, lines).map(bytes)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }

    struct PeerFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "wire-peer.py failed: \(message)" }
    }
}
