#!/usr/bin/env python3
"""Draws the page's home-screen icons, Sources/PeerdWeb/Page/icon-192.png and icon-512.png: a
screen with a play mark on the page's accent colour, edge to edge so that a launcher may cut it to
any shape (the manifest says "any maskable"). Only the standard library: run it again after a change
and commit the PNGs; the binary embeds them.

    python3 scripts/make-icons.py
"""
import os
import struct
import zlib

ACCENT = (0x43, 0x38, 0xCA)
SCREEN = (0xFF, 0xFF, 0xFF)
PLAY = (0x43, 0x38, 0xCA)
SAMPLES = 3  # per axis, for smooth edges


def inside(x, y):
    """The colour at (x, y) in the unit square: the screen (a rounded rectangle inside the safe
    zone of a maskable icon), a play triangle on it, the accent around."""
    left, right, top, bottom, radius = 0.22, 0.78, 0.30, 0.68, 0.05
    dx = max(left + radius - x, 0, x - (right - radius))
    dy = max(top + radius - y, 0, y - (bottom - radius))
    if left <= x <= right and top <= y <= bottom and dx * dx + dy * dy <= radius * radius:
        # The triangle: pointing right, centred on the screen.
        ax, ay, bx, by, cx = 0.45, 0.40, 0.45, 0.58, 0.59
        if x >= ax and abs(y - (ay + by) / 2) <= (cx - x) / (cx - ax) * (by - ay) / 2:
            return PLAY
        return SCREEN
    # The stand under the screen.
    if 0.44 <= x <= 0.56 and 0.68 <= y <= 0.74 or 0.36 <= x <= 0.64 and 0.74 <= y <= 0.77:
        return SCREEN
    return ACCENT


def pixel(size, px, py):
    total = [0, 0, 0]
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            colour = inside((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)
            for i in range(3):
                total[i] += colour[i]
    return bytes(round(c / SAMPLES ** 2) for c in total)


def png(size):
    rows = b"".join(b"\x00" + b"".join(pixel(size, x, y) for x in range(size)) for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "PeerdWeb", "Page")
    for size in (192, 512):
        with open(os.path.join(page, f"icon-{size}.png"), "wb") as out:
            out.write(png(size))
