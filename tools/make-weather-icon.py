#!/usr/bin/python3
"""Draws the animated weather icon the weather-icon example shows: a 16x16 sun whose rays
twinkle, with a cloud drifting across it and back, 8 frames of 150 ms looping forever, on a
transparent background, as the 8x8 and 16x16 icons LED clocks show (awtrix, LaMetric).
Writes it as a GIF (transparent index, disposal 2) and, with OUT.webp, as an animated WebP.

  tools/make-weather-icon.py OUT.gif [OUT.webp]
"""
import math
import sys

from PIL import Image

SIZE = 16
FRAMES = 8
SUN = (255, 200, 40, 255)
RAY = (255, 150, 0, 255)
CLOUD = (235, 240, 255, 255)
CLOUD_SHADE = (160, 175, 200, 255)


def draw(k):
    im = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    px = im.load()
    cx, cy = 6.5, 6.5
    # The sun's disc.
    for y in range(SIZE):
        for x in range(SIZE):
            if (x - cx) ** 2 + (y - cy) ** 2 <= 3.2 ** 2:
                px[x, y] = SUN
    # Eight rays, the diagonal and the straight ones taking turns to reach out.
    for r in range(8):
        angle = r * math.pi / 4
        long = (r % 2) == (k % 2)
        for d in ([4.6, 5.6] if long else [4.6]):
            x, y = round(cx + d * math.cos(angle)), round(cy + d * math.sin(angle))
            if 0 <= x < SIZE and 0 <= y < SIZE:
                px[x, y] = RAY
    # The cloud drifts right for half the loop and back.
    offset = [0, 1, 2, 3, 4, 3, 2, 1][k]
    blobs = [(6, 11, 2.6), (9, 9.5, 3.0), (12, 11, 2.4)]
    for y in range(SIZE):
        for x in range(SIZE):
            inside = any((x - (bx + offset - 2)) ** 2 + (y - by) ** 2 <= br ** 2 for bx, by, br in blobs)
            if inside and y <= 13:
                px[x, y] = CLOUD_SHADE if y >= 12 else CLOUD
    return im


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    frames = [draw(k) for k in range(FRAMES)]
    frames[0].save(argv[1], save_all=True, append_images=frames[1:], duration=150, loop=0, disposal=2)
    if len(argv) >= 3:
        frames[0].save(argv[2], save_all=True, append_images=frames[1:], duration=150, loop=0, lossless=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
