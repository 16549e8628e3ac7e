import CPNG

/// Reading and writing PNG files through libpng's simplified API (which, unlike the classic
/// one, reports errors without setjmp).
public enum PNGImage {
    /// A PNG file that could not be read or written, with libpng's message.
    public struct Error: Swift.Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// Writes a frame as an 8-bit RGB PNG.
    public static func write(_ frame: Frame, to path: String) throws(Error) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(frame.width)
        image.height = png_uint_32(frame.height)
        image.format = signd_png_format_rgb
        let ok = frame.pixels.withUnsafeBytes { bytes in
            png_image_write_to_file(&image, path, 0, bytes.baseAddress, png_int_32(frame.stride), nil)
        }
        if ok == 0 { throw Error(path: path, message: message(of: &image)) }
    }

    /// A frame as the bytes of an 8-bit RGB PNG file (for serving it, e.g. `/api/frame.png`).
    public static func encode(_ frame: Frame) throws(Error) -> [UInt8] {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(frame.width)
        image.height = png_uint_32(frame.height)
        image.format = signd_png_format_rgb
        let stride = png_int_32(frame.stride)
        return try frame.pixels.withUnsafeBytes { pixels in
            Result { () throws(Error) -> [UInt8] in
                // The first call only measures; the second writes into storage of that size.
                var size = 0
                guard png_image_write_to_memory(&image, nil, &size, 0, pixels.baseAddress, stride, nil) != 0 else {
                    throw Error(path: "frame", message: message(of: &image))
                }
                var bytes = [UInt8](repeating: 0, count: size)
                let ok = bytes.withUnsafeMutableBytes { out in
                    png_image_write_to_memory(&image, out.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
                }
                guard ok != 0 else { throw Error(path: "frame", message: message(of: &image)) }
                return Array(bytes.prefix(size))
            }
        }.get()
    }

    /// Reads a PNG file as an opaque RGB frame (alpha composited over black).
    public static func readFrame(from path: String) throws(Error) -> Frame {
        let (width, height, pixels) = try read(path, format: signd_png_format_rgb, channels: 3)
        return Frame(width: width, height: height, pixels: pixels)
    }

    /// Decodes PNG bytes (named `name` in errors) with their alpha, as a premultiplied image,
    /// within the same limits as a file.
    public static func readImage(bytes: [UInt8], name: String) throws(Error) -> ImageBitmap {
        let (width, height, rgba) = try bytes.withUnsafeBytes { raw in
            Result { () throws(Error) in try decode(raw, path: name, format: signd_png_format_rgba, channels: 4) }
        }.get()
        return ImageBitmap(width: width, height: height, straightRGBA: rgba)
    }

    /// Reads a PNG file with its alpha, as a premultiplied image.
    public static func readImage(from path: String) throws(Error) -> ImageBitmap {
        let (width, height, rgba) = try read(path, format: signd_png_format_rgba, channels: 4)
        return ImageBitmap(width: width, height: height, straightRGBA: rgba)
    }

    /// Longest side of an image signd decodes, in pixels (a board is at most 4096 wide).
    public static let maxSide = 4096
    /// Most pixels of an image signd decodes (16 MiB as RGBA).
    public static let maxPixels = 4096 * 1024
    /// Largest PNG file read.
    public static let maxFileSize = 16 << 20

    /// Decodes `path` into `format` (`channels` bytes a pixel); without alpha in the format,
    /// transparent pixels are composited over black. The file must be a regular file, and the
    /// size its header claims within the limits, before anything is decoded.
    private static func read(_ path: String, format: png_uint_32, channels: Int) throws(Error) -> (Int, Int, [UInt8]) {
        let file: [UInt8]
        do {
            file = try RegularFile.read(path, limit: maxFileSize)
        } catch {
            throw Error(path: path, message: error.message)
        }
        // libpng reads from this memory from begin_read to finish_read: both run inside.
        return try file.withUnsafeBytes { raw in
            Result { () throws(Error) in try decode(raw, path: path, format: format, channels: channels) }
        }.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, path: String, format: png_uint_32, channels: Int)
        throws(Error) -> (Int, Int, [UInt8])
    {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
            throw Error(path: path, message: message(of: &image))
        }
        let width = Int(image.width), height = Int(image.height)
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            png_image_free(&image)
            throw Error(
                path: path,
                message:
                    "the image is \(width)x\(height); images are limited to \(maxSide) pixels a side and \(maxPixels) pixels in all"
            )
        }
        image.format = format
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        var background = png_color(red: 0, green: 0, blue: 0)
        let ok = pixels.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, &background, bytes.baseAddress, png_int_32(width * channels), nil)
        }
        guard ok != 0 else { throw Error(path: path, message: message(of: &image)) }
        return (width, height, pixels)
    }

    private static func message(of image: inout png_image) -> String {
        defer { png_image_free(&image) }
        return withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
