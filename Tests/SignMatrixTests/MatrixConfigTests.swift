import Foundation
import SignConfig
import SignGraphics
import SignMatrix
import Testing

@Suite("signd-matrix's config")
struct MatrixConfigTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    @Test("the shipped matrix.toml and hub75-pi.toml agree: the shm output it reads, and the panels' size is the board's")
    func shipped() throws {
        let matrix = try MatrixConfigLoader.load(path: Self.root.appendingPathComponent("configs/matrix.toml").path)
        #expect(matrix.output == "matrix" && matrix.user == "signd-matrix" && matrix.library == "librgbmatrix.so.1")
        #expect(matrix.options.gpioMapping == "adafruit-hat" && matrix.options.slowdownGPIO == 2)
        let signd = try ConfigLoader.load(
            path: Self.root.appendingPathComponent("configs/examples/hub75-pi.toml").path, fonts: FontLibrary())
        #expect(signd.display.width == matrix.options.width && signd.display.height == matrix.options.height)
        #expect(
            signd.outputs.contains {
                if case .sharedMemory(let name, _, _) = $0 { return name == matrix.output }
                return false
            })
    }

    @Test("values out of hzeller's ranges, wrong types and unknown keys are each FILE:LINE: key: message")
    func problems() {
        do {
            _ = try MatrixConfigLoader.parse(
                "rows = 16\nbrightness = 0\ngpio_mapping = 3\nrgb_sequence = \"RGX\"\nchian = 2\noutput = \"a b\"\n",
                file: "m.toml")
            Issue.record("accepted")
        } catch {
            let text = error.problems.map(\.description)
            #expect(text.contains { $0.hasPrefix("m.toml:2: brightness:") })
            #expect(text.contains { $0.hasPrefix("m.toml:3: gpio_mapping: expected a string") })
            #expect(text.contains { $0.hasPrefix("m.toml:4: rgb_sequence:") })
            #expect(text.contains { $0.hasPrefix("m.toml:5: chian: unknown key (did you mean \"chain\"?)") })
            #expect(text.contains { $0.hasPrefix("m.toml:6: output:") })
        }
    }
}
