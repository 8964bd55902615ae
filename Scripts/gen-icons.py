#!/usr/bin/python3
"""Draws the page's app icons (Sources/EkiServer/Web/icon-192.png, icon-512.png and icon.svg) with
cairo (Debian's python3-cairo): the map pin of favicon.svg, white on the theme green, full-bleed so
that the icons are maskable (the pin lies inside the central 80 % safe zone).

    /usr/bin/python3 Scripts/gen-icons.py
"""
import os
import cairo

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "EkiServer", "Web")
GREEN, DARK = (0x1a / 255, 0x9b / 255, 0x3c / 255), (0x0b / 255, 0x5d / 255, 0x22 / 255)

# The pin in a 32-unit box (favicon.svg's path): a circle of radius 10 at (16, 12) drawn down to a
# point at (16, 30). Placed so that the whole pin fits in the middle 56 % of the icon.
SCALE_OF_ICON = 0.56 / 28  # the pin is 28 units tall (2 … 30)


def pin(ctx, size):
    s = size * SCALE_OF_ICON
    ox, oy = size / 2 - 16 * s, size / 2 - 16 * s
    p = lambda x, y: (ox + x * s, oy + y * s)
    ctx.move_to(*p(16, 30))
    ctx.curve_to(*p(16, 30), *p(6, 19.5), *p(6, 12))
    ctx.arc(*p(16, 12), 10 * s, 3.14159265, 0)
    ctx.curve_to(*p(26, 19.5), *p(16, 30), *p(16, 30))
    ctx.close_path()
    ctx.set_source_rgb(1, 1, 1)
    ctx.fill()
    ctx.arc(*p(16, 12), 4.2 * s, 0, 2 * 3.14159265)
    ctx.set_source_rgb(*GREEN)
    ctx.fill()


def png(size):
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*GREEN)
    ctx.paint()
    pin(ctx, size)
    path = os.path.join(WEB, f"icon-{size}.png")
    surface.write_to_png(path)
    return path


def svg():
    path = os.path.join(WEB, "icon.svg")
    surface = cairo.SVGSurface(path, 512, 512)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*GREEN)
    ctx.paint()
    pin(ctx, 512)
    surface.finish()
    return path


if __name__ == "__main__":
    for p in (png(192), png(512), svg()):
        print(os.path.relpath(p), os.path.getsize(p), "bytes")
