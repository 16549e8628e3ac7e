/// The HUB75 panels as rpi-rgb-led-matrix drives them: every option its users tune, under
/// hzeller's names. Each is a flag of signd-matrix (`--led-rows`, as hzeller's programs
/// take it) and a key of its config file (the flag without `--led-`, dashes as
/// underscores: `rows`). Defaults are the library's.
public struct MatrixOptions: Sendable, Equatable {
    public var rows = 32
    public var cols = 32
    public var chain = 1
    public var parallel = 1
    public var gpioMapping = "regular"
    public var slowdownGPIO = 1
    public var pwmBits = 11
    public var pwmLSBNanoseconds = 130
    public var pwmDitherBits = 0
    public var brightness = 100
    public var scanMode = 0
    public var rowAddrType = 0
    public var multiplexing = 0
    public var rgbSequence = "RGB"
    public var pixelMapper = ""
    public var panelType = ""
    public var limitRefresh = 0
    public var noHardwarePulse = false
    public var showRefresh = false
    public var inverse = false

    public init() {}

    /// What one option is and where it lives.
    public enum Value {
        case int(WritableKeyPath<MatrixOptions, Int>, ClosedRange<Int>)
        case string(WritableKeyPath<MatrixOptions, String>)
        case bool(WritableKeyPath<MatrixOptions, Bool>)
    }

    /// One option: its config key, its flag (`--led-` and the key with dashes) and meaning.
    public struct Key {
        public let name: String
        public let help: String
        public let value: Value
        public var flag: String { "led-" + name.replacingOccurrences(of: "_", with: "-") }
    }

    /// Every option, in the order `--help` lists them.
    public static var keys: [Key] {
        [
            Key(name: "rows", help: "Rows of one panel (the scan lines times two): 16, 32, 64.", value: .int(\.rows, 4...128)),
            Key(name: "cols", help: "Columns of one panel: 32, 64.", value: .int(\.cols, 8...512)),
            Key(name: "chain", help: "Panels daisy-chained on one connector.", value: .int(\.chain, 1...64)),
            Key(name: "parallel", help: "Chains in parallel (1 to 3; 6 on a Compute Module).", value: .int(\.parallel, 1...6)),
            Key(
                name: "gpio_mapping", help: "The wiring: regular, adafruit-hat, adafruit-hat-pwm, regular-pi1, classic ...",
                value: .string(\.gpioMapping)),
            Key(name: "slowdown_gpio", help: "Slow the GPIO writes for faster Pis: Pi 3 1 to 2, Pi 4 2 to 4.", value: .int(\.slowdownGPIO, 0...5)),
            Key(name: "pwm_bits", help: "PWM bits a colour (1 to 11); fewer refresh faster.", value: .int(\.pwmBits, 1...11)),
            Key(
                name: "pwm_lsb_nanoseconds", help: "The lowest bit's on-time in ns (50 to 3000); more: less ghosting, slower refresh.",
                value: .int(\.pwmLSBNanoseconds, 50...3000)),
            Key(name: "pwm_dither_bits", help: "Low PWM bits time-dithered for a faster refresh (0 to 2).", value: .int(\.pwmDitherBits, 0...2)),
            Key(name: "brightness", help: "The panels' brightness in percent (1 to 100).", value: .int(\.brightness, 1...100)),
            Key(name: "scan_mode", help: "0 progressive, 1 interlaced.", value: .int(\.scanMode, 0...1)),
            Key(name: "row_addr_type", help: "Row addressing: 0 direct, 1 AB-addressed, 2 direct row select, 3 ABC shift, 4 ABC shift + DE direct.", value: .int(\.rowAddrType, 0...5)),
            Key(name: "multiplexing", help: "Outdoor panels' multiplexing: 0 direct, 1 stripe, 2 checker ...", value: .int(\.multiplexing, 0...32)),
            Key(name: "rgb_sequence", help: "The panels' colour order when not RGB (e.g. RBG).", value: .string(\.rgbSequence)),
            Key(name: "pixel_mapper", help: "Pixel mappers, ';'-separated (e.g. \"U-mapper;Rotate:90\").", value: .string(\.pixelMapper)),
            Key(name: "panel_type", help: "A panel needing initialisation: FM6126A, FM6127.", value: .string(\.panelType)),
            Key(name: "limit_refresh", help: "Most refreshes a second (0: no limit); steadier on a busy Pi.", value: .int(\.limitRefresh, 0...10000)),
            Key(name: "no_hardware_pulse", help: "Do not use the hardware pulse (the sound module shares it).", value: .bool(\.noHardwarePulse)),
            Key(name: "show_refresh", help: "Print the refresh rate to the terminal.", value: .bool(\.showRefresh)),
            Key(name: "inverse", help: "Invert the colours (for panels that show them inverted).", value: .bool(\.inverse)),
        ]
    }

    /// The picture the panels show before any pixel mapper: cols x chain by rows x parallel.
    public var width: Int { cols * chain }
    public var height: Int { rows * parallel }

    /// What is wrong with the string options, that the library would refuse silently or print.
    public var problems: [(key: String, message: String)] {
        var out: [(String, String)] = []
        if rgbSequence.count != 3 || Set(rgbSequence.uppercased()) != Set("RGB") {
            out.append(("rgb_sequence", "\"\(rgbSequence)\" is not an order of R, G and B (e.g. \"RBG\")"))
        }
        if gpioMapping.isEmpty { out.append(("gpio_mapping", "empty: name a hardware mapping (e.g. \"regular\")")) }
        return out
    }
}

/// signd-matrix's whole configuration: the panels and where frames come from and go.
public struct MatrixConfig: Sendable, Equatable {
    /// signd's shm output to show: `/dev/shm/signd.<output>`.
    public var output = "matrix"
    /// The library to load.
    public var library = "librgbmatrix.so.1"
    /// The user to run as once the library has the GPIO (when started as root).
    public var user = "signd-matrix"
    /// Where the bridge writes its state for `signctl status`.
    public var status = "/run/signd-matrix/status.json"
    public var options = MatrixOptions()

    public init() {}
}
