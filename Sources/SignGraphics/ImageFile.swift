/// Reading the image files layers and icons show: PNG, GIF or WebP, told apart by their
/// first bytes (not their names), within the same limits whatever the format: the file's
/// size (`PNGImage.maxFileSize`), the canvas's sides and pixels (`PNGImage.maxSide`,
/// `PNGImage.maxPixels`), and for animations the frames (`AnimatedImage.maxFrames`) and
/// the pixels of all frames together (`AnimatedImage.maxDecodedPixels`).
public enum ImageFile {
    /// An image that could not be read, with the reason (naming the limit it broke).
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The formats signd decodes.
    public enum Format: String, Sendable {
        case png = "PNG", gif = "GIF", webp = "WebP"

        /// The format whose signature `bytes` start with.
        public init?(sniffing bytes: UnsafeRawBufferPointer) {
            func starts(_ s: [UInt8], at offset: Int = 0) -> Bool {
                bytes.count >= offset + s.count && zip(bytes[offset...], s).allSatisfy { $0 == $1 }
            }
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
                self = .gif
            } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
                self = .webp
            } else {
                return nil
            }
        }
    }

    /// Reads and decodes the image file at `path`.
    public static func read(_ path: String) throws(Error) -> AnimatedImage {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: PNGImage.maxFileSize)
        } catch {
            throw Error(path: path, message: error.message)
        }
        return try decode(bytes, name: path)
    }

    /// Decodes the bytes of an image file (named `name` in errors).
    public static func decode(_ bytes: [UInt8], name: String) throws(Error) -> AnimatedImage {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Error) -> AnimatedImage in
                switch Format(sniffing: raw) {
                case .png:
                    do throws(PNGImage.Error) {
                        return AnimatedImage(still: try PNGImage.readImage(bytes: bytes, name: name))
                    } catch {
                        throw Error(path: name, message: error.message)
                    }
                case .gif: return try GIFImage.decode(raw, name: name)
                case .webp: return try WebPImage.decode(raw, name: name)
                case nil: throw Error(path: name, message: "not a PNG, GIF or WebP file")
                }
            }
        }.get()
    }

    /// Refuses a canvas outside the limits every image has.
    static func checkSize(width: Int, height: Int, kind: String, name: String) throws(Error) {
        guard width > 0, height > 0 else { throw Error(path: name, message: "the \(kind) is \(width)x\(height): empty") }
        guard width <= PNGImage.maxSide, height <= PNGImage.maxSide, width * height <= PNGImage.maxPixels else {
            throw Error(
                path: name,
                message:
                    "the \(kind) is \(width)x\(height); images are limited to \(PNGImage.maxSide) pixels a side and \(PNGImage.maxPixels) pixels in all"
            )
        }
    }
}
