import CWebP

/// Decoding WebP files (still or animated) through libwebp's demuxer and WebPAnimDecoder,
/// which composes each frame onto the canvas (offsets, blending, disposal) as the format
/// says. The canvas size and the frame count are read from the container and checked
/// against signd's limits before anything is decoded.
enum WebPImage {
    /// Decodes `bytes` (named `name` in errors) into composed frames: each frame's delay is
    /// the difference of WebPAnimDecoder's timestamps, the plays WebPAnimInfo's loop count
    /// (0 forever, N that many plays, as browsers play it).
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws(ImageFile.Error) -> AnimatedImage {
        func fail(_ message: String) -> ImageFile.Error { ImageFile.Error(path: name, message: message) }
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        // The container first: sizes and counts, no pixels.
        guard let demux = signd_webp_demux(&data) else {
            throw fail("the WebP is broken or cut short (its container could not be read)")
        }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        WebPDemuxDelete(demux)
        try ImageFile.checkSize(width: width, height: height, kind: "WebP", name: name)
        guard count <= AnimatedImage.maxFrames else {
            throw fail("the WebP has \(count) frames; images are limited to \(AnimatedImage.maxFrames)")
        }
        guard count * width * height <= AnimatedImage.maxDecodedPixels else {
            throw fail(
                "the WebP's frames hold \(count * width * height) pixels (\(count) frames of \(width)x\(height)); images are limited to \(AnimatedImage.maxDecodedPixels) pixels over all frames"
            )
        }
        guard count > 0 else { throw fail("the WebP has no frames") }

        var options = WebPAnimDecoderOptions()
        guard signd_webp_anim_decoder_options_init(&options) != 0 else { throw fail("libwebp refused its options") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = signd_webp_anim_decoder_new(&data, &options) else {
            throw fail("the WebP is broken (libwebp could not start decoding it)")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw fail("the WebP is broken (no animation info)") }
        var frames: [ImageBitmap] = []
        var delays: [Double] = []
        var previous: Int32 = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                throw fail("the WebP is broken (frame \(frames.count + 1) could not be decoded)")
            }
            guard frames.count < count else { break }
            let rgba = Array(UnsafeBufferPointer(start: buffer, count: width * height * 4))
            frames.append(ImageBitmap(width: width, height: height, straightRGBA: rgba))
            delays.append(Double(timestamp - previous) / 1000)
            previous = timestamp
        }
        guard !frames.isEmpty else { throw fail("the WebP has no frames") }
        let plays: Int? = frames.count == 1 ? 1 : (info.loop_count == 0 ? nil : Int(info.loop_count))
        return AnimatedImage(frames: frames, delays: frames.count == 1 ? [0] : delays, plays: plays)
    }
}
