import Foundation

/// One of the Python programs in tools/ that the reference tests compare signd with (cairo,
/// uharfbuzz, Pillow): run with python3, given its arguments and standard input, its
/// standard output taken whole.
public struct ReferenceScript: Sendable {
    /// Its file name in tools/, as failures name it.
    public let name: String

    public init(_ name: String) { self.name = name }

    /// The script's path in the checkout.
    public var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../tools/\(name)").standardized.path
    }

    /// A run that did not exit 0: the test relying on it fails with this.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the script with `arguments`, `input` written to its standard input (closed
    /// after); its standard output. Throws `Failed` unless it exits 0.
    public func run(_ arguments: [String] = [], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
        let stdin = Pipe(), stdout = Pipe()
        if input != nil { process.standardInput = stdin }
        process.standardOutput = stdout
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "tools/\(([name] + arguments.prefix(1)).joined(separator: " ")) failed")
        }
        return output
    }
}
