import CGIF

/// Decoding GIF files through giflib's record-by-record API (not DGifSlurp, which would
/// allocate whatever size a frame claims): each size is checked against signd's limits
/// before its pixels are allocated, and each frame is composed onto the logical screen as
/// browsers compose it.
enum GIFImage {
    /// Decodes `bytes` (named `name` in errors) into composed frames.
    ///
    /// - The canvas starts transparent (browsers' reading; the background colour index is
    ///   not painted). A frame draws its rectangle (clipped to the logical screen) with its
    ///   local colour table, else the global one; its transparent index leaves what is below.
    /// - Disposal (the graphic control extension's): 0 and 1 keep the frame; 2 clears its
    ///   rectangle to transparent (as browsers do, not to the background colour); 3 restores
    ///   the rectangle to what it was before the frame was drawn.
    /// - Interlaced frames' rows are put back in order.
    /// - Delays are the extension's centiseconds; loop count from the NETSCAPE2.0 (or
    ///   ANIMEXTS1.0) application extension: 0 forever, N the repetitions after the first
    ///   play (N + 1 plays, as browsers play it); without the extension, one play.
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws(ImageFile.Error) -> AnimatedImage {
        var reader = Reader(bytes: bytes)
        var status: Int32 = 0
        let gif = withUnsafeMutablePointer(to: &reader) { pointer in
            DGifOpen(UnsafeMutableRawPointer(pointer), readBytes, &status)
        }
        guard let gif else { throw ImageFile.Error(path: name, message: "the GIF is broken (\(describe(status)))") }
        defer { DGifCloseFile(gif, nil) }
        // giflib keeps UserData: reading goes on through `reader`, which outlives `gif`.
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            gif.pointee.UserData = UnsafeMutableRawPointer(pointer)
            return Result { () throws(ImageFile.Error) in try decodeRecords(gif, name: name) }
        }.get()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
    }

    private static let readBytes: InputFunc = { gif, buffer, count in
        guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
        let reader = user.assumingMemoryBound(to: Reader.self)
        let n = max(0, min(Int(count), reader.pointee.bytes.count - reader.pointee.offset))
        if n > 0 {
            buffer.update(
                from: reader.pointee.bytes.baseAddress!.advanced(by: reader.pointee.offset)
                    .assumingMemoryBound(to: GifByteType.self), count: n)
        }
        reader.pointee.offset += n
        return Int32(n)
    }

    private static func describe(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0).lowercased() } ?? "error \(code)"
    }

    private static func decodeRecords(_ gif: UnsafeMutablePointer<GifFileType>, name: String)
        throws(ImageFile.Error) -> AnimatedImage
    {
        func fail(_ message: String) -> ImageFile.Error { ImageFile.Error(path: name, message: message) }
        func failed(_ what: String) -> ImageFile.Error {
            fail("the GIF is broken (\(what): \(describe(gif.pointee.Error)))")
        }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try ImageFile.checkSize(width: width, height: height, kind: "GIF", name: name)

        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [ImageBitmap] = []
        var delays: [Double] = []
        var plays: Int? = 1
        // The next frame's graphic control (reset after each frame).
        var control = GraphicsControlBlock(
            DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
        var decodedRects = 0
        var line: [GifPixelType] = []

        loop: while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                // A file cut after its last complete frame still shows those frames.
                if !frames.isEmpty, gif.pointee.Error == D_GIF_ERR_READ_FAILED { break loop }
                throw failed("record")
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw failed("frame \(frames.count + 1)") }
                let desc = gif.pointee.Image
                let (fx, fy, fw, fh) = (Int(desc.Left), Int(desc.Top), Int(desc.Width), Int(desc.Height))
                guard frames.count < AnimatedImage.maxFrames else {
                    throw fail("the GIF has more than \(AnimatedImage.maxFrames) frames; images are limited to \(AnimatedImage.maxFrames)")
                }
                guard fw <= PNGImage.maxSide, fh <= PNGImage.maxSide else {
                    throw fail(
                        "frame \(frames.count + 1) is \(fw)x\(fh); images are limited to \(PNGImage.maxSide) pixels a side")
                }
                decodedRects += fw * fh
                let composed = (frames.count + 1) * width * height
                guard decodedRects <= AnimatedImage.maxDecodedPixels, composed <= AnimatedImage.maxDecodedPixels else {
                    throw fail(
                        "the GIF's frames hold more than \(AnimatedImage.maxDecodedPixels) pixels in all (\(frames.count + 1) frames of \(width)x\(height)); images are limited to \(AnimatedImage.maxDecodedPixels) pixels over all frames"
                    )
                }
                guard let map = desc.ColorMap ?? gif.pointee.SColorMap else {
                    throw fail("frame \(frames.count + 1) has no colour table")
                }
                // The palette, padded to 256 entries with opaque black for indices past its end.
                var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
                for i in 0..<min(Int(map.pointee.ColorCount), 256) {
                    let c = map.pointee.Colors[i]
                    palette[i] = UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000
                }
                let transparent = Int(control.TransparentColor)
                if (0..<256).contains(transparent) { palette[transparent] = 0 }
                // What disposal 3 restores.
                let before = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : []
                if line.count < fw { line = [GifPixelType](repeating: 0, count: fw) }
                // The frame rectangle cut to the screen; a frame wholly off it draws nothing
                // (its rows are still read, so the records after it are found).
                let (x0, x1) = (max(0, fx), max(0, min(width, fx + fw)))
                let (y0, y1) = (max(0, fy), max(0, min(height, fy + fh)))
                for k in 0..<fh {
                    guard DGifGetLine(gif, &line, Int32(fw)) == GIF_OK else {
                        throw failed("frame \(frames.count + 1), row \(k + 1)")
                    }
                    let row = desc.Interlace ? interlacedRow(k, height: fh) : k
                    let y = fy + row
                    guard y >= 0, y < height, x0 < x1 else { continue }
                    canvas.withUnsafeMutableBytes { raw in
                        let out = raw.bindMemory(to: UInt32.self)
                        for x in x0..<x1 {
                            let color = palette[Int(line[x - fx])]
                            // Transparent pixels leave what is below.
                            if color != 0 { out[y * width + x] = color.littleEndian }
                        }
                    }
                }
                frames.append(ImageBitmap(width: width, height: height, straightRGBA: canvas))
                delays.append(Double(control.DelayTime) / 100)
                switch control.DisposalMode {
                case DISPOSE_BACKGROUND where x0 < x1 && y0 < y1:
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            for c in 0..<4 { canvas[(y * width + x) * 4 + c] = 0 }
                        }
                    }
                case DISPOSE_PREVIOUS:
                    canvas = before
                default:
                    break
                }
                control = GraphicsControlBlock(
                    DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failed("extension") }
                var first = true
                var isLoop = false
                while let b = block {
                    let length = Int(b[0])
                    if code == GRAPHICS_EXT_FUNC_CODE, first {
                        if DGifExtensionToGCB(length, b + 1, &control) != GIF_OK {
                            throw fail("frame \(frames.count + 1)'s graphic control extension is malformed")
                        }
                    } else if code == APPLICATION_EXT_FUNC_CODE, first {
                        let id = String(decoding: UnsafeBufferPointer(start: b + 1, count: length), as: UTF8.self)
                        isLoop = id == "NETSCAPE2.0" || id == "ANIMEXTS1.0"
                    } else if isLoop, length >= 3, b[1] == 1 {
                        let repeats = Int(b[2]) | Int(b[3]) << 8
                        plays = repeats == 0 ? nil : repeats + 1
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failed("extension") }
                }
            case TERMINATE_RECORD_TYPE:
                break loop
            default:
                throw failed("record")
            }
        }
        guard !frames.isEmpty else { throw fail("the GIF has no frames") }
        return AnimatedImage(frames: frames, delays: delays, plays: plays)
    }

    /// The row an interlaced frame's `k`th row in the file is: passes from row 0 every 8th,
    /// from 4 every 8th, from 2 every 4th, from 1 every 2nd.
    static func interlacedRow(_ k: Int, height: Int) -> Int {
        var k = k
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            let rows = start < height ? (height - start + step - 1) / step : 0
            if k < rows { return start + k * step }
            k -= rows
        }
        return height
    }
}
