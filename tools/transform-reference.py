#!/usr/bin/env python3
"""The reference signd's transformed layers are checked against: cairo (pycairo) drawing the
same premultiplied pixels through the same rotation and scale with its bilinear filter and
no extend (transparent beyond the image), over black.

Reads one JSON object on stdin: {"width", "height" (the board), "source": {"width",
"height", "pixels" (premultiplied RGBA bytes, rows top to bottom)}, "angle" (degrees,
clockwise on the board), "scale", "position" [x, y] (where the anchor lands), "anchor"
[x, y] (in the source's pixels)}. Writes the board as a JSON list of r, g, b bytes.
"""
import json
import sys

import cairo
from cairo_projection import project


def main():
    job = json.load(sys.stdin)
    src = job["source"]
    sw, sh = src["width"], src["height"]
    image = cairo.ImageSurface(cairo.FORMAT_ARGB32, sw, sh)
    stride = image.get_stride()
    data = image.get_data()
    pixels = src["pixels"]
    for y in range(sh):
        for x in range(sw):
            r, g, b, a = pixels[(y * sw + x) * 4:(y * sw + x) * 4 + 4]
            # ARGB32 is a native-endian 32-bit word: little-endian bytes b, g, r, a.
            o = y * stride + x * 4
            data[o:o + 4] = bytes([b, g, r, a])
    image.mark_dirty()

    w, h = job["width"], job["height"]
    board = project(image, job, background=(0, 0, 0))

    out = board.get_data()
    bs = board.get_stride()
    rgb = []
    for y in range(h):
        for x in range(w):
            b, g, r, _ = out[y * bs + x * 4:y * bs + x * 4 + 4]
            rgb += [r, g, b]
    json.dump(rgb, sys.stdout)


main()
