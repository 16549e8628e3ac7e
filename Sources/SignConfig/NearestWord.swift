/// The known word a typo most likely meant, for "did you mean" hints in config problems and
/// request errors.
public enum NearestWord {
    /// The word in `words` closest to `typo` by edit distance (a swap of neighbours counts as
    /// one edit, and case counts for nothing), when it is close enough to be a typo of it: at
    /// most a third of its length. A word that differs only in case (`Speed` for `speed`) is
    /// the likeliest of all; `typo` itself, when it is among `words`, is no typo.
    public static func among(_ words: some Sequence<String>, to typo: String) -> String? {
        let a = Array(typo.lowercased().unicodeScalars)
        var best: (word: String, distance: Int)?
        for word in words {
            let d = distance(a, Array(word.lowercased().unicodeScalars))
            if d < (best?.distance ?? .max) { best = (word, d) }
        }
        guard let best, best.word != typo, best.distance <= max(1, best.word.count / 3) else { return nil }
        return best.word
    }

    /// ` (did you mean "x"?)`, or nothing.
    public static func hint(_ words: some Sequence<String>, for typo: String) -> String {
        among(words, to: typo).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
