import SignConfig
import Testing

@testable import SignDaemon

@Suite("Output sinks")
struct OutputSinksTests {
    @Test("an E1.31 output's CID is stable for the name, and a UUID")
    func componentID() {
        let cid = NetworkOutputConfig.componentID(name: "panel")
        #expect(cid.count == 16 && cid == NetworkOutputConfig.componentID(name: "panel"))
        #expect(cid != NetworkOutputConfig.componentID(name: "panel2"))
        #expect(cid[6] >> 4 == 8 && cid[8] >> 6 == 2, "version 8, RFC 4122 variant")
    }
}
