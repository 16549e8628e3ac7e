import Foundation

#if FUZZING
    import CFuzzer

    /// The target this fuzzer binary drives, from `SIGND_FUZZ_TARGET`.
    nonisolated(unsafe) var fuzzTarget: @Sendable ([UInt8]) -> Void = { _ in }

    /// `SIGND_FUZZ_TARGET=NAME signd-fuzz [libFuzzer options] [CORPUS...]`: libFuzzer's driver
    /// over one target.
    @main
    struct Fuzz {
        static func main() {
            let name = ProcessInfo.processInfo.environment["SIGND_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTargets.all[name] else {
                FileHandle.standardError.write(
                    Data(
                        "set SIGND_FUZZ_TARGET to one of: \(FuzzTargets.all.keys.sorted().joined(separator: ", "))\n"
                            .utf8))
                exit(2)
            }
            fuzzTarget = target
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    fuzzTarget(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
                    return 0
                })
        }
    }
#else
    /// `signd-fuzz TARGET FILE...`: replays files (a corpus, crashes once found) through a target.
    @main
    struct Replay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTargets.all[name] else {
                print(
                    "usage: signd-fuzz TARGET FILE... (targets: \(FuzzTargets.all.keys.sorted().joined(separator: ", ")))"
                )
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                let files =
                    isDirectory.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                        path + "/" + $0
                    }
                    : [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    target(Array(data))
                    count += 1
                }
            }
            print("\(name): \(count) inputs replayed, none crashed")
        }
    }
#endif
