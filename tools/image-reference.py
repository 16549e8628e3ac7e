#!/usr/bin/python3
"""GIF and WebP files for signd's image tests, and Pillow's decoding of them.

  tools/image-reference.py write DIR      writes the test files into DIR
  tools/image-reference.py frames FILE..  prints Pillow's decoding of each FILE as JSON lines:
      {"file", "width", "height", "loop" (null: none), "frames": [{"duration" (ms), "rgba" (hex)}]}

The GIFs are written byte by byte (not by Pillow's encoder, which rewrites frames into its
own rectangles and disposals) so each one pins what it is named for: disposal modes, the
transparent index, local and global colour tables, interlacing, frame rectangles, the
NETSCAPE2.0 loop count. Their LZW data is stored uncompressed (a clear code every 254
pixels keeps the codes 9 bits wide), which every decoder reads. The WebPs come from Pillow's
encoder (WebPAnimEncoder). Files named "bomb-*" or "broken-*" are the limits' and the
refusals' cases: Pillow is not asked to decode them.
"""
import json
import os
import struct
import sys

from PIL import Image


def lzw_uncompressed(indices, min_code_size=8):
    """LZW data for `indices` with every pixel a literal code."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    codes = []
    for i, p in enumerate(indices):
        if i % 254 == 0:
            codes.append(clear)
        codes.append(p)
    codes.append(end)
    out, acc, bits = bytearray(), 0, 0
    for c in codes:
        acc |= c << bits
        bits += width
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    if bits:
        out.append(acc & 0xFF)
    blocks = bytearray([min_code_size])
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")


def palette_bytes(colors):
    """A 256-entry colour table (unused entries black)."""
    table = list(colors) + [(0, 0, 0)] * (256 - len(colors))
    return b"".join(bytes(c) for c in table)


def gif(width, height, frames, global_colors=None, loop=None, trailer=True):
    """A GIF. Each frame: dict(rect=(x, y, w, h), pixels=[index...] row by row, delay=cs,
    disposal=0..3, transparent=index or None, colors=local table or None, interlace=bool,
    control=False to leave out the graphic control extension)."""
    flags = 0xF7 if global_colors is not None else 0x70
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, flags, 0, 0))
    if global_colors is not None:
        out += palette_bytes(global_colors)
    if loop is not None:
        out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for f in frames:
        if f.get("control", True):
            transparent = f.get("transparent")
            packed = (f.get("disposal", 0) << 2) | (1 if transparent is not None else 0)
            out += b"\x21\xf9\x04" + struct.pack("<BHB", packed, f.get("delay", 10), transparent or 0) + b"\x00"
        x, y, w, h = f["rect"]
        local = f.get("colors")
        packed = (0x87 if local is not None else 0) | (0x40 if f.get("interlace") else 0)
        out += b"\x2c" + struct.pack("<HHHHB", x, y, w, h, packed)
        if local is not None:
            out += palette_bytes(local)
        rows = [f["pixels"][r * w:(r + 1) * w] for r in range(h)]
        if f.get("interlace"):
            order = [r for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for r in range(start, h, step)]
            rows = [rows[r] for r in order]
        out += lzw_uncompressed([p for row in rows for p in row])
    if trailer:
        out += b"\x3b"
    return bytes(out)


RED, GREEN, BLUE, WHITE, YELLOW = (255, 0, 0), (0, 200, 0), (0, 0, 255), (255, 255, 255), (250, 200, 20)
PALETTE = [(0, 0, 0), RED, GREEN, BLUE, WHITE, YELLOW, (128, 128, 128), (10, 20, 30)]


def fill(w, h, index):
    return [index] * (w * h)


def pattern(w, h, a, b):
    """A checkerboard of two indices."""
    return [a if (x + y) % 2 == 0 else b for y in range(h) for x in range(w)]


def test_gifs():
    files = {}
    # Disposal 1 (keep): a red background, then a blue 2x2 square at (1, 1) drawn over it, then
    # a green one at (4, 4) over both.
    files["dispose-keep.gif"] = gif(8, 8, [
        dict(rect=(0, 0, 8, 8), pixels=fill(8, 8, 1), delay=10, disposal=1),
        dict(rect=(1, 1, 2, 2), pixels=fill(2, 2, 3), delay=20, disposal=1),
        dict(rect=(4, 4, 3, 3), pixels=fill(3, 3, 2), delay=30, disposal=1),
    ], PALETTE, loop=0)
    # Disposal 2 (background): each square is cleared to transparent before the next frame;
    # the transparent index is set, so Pillow clears to transparent too.
    files["dispose-background.gif"] = gif(8, 8, [
        dict(rect=(0, 0, 8, 8), pixels=fill(8, 8, 7), delay=10, disposal=1, transparent=7),
        dict(rect=(1, 1, 3, 3), pixels=fill(3, 3, 3), delay=10, disposal=2, transparent=7),
        dict(rect=(4, 2, 3, 3), pixels=pattern(3, 3, 2, 7), delay=10, disposal=2, transparent=7),
        dict(rect=(0, 6, 8, 2), pixels=fill(16, 1, 4), delay=10, disposal=1, transparent=7),
    ], PALETTE, loop=0)
    # Disposal 3 (previous): a white frame kept, a red square shown then restored, a blue one.
    files["dispose-previous.gif"] = gif(8, 8, [
        dict(rect=(0, 0, 8, 8), pixels=pattern(8, 8, 4, 6), delay=10, disposal=1),
        dict(rect=(2, 2, 4, 4), pixels=fill(4, 4, 1), delay=10, disposal=3),
        dict(rect=(3, 3, 4, 4), pixels=fill(4, 4, 3), delay=10, disposal=3),
        dict(rect=(0, 0, 2, 2), pixels=fill(4, 1, 2), delay=10, disposal=1),
    ], PALETTE, loop=0)
    # Transparency: every frame has a transparent index (a different one in the last), so
    # what is below shows through its holes.
    files["transparency.gif"] = gif(6, 6, [
        dict(rect=(0, 0, 6, 6), pixels=pattern(6, 6, 5, 0), delay=10, disposal=1, transparent=0),
        dict(rect=(0, 0, 6, 6), pixels=[(x * 3 + y * 2) % 4 for y in range(6) for x in range(6)], delay=10,
             disposal=1, transparent=3),
        dict(rect=(1, 1, 4, 4), pixels=pattern(4, 4, 4, 2), delay=10, disposal=1, transparent=2),
    ], PALETTE, loop=0)
    # Local colour tables over a global one, and a frame with only a local table in a file
    # without a global one is the next file.
    files["local-colors.gif"] = gif(6, 4, [
        dict(rect=(0, 0, 6, 4), pixels=[(x + y) % 4 for y in range(4) for x in range(6)], delay=10, disposal=1),
        dict(rect=(0, 0, 6, 4), pixels=[(x * y) % 4 for y in range(4) for x in range(6)], delay=10, disposal=1,
             colors=[(200, 100, 50), (50, 100, 200), (10, 250, 10), (250, 250, 250)]),
        dict(rect=(2, 1, 2, 2), pixels=[0, 1, 2, 3], delay=10, disposal=1),
    ], PALETTE, loop=0)
    files["local-only.gif"] = gif(4, 4, [
        dict(rect=(0, 0, 4, 4), pixels=[(x + 2 * y) % 3 for y in range(4) for x in range(4)], delay=10,
             colors=[(90, 0, 0), (0, 90, 0), (0, 0, 90)]),
        dict(rect=(0, 0, 4, 4), pixels=[(x * 2 + y) % 3 for y in range(4) for x in range(4)], delay=10,
             colors=[(255, 128, 0), (0, 128, 255), (128, 255, 0)]),
    ], None, loop=0)
    # Interlaced frames of 11 rows (every pass has rows, and the last pass is short).
    files["interlaced.gif"] = gif(5, 11, [
        dict(rect=(0, 0, 5, 11), pixels=[(y % 7) + (1 if x == y % 5 else 0) for y in range(11) for x in range(5)],
             delay=10, disposal=1, interlace=True),
        dict(rect=(1, 2, 3, 9), pixels=[(x + y) % 6 for y in range(9) for x in range(3)], delay=10, disposal=1,
             interlace=True),
    ], PALETTE, loop=0)
    # Delays: 0 and 1 centisecond (shown for 100 ms), 2, 50; three plays (loop count 2).
    files["delays.gif"] = gif(2, 2, [
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 1), delay=0),
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 2), delay=1),
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 3), delay=2),
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 4), delay=50),
    ], PALETTE, loop=2)
    # No NETSCAPE2.0 extension: one play.
    files["no-loop.gif"] = gif(2, 2, [
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 1), delay=10),
        dict(rect=(0, 0, 2, 2), pixels=fill(2, 2, 2), delay=10),
    ], PALETTE)
    # One frame: a still image, as a PNG is.
    files["still.gif"] = gif(3, 2, [dict(rect=(0, 0, 3, 2), pixels=[1, 2, 3, 4, 5, 0], control=False)], PALETTE)
    # Disposal 2 without a transparent index: browsers (and signd) clear to transparent,
    # Pillow paints the background colour, so this one is pinned without Pillow.
    files["x-dispose-background-opaque.gif"] = gif(4, 4, [
        dict(rect=(0, 0, 4, 4), pixels=fill(4, 4, 1), delay=10, disposal=2),
        dict(rect=(1, 1, 2, 2), pixels=fill(2, 2, 3), delay=10, disposal=1),
    ], PALETTE, loop=0)

    # The limits' cases.
    files["bomb-screen.gif"] = gif(60000, 60000, [dict(rect=(0, 0, 1, 1), pixels=[1])], PALETTE)
    files["bomb-frame.gif"] = gif(8, 8, [dict(rect=(0, 0, 5000, 1), pixels=fill(5000, 1, 1))], PALETTE)
    files["bomb-frames.gif"] = gif(1, 1, [dict(rect=(0, 0, 1, 1), pixels=[i % 5]) for i in range(1100)],
                                   PALETTE, loop=0)
    # 2000x2000 canvas (4,000,000 pixels, within the still limit) twice is past the total.
    files["bomb-total.gif"] = gif(2000, 2000, [dict(rect=(0, 0, 1, 1), pixels=[1])] * 2, PALETTE, loop=0)
    whole = gif(8, 8, [dict(rect=(0, 0, 8, 8), pixels=fill(8, 8, 1), delay=10),
                       dict(rect=(0, 0, 8, 8), pixels=fill(8, 8, 2), delay=10)], PALETTE, loop=0)
    files["broken-truncated.gif"] = whole[:len(whole) - 40]
    files["broken-header.gif"] = whole[:9]
    files["broken-garbage.gif"] = b"GIF89a" + bytes((i * 37 + 11) % 256 for i in range(500))
    # Frame rectangles partly and wholly off the logical screen, one cleared by disposal 2:
    # what lies off the screen is not drawn (signd's own rule; not compared with Pillow).
    files["x-offscreen.gif"] = gif(4, 4, [
        dict(rect=(0, 0, 4, 4), pixels=fill(4, 4, 1), delay=10, disposal=1),
        dict(rect=(2, 2, 4, 4), pixels=fill(4, 4, 3), delay=10, disposal=1),
        dict(rect=(9, 1, 3, 3), pixels=fill(3, 3, 2), delay=10, disposal=2),
        dict(rect=(1, 7, 2, 2), pixels=fill(2, 2, 2), delay=10, disposal=1),
    ], PALETTE, loop=0)
    return files


def test_webps(directory):
    """Animated and still WebPs through Pillow's encoder, and broken ones."""
    def frame(w, h, f):
        im = Image.new("RGBA", (w, h))
        im.putdata([f(x, y) for y in range(h) for x in range(w)])
        return im
    frames = [
        frame(8, 6, lambda x, y: (255, 0, 0, 255) if x < 4 else (0, 0, 0, 0)),
        frame(8, 6, lambda x, y: (0, 0, 255, 255) if (x + y) % 3 == 0 else (0, 0, 0, 0)),
        frame(8, 6, lambda x, y: (0, 200, 0, 128) if y < 3 else (255, 255, 255, 255)),
    ]
    frames[0].save(os.path.join(directory, "anim.webp"), save_all=True, append_images=frames[1:],
                   duration=[40, 120, 250], loop=3, lossless=True, exact=True)
    frames[0].save(os.path.join(directory, "anim-forever.webp"), save_all=True, append_images=frames[1:],
                   duration=[100, 100, 100], loop=0, lossless=True)
    frames[2].save(os.path.join(directory, "still.webp"), lossless=True, exact=True)
    many = [frame(1, 1, lambda x, y, i=i: (i % 256, 0, 0, 255)) for i in range(1100)]
    many[0].save(os.path.join(directory, "bomb-frames.webp"), save_all=True, append_images=many[1:],
                 duration=50, loop=0, lossless=True)
    with open(os.path.join(directory, "anim.webp"), "rb") as f:
        data = f.read()
    with open(os.path.join(directory, "broken-truncated.webp"), "wb") as f:
        f.write(data[:len(data) // 2])
    with open(os.path.join(directory, "broken-garbage.webp"), "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 400) + b"WEBP" + bytes((i * 53 + 7) % 256 for i in range(400)))
    # A VP8X header claiming a 16384x16384 canvas (the format's limit), with one tiny frame.
    small = [frame(1, 1, lambda x, y: (1, 2, 3, 255)), frame(1, 1, lambda x, y: (3, 2, 1, 255))]
    small[0].save(os.path.join(directory, "tiny.webp"), save_all=True, append_images=small[1:], duration=50,
                  lossless=True)
    with open(os.path.join(directory, "tiny.webp"), "rb") as f:
        tiny = bytearray(f.read())
    os.remove(os.path.join(directory, "tiny.webp"))
    at = tiny.index(b"VP8X") + 8 + 4
    tiny[at:at + 3] = struct.pack("<I", 16383)[:3]
    tiny[at + 3:at + 6] = struct.pack("<I", 16383)[:3]
    with open(os.path.join(directory, "bomb-screen.webp"), "wb") as f:
        f.write(bytes(tiny))


def write(directory):
    os.makedirs(directory, exist_ok=True)
    for name, data in test_gifs().items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    test_webps(directory)


def frames(path):
    im = Image.open(path)
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        rgba = im.convert("RGBA")
        out.append({"duration": im.info.get("duration", 0), "rgba": rgba.tobytes().hex()})
    return {"file": os.path.basename(path), "width": im.width, "height": im.height,
            "loop": im.info.get("loop"), "frames": out}


def main(argv):
    if len(argv) >= 3 and argv[1] == "write":
        write(argv[2])
    elif len(argv) >= 3 and argv[1] == "frames":
        for path in argv[2:]:
            print(json.dumps(frames(path)))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
