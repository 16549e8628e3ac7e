import CRGBMatrix
import Glibc

/// hzeller's rpi-rgb-led-matrix, loaded with dlopen when signd-matrix starts: signd builds,
/// tests and installs without it. Only the C API's matrix and canvas calls are used.
public final class RGBMatrixLibrary {
    /// Why the library could not be loaded or refused the panels.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    let handle: UnsafeMutableRawPointer
    let create: signd_led_matrix_create_fn
    let delete: signd_led_matrix_delete_fn
    let createOffscreen: signd_led_matrix_create_offscreen_canvas_fn
    let swapOnVSync: signd_led_matrix_swap_on_vsync_fn
    let getSize: signd_led_canvas_get_size_fn
    let setPixels: signd_led_canvas_set_pixels_fn
    let clear: signd_led_canvas_clear_fn

    /// Loads `path` (a name such as `librgbmatrix.so.1` is looked up as the dynamic linker does).
    public init(path: String) throws(Error) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw Error(
                description:
                    "cannot load \(path): \(reason); build hzeller's rpi-rgb-led-matrix (make -C lib) and install "
                    + "lib/librgbmatrix.so.1 into /usr/local/lib, then run ldconfig (README, \"HUB75 panels on a Raspberry Pi\")")
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) throws(Error) -> T {
            guard let pointer = dlsym(handle, name) else {
                dlclose(handle)
                throw Error(description: "\(path) has no \(name): not hzeller's rpi-rgb-led-matrix, or too old a version")
            }
            return unsafeBitCast(pointer, to: type)
        }
        create = try symbol("led_matrix_create_from_options_and_rt_options", as: signd_led_matrix_create_fn.self)
        delete = try symbol("led_matrix_delete", as: signd_led_matrix_delete_fn.self)
        createOffscreen = try symbol("led_matrix_create_offscreen_canvas", as: signd_led_matrix_create_offscreen_canvas_fn.self)
        swapOnVSync = try symbol("led_matrix_swap_on_vsync", as: signd_led_matrix_swap_on_vsync_fn.self)
        getSize = try symbol("led_canvas_get_size", as: signd_led_canvas_get_size_fn.self)
        setPixels = try symbol("led_canvas_set_pixels", as: signd_led_canvas_set_pixels_fn.self)
        clear = try symbol("led_canvas_clear", as: signd_led_canvas_clear_fn.self)
    }

    /// Opens the panels with `options`; the library drops to `user` and `group` after
    /// setting up the GPIO (none: ""). Its own complaints go to standard error (the journal).
    public func open(_ options: MatrixOptions, user: String, group: String) throws(Error) -> Panels {
        var o = RGBLedMatrixOptions()
        var rt = RGBLedRuntimeOptions()
        o.rows = Int32(options.rows)
        o.cols = Int32(options.cols)
        o.chain_length = Int32(options.chain)
        o.parallel = Int32(options.parallel)
        o.pwm_bits = Int32(options.pwmBits)
        o.pwm_lsb_nanoseconds = Int32(options.pwmLSBNanoseconds)
        o.pwm_dither_bits = Int32(options.pwmDitherBits)
        o.brightness = Int32(options.brightness)
        o.scan_mode = Int32(options.scanMode)
        o.row_address_type = Int32(options.rowAddrType)
        o.multiplexing = Int32(options.multiplexing)
        o.disable_hardware_pulsing = options.noHardwarePulse
        o.show_refresh_rate = options.showRefresh
        o.inverse_colors = options.inverse
        o.limit_refresh_rate_hz = Int32(options.limitRefresh)
        rt.gpio_slowdown = Int32(options.slowdownGPIO)
        rt.daemon = 0
        rt.drop_privileges = user.isEmpty ? 0 : 1
        rt.do_gpio_init = true
        // The strings live until the call returns; the library copies what it keeps.
        let matrix = options.gpioMapping.withCString { mapping in
            options.rgbSequence.withCString { sequence in
                options.pixelMapper.withCString { mapper in
                    options.panelType.withCString { panel in
                        user.withCString { user in group.withCString { group in
                            o.hardware_mapping = mapping
                            o.led_rgb_sequence = sequence
                            o.pixel_mapper_config = options.pixelMapper.isEmpty ? nil : mapper
                            o.panel_type = options.panelType.isEmpty ? nil : panel
                            rt.drop_priv_user = user
                            rt.drop_priv_group = group
                            return create(&o, &rt)
                        } }
                    }
                }
            }
        }
        guard let matrix else {
            throw Error(
                description:
                    "the library refused the panel options (its reason is the line before this); "
                    + "on a Pi, signd-matrix must start as root for the GPIO")
        }
        guard let canvas = createOffscreen(matrix) else {
            delete(matrix)
            throw Error(description: "the library gave no offscreen canvas")
        }
        var width: Int32 = 0, height: Int32 = 0
        getSize(canvas, &width, &height)
        return Panels(library: self, matrix: matrix, canvas: canvas, width: Int(width), height: Int(height))
    }

    /// The open panels: an offscreen canvas filled and swapped in on the next vertical sync.
    public final class Panels {
        let library: RGBMatrixLibrary
        let matrix: OpaquePointer
        var canvas: OpaquePointer
        /// The canvas's size after the pixel mappers: the frame size the panels take.
        public let width: Int
        public let height: Int

        init(library: RGBMatrixLibrary, matrix: OpaquePointer, canvas: OpaquePointer, width: Int, height: Int) {
            self.library = library
            self.matrix = matrix
            self.canvas = canvas
            self.width = width
            self.height = height
        }

        /// Shows `pixels` (R, G, B bytes, `width` x `height`, rows top first) at the next vsync.
        public func show(_ pixels: UnsafeMutableRawPointer) {
            library.setPixels(canvas, 0, 0, Int32(width), Int32(height), pixels)
            canvas = library.swapOnVSync(matrix, canvas) ?? canvas
        }

        /// Shows black.
        public func blank() {
            library.clear(canvas)
            canvas = library.swapOnVSync(matrix, canvas) ?? canvas
        }

        /// Resets the panels and frees the library's matrix.
        public func close() {
            library.delete(matrix)
        }
    }
}
