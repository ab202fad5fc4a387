#!/usr/bin/python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""ansi2png.py -- render a terminal screen captured with `tmux capture-pane -e -p`
(text with SGR escapes: bold, reverse, 8 colours) to a PNG, one monospace cell a
character. Uses Debian's python3-pil and the DejaVu Sans Mono font.

    ansi2png.py SCREEN.txt OUT.png [COLUMNS ROWS]
"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
FG, BG = (220, 220, 220), (24, 26, 30)
PALETTE = [(24, 26, 30), (220, 80, 80), (110, 200, 110), (220, 200, 90),
           (100, 150, 230), (200, 110, 210), (90, 200, 210), (220, 220, 220)]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def cells(line):
    """Yields (char, fg, bg, bold) for one line, following the SGR state."""
    fg, bg, bold, rev = None, None, False, False
    pos = 0
    for m in list(SGR.finditer(line)) + [None]:
        end = m.start() if m else len(line)
        for ch in line[pos:end]:
            f, b = fg or FG, bg or BG
            yield ch, (b if rev else f), (f if rev else b), bold
        if not m:
            break
        pos = m.end()
        codes = [int(c) if c else 0 for c in m.group(1).split(";")]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg, bg, bold, rev = None, None, False, False
            elif c == 1:
                bold = True
            elif c == 22:
                bold = False
            elif c == 7:
                rev = True
            elif c == 27:
                rev = False
            elif 30 <= c <= 37:
                fg = PALETTE[c - 30]
            elif c == 39:
                fg = None
            elif 40 <= c <= 47:
                bg = PALETTE[c - 40]
            elif c == 49:
                bg = None
            elif c in (38, 48):  # 256 colours / RGB: skip the arguments
                i += 2 if i + 1 < len(codes) and codes[i + 1] == 5 else 4
            i += 1


def main():
    src, out = sys.argv[1], sys.argv[2]
    lines = open(src, encoding="utf-8", errors="replace").read().split("\n")
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else max(len(SGR.sub("", l)) for l in lines)
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else len(lines)
    font, bold = ImageFont.truetype(FONT, 15), ImageFont.truetype(BOLD, 15)
    cw = int(font.getlength("M"))
    ch = int(sum(font.getmetrics()) * 1.15)
    img = Image.new("RGB", (cols * cw + 16, rows * ch + 16), BG)
    draw = ImageDraw.Draw(img)
    for y, line in enumerate(lines[:rows]):
        x = 0
        for c, f, b, bd in cells(line):
            if x >= cols:
                break
            px, py = 8 + x * cw, 8 + y * ch
            if b != BG:
                draw.rectangle([px, py, px + cw - 1, py + ch - 1], fill=b)
            if c != " ":
                draw.text((px, py), c, font=bold if bd else font, fill=f)
            x += 1
        # reverse video to the end of the line, as curses fills it
    img.save(out)


if __name__ == "__main__":
    main()
