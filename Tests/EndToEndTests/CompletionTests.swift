import Foundation
import Testing

/// signctl's shell completion as bash runs it: the generated script, completing names a
/// running signd knows.
@Suite("shell completion", .serialized)
struct CompletionTests {
    /// What bash offers for `words` (the last one being completed) with signctl's script.
    /// The script runs the command as typed for the names: the first word is its path.
    func bashCompletes(_ words: [String]) throws -> [String] {
        let quoted = ([Paths.signctl] + words.dropFirst()).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source /usr/share/bash-completion/bash_completion
            source <('\(Paths.signctl)' --generate-completion-script bash)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _signctl signctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let done = try run("/bin/bash", ["-c", script])
        #expect(done.status == 0, "\(done.stderr)")
        return done.stdout.split(separator: "\n").map(String.init)
    }

    @Test("--layer completes the daemon's layer ids, watch its shm outputs; nothing and no error without a daemon")
    func namesFromTheDaemon() throws {
        let s = try Scratch()
        let config = try s.write(
            s.config(text: "x", extra: "[[layer]]\nid = \"panel\"\ntype = \"plain\"\nwidth = 4\nheight = 4\n"))
        let daemon = try s.startSignd(config: config)
        defer { s.stop(daemon) }
        #expect(try bashCompletes(["signctl", "stop", "--socket", s.socket, "--layer", ""]) == ["main", "panel"])
        #expect(try bashCompletes(["signctl", "stop", "--socket", s.socket, "--layer", "p"]) == ["panel"])
        #expect(try bashCompletes(["signctl", "watch", "--socket", s.socket, ""]).contains(s.name))
        #expect(try bashCompletes(["signctl", "playlist", "pa"]) == ["pause"])
        #expect(try bashCompletes(["signctl", "stop", "--socket", "/nonexistent", "--layer", ""]) == [])
    }
}
