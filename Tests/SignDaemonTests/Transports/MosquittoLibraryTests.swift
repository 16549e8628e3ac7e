import Testing

@testable import SignDaemon

/// libmosquitto is opened at run time, only for a config with [mqtt]: found, it gives every
/// function signd calls; missing, the error names the Debian package to install.
@Suite("Mosquitto library")
struct MosquittoLibraryTests {
    @Test("the installed libmosquitto.so.1 opens with every function signd calls")
    func opens() throws {
        let library = try MosquittoLibrary(MosquittoLibrary.soname)
        #expect(library.strerror(0).map { String(cString: $0) } == "No error.")
    }

    @Test("a libmosquitto that is not there is an error naming the package libmosquitto1")
    func missing() {
        #expect {
            _ = try MosquittoLibrary("libmosquitto-not-here.so.1")
        } throws: { error in
            let text = "\(error)"
            return text.contains("libmosquitto is not installed") && text.contains("libmosquitto1")
                && text.contains("libmosquitto-not-here.so.1")
        }
    }
}
