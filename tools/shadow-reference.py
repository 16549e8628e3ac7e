#!/usr/bin/env python3
"""The reference signd's shadows of transformed layers are checked against: cairo (pycairo)
draws a solid layer through a rotation and scale (bilinear filter, no extend, as
tools/transform-reference.py), and its alpha on the board is blurred here by a Gaussian of
standard deviation shadowRadius (each tap the Gaussian integrated over a pixel, with erf) and
moved by shadowOffset, both in the board's pixels, not the layer's; the shadow colour at
shadowOpacity is painted with that coverage and the layer over it, over black.

Reads one JSON object on stdin: {"width", "height" (the board), "layer": {"width",
"height", "color" [r, g, b]}, "angle" (degrees, clockwise on the board), "scale",
"position" [x, y] (where the anchor lands), "anchor" [x, y] (in the layer's pixels),
"shadow": {"color" [r, g, b], "opacity", "radius", "offset" [dx, dy]}}. Writes the board as
a JSON list of r, g, b bytes.
"""
import json
import math
import sys

import cairo
from cairo_projection import project


def taps(sigma, phase):
    """Weights of a Gaussian of `sigma` centred at `phase`, each integrated over a pixel:
    output x reads source x - d with weight taps[d]; d spans 3 sigma and a pixel each side."""
    if sigma <= 0:
        # A hard edge: the whole pixel at the offset's whole part (phase is 0 here).
        return {0: 1.0}
    reach = int(math.ceil(3 * sigma)) + 2
    cdf = lambda u: 0.5 * (1 + math.erf(u / (sigma * math.sqrt(2))))
    return {d: cdf(d - phase + 0.5) - cdf(d - phase - 0.5) for d in range(-reach, reach + 1)}


def main():
    job = json.load(sys.stdin)
    w, h = job["width"], job["height"]
    lw, lh = job["layer"]["width"], job["layer"]["height"]
    lr, lg, lb = job["layer"]["color"]
    image = cairo.ImageSurface(cairo.FORMAT_ARGB32, lw, lh)
    ictx = cairo.Context(image)
    ictx.set_source_rgb(lr / 255, lg / 255, lb / 255)
    ictx.paint()
    image.flush()

    board = project(image, job)
    data = board.get_data()
    stride = board.get_stride()
    # Premultiplied b, g, r, a of the projected layer.
    layer = [[tuple(data[y * stride + x * 4:y * stride + x * 4 + 4]) for x in range(w)] for y in range(h)]
    alpha = [[layer[y][x][3] / 255 for x in range(w)] for y in range(h)]

    shadow = job["shadow"]
    sigma = shadow["radius"]
    dx, dy = shadow["offset"]
    sx, sy = math.floor(dx), math.floor(dy)
    kx, ky = taps(sigma, dx - sx), taps(sigma, dy - sy)
    # Across, then down; output x reads source x - sx - d.
    rows = [[sum(wt * alpha[y][x - sx - d] for d, wt in kx.items() if 0 <= x - sx - d < w) for x in range(w)]
            for y in range(h)]
    blurred = [[sum(wt * rows[y - sy - d][x] for d, wt in ky.items() if 0 <= y - sy - d < h) for x in range(w)]
               for y in range(h)]

    sr, sg, sb = shadow["color"]
    opacity = shadow["opacity"]
    rgb = []
    for y in range(h):
        for x in range(w):
            b, g, r, a = layer[y][x]
            s = min(max(blurred[y][x], 0), 1) * opacity
            under = 1 - a / 255
            rgb += [round(r + under * s * sr), round(g + under * s * sg), round(b + under * s * sb)]
    json.dump(rgb, sys.stdout)


main()
