/// FlaschenTaschen (hzeller's ft-server, UDP 1337): one binary PPM image (`P6`) a datagram.
/// Where the image lands on the display goes in a `#FT: x y z` header comment (z is the
/// layer; 0 is the background) and again as the decimal footer after the pixel data that
/// servers older than the comment read; plain PPM readers skip both. A picture larger than
/// one datagram goes as tiles, each at its own offset.
public enum FlaschenTaschen {
    public static let port: UInt16 = 1337
    /// The most a UDP datagram over IPv4 carries.
    public static let maxDatagram = 65_507
    /// The layers ft-server composes: 0 (background) to 15.
    public static let layers = 0...15
    /// Room kept in every datagram for the header and footer: the longest a header and
    /// footer of five-digit sizes and offsets can be, with margin.
    static let textRoom = 128

    /// A rectangle of the picture that travels as one datagram.
    public struct Tile: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The tiles of a `width` x `height` picture, left to right then top to bottom: whole
    /// rows where a row fits, each tile as many rows as a datagram of `maxDatagram` takes.
    public static func tiles(width: Int, height: Int, maxDatagram: Int = maxDatagram) -> [Tile] {
        guard width > 0, height > 0 else { return [] }
        let pixels = max(1, (maxDatagram - textRoom) / 3)
        let tileWidth = min(width, pixels)
        let tileRows = max(1, pixels / tileWidth)
        var tiles: [Tile] = []
        for y in stride(from: 0, to: height, by: tileRows) {
            for x in stride(from: 0, to: width, by: tileWidth) {
                tiles.append(Tile(x: x, y: y, width: min(tileWidth, width - x), height: min(tileRows, height - y)))
            }
        }
        return tiles
    }

    /// The text before the pixels: `P6`, the size, the `#FT:` offset comment, 255.
    public static func header(width: Int, height: Int, x: Int, y: Int, layer: Int) -> [UInt8] {
        Array("P6\n\(width) \(height)\n#FT: \(x) \(y) \(layer)\n255\n".utf8)
    }

    /// The text after the pixels: x, y and layer, one a line.
    public static func footer(x: Int, y: Int, layer: Int) -> [UInt8] {
        Array("\(x)\n\(y)\n\(layer)\n".utf8)
    }
}
