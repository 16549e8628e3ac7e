import Foundation
import Testing

/// signctl and signd as people type them: what a mistake on the command line tells them.
@Suite("the command line's messages")
struct CommandLineTests {
    @Test("signd curve hints at the timing function a misspelt name is nearest")
    func curveTypo() throws {
        let done = try run(Paths.signd, ["curve", "ease-in-ot", "0.5"])
        #expect(done.status == 64)
        #expect(done.stderr.hasPrefix("Error: \"ease-in-ot\" is not a timing function (did you mean \"ease-in-out\"?)"))
    }
}
