import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift`: the commit the sources were built from (`git describe
/// --always`), or `unknown` outside a git checkout (a source tarball), so `--version`,
/// `status` and the MQTT device block say exactly what runs. It is written again whenever
/// the checkout's HEAD, or the branch HEAD names, moves.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        let package = context.package.directoryURL
        let script = """
            commit=$(git -C "$1" describe --always --abbrev=12 --exclude='*' 2>/dev/null || echo unknown)
            printf '/// The commit signd was built from (written by the BuildCommit plugin).\\n' > "$2"
            printf 'let buildCommit = "%s"\\n' "$commit" >> "$2"
            """
        return [
            .buildCommand(
                displayName: "Recording the commit signd is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", package.path, output.path],
                inputFiles: Self.headFiles(of: package),
                outputFiles: [output])
        ]
    }

    /// The files that change when HEAD moves: HEAD itself, the branch file it names and the
    /// packed refs, in the checkout's git directory (`.git`, or where a worktree's `.git`
    /// file points). None outside a checkout.
    static func headFiles(of package: URL) -> [URL] {
        let dotGit = package.appending(path: ".git")
        var gitDir = dotGit
        if let link = try? String(contentsOf: dotGit, encoding: .utf8), link.hasPrefix("gitdir:") {
            let path = link.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDir = path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appending(path: path)
        }
        let head = gitDir.appending(path: "HEAD")
        guard let text = try? String(contentsOf: head, encoding: .utf8) else { return [] }
        var files = [head]
        // A worktree's branches live in the main git directory (its `commondir`).
        var common = gitDir
        if let pointer = try? String(contentsOf: gitDir.appending(path: "commondir"), encoding: .utf8) {
            let path = pointer.trimmingCharacters(in: .whitespacesAndNewlines)
            common = path.hasPrefix("/") ? URL(fileURLWithPath: path) : gitDir.appending(path: path)
        }
        if text.hasPrefix("ref:") {
            let ref = text.dropFirst("ref:".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(common.appending(path: ref))
        }
        files.append(common.appending(path: "packed-refs"))
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
