import SignWire

/// FlaschenTaschen: the LEDs laid in rows of `width` on a picture (LED 0 top left), sent as
/// one PPM datagram a tile at the output's offset and layer. Headers and footers are
/// written once, so a frame only copies pixels.
public struct FlaschenTaschenFramer: DatagramFramer {
    public let kind = "flaschen-taschen"
    /// The picture's size in pixels: `width` columns, as many rows as the LEDs fill.
    public let width: Int
    public let height: Int
    public let tiles: [FlaschenTaschen.Tile]
    private let headers: [[UInt8]]
    private let footers: [[UInt8]]
    private var packet: [UInt8] = []

    /// `ledCount` LEDs in rows of `width`; the picture's top left at (`x`, `y`) on `layer`.
    public init(width: Int, ledCount: Int, x: Int = 0, y: Int = 0, layer: Int = 0, maxDatagram: Int = FlaschenTaschen.maxDatagram) {
        self.width = max(1, width)
        self.height = max(1, (ledCount + self.width - 1) / self.width)
        tiles = FlaschenTaschen.tiles(width: self.width, height: height, maxDatagram: maxDatagram)
        headers = tiles.map {
            FlaschenTaschen.header(width: $0.width, height: $0.height, x: x + $0.x, y: y + $0.y, layer: layer)
        }
        footers = tiles.map { FlaschenTaschen.footer(x: x + $0.x, y: y + $0.y, layer: layer) }
        packet = [UInt8](
            repeating: 0,
            count: zip(tiles, zip(headers, footers)).map { $0.width * $0.height * 3 + $1.0.count + $1.1.count }.max() ?? 0)
    }

    public mutating func writeFrame(
        byteCount: Int, fill: (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Void,
        emit: (_ datagram: UnsafeRawBufferPointer, _ destination: Int) -> Void
    ) {
        for index in tiles.indices {
            let tile = tiles[index]
            let data = tile.width * tile.height * 3
            let size = headers[index].count + data + footers[index].count
            if packet.count < size { packet += repeatElement(0, count: size - packet.count) }
            packet.withUnsafeMutableBytes { p in
                headers[index].withUnsafeBytes { p.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                let pixels = p.baseAddress! + headers[index].count
                for row in 0..<tile.height {
                    // The picture's bytes of this row of the tile; LEDs past the end are black.
                    let start = ((tile.y + row) * width + tile.x) * 3
                    let count = max(0, min(tile.width * 3, byteCount - start))
                    let line = pixels + row * tile.width * 3
                    if count > 0 { fill(start, UnsafeMutableRawBufferPointer(start: line, count: count)) }
                    (line + count).initializeMemory(as: UInt8.self, repeating: 0, count: tile.width * 3 - count)
                }
                footers[index].withUnsafeBytes {
                    (pixels + data).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                }
                emit(UnsafeRawBufferPointer(rebasing: p[0..<size]), 0)
            }
        }
    }
}
