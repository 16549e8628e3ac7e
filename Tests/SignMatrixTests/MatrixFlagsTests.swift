import Testing

@testable import SignMatrix

@Suite("signd-matrix's panel flags")
struct MatrixFlagsTests {
    @Test("hzeller's flags set their options, with = or the next argument; a bad one is named")
    func flags() throws {
        var options = MatrixOptions()
        try options.apply(flags: [
            "--led-rows=16", "--led-cols", "64", "--led-chain=2", "--led-gpio-mapping=adafruit-hat", "--led-inverse",
            "--led-rgb-sequence", "RBG", "--led-no-hardware-pulse=false",
        ])
        #expect(options.rows == 16 && options.cols == 64 && options.chain == 2 && options.gpioMapping == "adafruit-hat")
        #expect(options.inverse && !options.noHardwarePulse && options.rgbSequence == "RBG")
        #expect(options.width == 128 && options.height == 16)
        #expect(throws: MatrixOptions.FlagError.self) { try options.apply(flags: ["--led-rowz=3"]) }
        #expect(throws: MatrixOptions.FlagError.self) { try options.apply(flags: ["--led-pwm-bits=12"]) }
        #expect(throws: MatrixOptions.FlagError.self) { try options.apply(flags: ["--led-rgb-sequence=RRB"]) }
        #expect(throws: MatrixOptions.FlagError.self) { try options.apply(flags: ["--led-rows"]) }
    }

    @Test("every option has a flag of hzeller's form and a key that is the flag without --led-")
    func names() {
        let keys = MatrixOptions.keys
        #expect(Set(keys.map(\.name)).count == keys.count)
        #expect(keys.allSatisfy { $0.flag == "led-" + $0.name.replacingOccurrences(of: "_", with: "-") })
        for name in [
            "rows", "cols", "chain", "parallel", "gpio_mapping", "slowdown_gpio", "pwm_bits", "pwm_lsb_nanoseconds",
            "pwm_dither_bits", "brightness", "scan_mode", "row_addr_type", "multiplexing", "rgb_sequence",
            "pixel_mapper", "panel_type", "limit_refresh",
        ] {
            #expect(keys.contains { $0.name == name }, "\(name)")
        }
    }
}
