import Foundation
import SignGraphics

extension FontLibrary {
    /// What is wrong with a font a config names, for a config problem: FreeType's message,
    /// except for a misc-fixed name with no file, which is told as a name that is not
    /// installed, with the nearest one that is (`"9x18BB"`: did you mean `"9x18B"`?).
    func configProblem(with spec: FontSpec) -> String? {
        guard let message = problem(with: spec) else { return nil }
        let named = !spec.name.contains("/") && spec.name != "unifont" && spec.name != "emoji"
        guard named, !FileManager.default.fileExists(atPath: spec.path) else { return message }
        let installed = ((try? FileManager.default.contentsOfDirectory(atPath: FontSpec.miscFixedDirectory)) ?? [])
            .filter { $0.hasSuffix(".pcf.gz") }.map { String($0.dropLast(7)) }.sorted()
        return
            "no font named \"\(spec.name)\" (no \(spec.path))\(NearestWord.hint(installed, for: spec.name)); name a misc-fixed face such as 6x10 or 9x18B, \"unifont\", or a font file's path"
    }
}
