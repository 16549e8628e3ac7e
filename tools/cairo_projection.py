"""What the cairo reference scripts share: a layer's image drawn onto the board as signd
places a transformed layer (the anchor at `position`, turned by `angle` degrees clockwise,
scaled by `scale`), with cairo's bilinear filter and no extend (transparent beyond the
image). Imported by tools/transform-reference.py and tools/shadow-reference.py."""
import math

import cairo


def project(image, job, background=None):
    """A board of `job`'s width and height (cleared, or painted `background` as r, g, b in 0-1)
    with `image` drawn on it through `job`'s angle, scale, position and anchor."""
    board = cairo.ImageSurface(cairo.FORMAT_ARGB32, job["width"], job["height"])
    ctx = cairo.Context(board)
    if background is not None:
        ctx.set_source_rgb(*background)
        ctx.paint()
    ctx.translate(*job["position"])
    ctx.rotate(job["angle"] * math.pi / 180)
    ctx.scale(job["scale"], job["scale"])
    ctx.translate(-job["anchor"][0], -job["anchor"][1])
    ctx.set_source_surface(image, 0, 0)
    pattern = ctx.get_source()
    pattern.set_filter(cairo.FILTER_BILINEAR)
    pattern.set_extend(cairo.EXTEND_NONE)
    ctx.paint()
    board.flush()
    return board
