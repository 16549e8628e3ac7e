import ArgumentParser
import Foundation
import SignConfig
import SignTiming

/// `signd curve FUNCTION X...`.
struct Curve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a timing function's progress for time fractions, to check a curve before using it.",
        discussion: """
            FUNCTION is linear, easeIn, easeOut, easeInEaseOut or default (Core Animation's names), \
            ease, ease-in, ease-out, ease-in-out, step-start or step-end (CSS's), four control points \
            x1,y1,x2,y2, cubic-bezier(x1, y1, x2, y2), or steps(N[, jump-start|jump-end|jump-none|jump-both]). \
            Prints X<TAB>Y per X.
            """)

    @Argument(
        help: "The timing function.",
        completion: .list(["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end"]))
    var function: String

    // Taken as written, so that a negative time such as -0.5 is a number, not an option; the
    // words are then read as POSIX says, with a first `--` ending the options, not a value.
    @Argument(
        parsing: .allUnrecognized,
        help: "Time fractions (0 to 1; outside that range the curve is extrapolated; -0.5 needs no --).")
    var values: [String] = []

    /// The time fractions as written: the values, less the `--` that ends the options.
    var fractions: [String] {
        guard let end = values.firstIndex(of: "--") else { return values }
        var fractions = values
        fractions.remove(at: end)
        return fractions
    }

    var xs: [Double] { fractions.compactMap(Double.init) }

    func validate() throws {
        guard TimingFunction(parsing: function) != nil else {
            let hint = NearestWord.hint(TimingFunction.named.keys.sorted(), for: function)
            throw ValidationError("\"\(function)\" is not a timing function\(hint) (try easeInEaseOut or 0.42,0,0.58,1)")
        }
        if let bad = fractions.first(where: { Double($0)?.isFinite != true }) {
            throw ValidationError("\"\(bad)\" is not a number")
        }
        guard !fractions.isEmpty else { throw ValidationError("give at least one X") }
    }

    func run() throws {
        let f = TimingFunction(parsing: function)!
        for x in xs {
            print("\(x)\t\(format(f(x)))")
        }
    }

    /// At least 9 significant digits, as the contract asks; 12 here.
    private func format(_ y: Double) -> String {
        let text = String(format: "%.12g", y)
        return text == "-0" ? "0" : text
    }
}
