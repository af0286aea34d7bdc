"""Renders a terminal capture with ANSI colours (`tmux capture-pane -e -p`) to a standalone SVG.

Python standard library only. Understands the SGR sequences a terminal program sends: the 16
colours and their bright forms, the 256-colour palette, truecolor, bold, dim, italic,
underline and inverse; any other escape sequence is dropped. Every run of text is placed at its
terminal column (wide characters take two cells), so the picture keeps the screen's layout
whatever monospace font the viewer has.

    python3 scripts/ansi_svg.py CAPTURE.ansi OUT.svg [--title TITLE]
"""

import argparse
import copy
import html
import re
import unicodedata

# The screen's default colours and the 16 basic ones (a dark terminal theme).
BACKGROUND = "#1e1e1e"
FOREGROUND = "#d4d4d4"
BASIC = [
    "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
    "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
]

FONT = (
    "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', "
    "'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Apple Symbols', monospace"
)
FONT_SIZE = 14
CELL_WIDTH = 8.4  # 0.6 em: the advance of a monospace font
LINE_HEIGHT = 18
PADDING = 16
TITLE_BAR = 32

# Block elements drawn as rectangles (fractions of a cell: x0, y0, x1, y1) so bars and the
# client's logo join without the seams a font's glyphs leave; shades as an opacity.
UPPER_LEFT, UPPER_RIGHT, LOWER_LEFT, LOWER_RIGHT = (0, 0, .5, .5), (.5, 0, 1, .5), (0, .5, .5, 1), (.5, .5, 1, 1)
BLOCKS = {
    "█": [(0, 0, 1, 1)], "▀": [(0, 0, 1, .5)], "▄": [(0, .5, 1, 1)], "▐": [(.5, 0, 1, 1)],
    "▔": [(0, 0, 1, .125)], "▕": [(.875, 0, 1, 1)],
    "▘": [UPPER_LEFT], "▝": [UPPER_RIGHT], "▖": [LOWER_LEFT], "▗": [LOWER_RIGHT],
    "▚": [UPPER_LEFT, LOWER_RIGHT], "▞": [UPPER_RIGHT, LOWER_LEFT],
    "▛": [UPPER_LEFT, UPPER_RIGHT, LOWER_LEFT], "▜": [UPPER_LEFT, UPPER_RIGHT, LOWER_RIGHT],
    "▙": [UPPER_LEFT, LOWER_LEFT, LOWER_RIGHT], "▟": [UPPER_RIGHT, LOWER_LEFT, LOWER_RIGHT],
    **{chr(0x2588 + n): [(0, 0, (8 - n) / 8, 1)] for n in range(1, 8)},  # ▉ … ▏ left eighths
    **{chr(0x2580 + n): [(0, 1 - n / 8, 1, 1)] for n in range(1, 8)},  # ▁ … ▇ lower eighths
}
SHADES = {"░": .25, "▒": .5, "▓": .75}

# Plain ASCII runs, runs of full or light blocks (one rectangle each), and every other
# character on its own: a symbol the font lacks comes from a fallback font of another width,
# so it gets its own cell's position.
PIECE = re.compile(r"[ -~]+|█+|░+|.")
ESCAPE = re.compile(r"\x1b(?:\[([0-9;:?]*)([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-_])")


def palette(index):
    """The xterm 256-colour palette: 16 basic colours, a 6x6x6 cube, 24 greys."""
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        red, green, blue = index // 36, index // 6 % 6, index % 6
        return "#%02x%02x%02x" % (levels[red], levels[green], levels[blue])
    grey = 8 + 10 * (index - 232)
    return "#%02x%02x%02x" % (grey, grey, grey)


class Style:
    """The graphic rendition in force: colours (None is the default) and attributes."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.inverse = False

    def apply(self, params):
        """Applies one SGR sequence's parameters (`1;38;5;196`, `38:2::255:0:0`, ``)."""
        codes = [int(p) if p.isdigit() else 0 for p in re.split("[;:]", params)] if params else [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.reset()
            elif code == 1:
                self.bold = True
            elif code == 2:
                self.dim = True
            elif code == 3:
                self.italic = True
            elif code == 4:
                self.underline = True
            elif code == 7:
                self.inverse = True
            elif code == 22:
                self.bold = self.dim = False
            elif code == 23:
                self.italic = False
            elif code == 24:
                self.underline = False
            elif code == 27:
                self.inverse = False
            elif 30 <= code <= 37 or 90 <= code <= 97:
                self.fg = BASIC[code - 30 if code < 90 else code - 82]
            elif 40 <= code <= 47 or 100 <= code <= 107:
                self.bg = BASIC[code - 40 if code < 100 else code - 92]
            elif code == 39:
                self.fg = None
            elif code == 49:
                self.bg = None
            elif code in (38, 48):
                colour, used = extended(codes[i + 1:], params)
                if code == 38:
                    self.fg = colour
                else:
                    self.bg = colour
                i += used
            i += 1

    def colours(self):
        """(text colour, background colour or None) as drawn: inverse swaps them."""
        fg, bg = self.fg or FOREGROUND, self.bg
        if self.inverse:
            fg, bg = bg or BACKGROUND, fg
        return fg, bg


def extended(rest, params):
    """The colour after 38/48 (`5;N`, `2;R;G;B` or `2::R:G:B`) and how many codes it took."""
    if rest[:1] == [5] and len(rest) >= 2:
        return palette(rest[1] % 256), 2
    if rest[:1] == [2] and len(rest) >= 4:
        # The colon form may carry a colour-space id before the components.
        used = 5 if ":" in params and len(rest) >= 5 else 4
        red, green, blue = (min(value, 255) for value in rest[used - 3:used])
        return "#%02x%02x%02x" % (red, green, blue), used
    return None, len(rest)


def cells(char):
    """How many terminal cells `char` takes."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def runs(line, style):
    """The line's runs of one style: (column, cells, text, Style); `style` carries over."""
    out = []
    column = position = 0
    for match in [*ESCAPE.finditer(line), None]:
        end = match.start() if match else len(line)
        text = "".join(char for char in line[position:end] if unicodedata.category(char) != "Cc")
        for piece in PIECE.findall(text):
            width = sum(cells(char) for char in piece)
            out.append((column, width, piece, copy.copy(style)))
            column += width
        if match is None:
            return out
        position = match.end()
        if match.group(2) == "m":
            style.apply(match.group(1) or "")


def render(capture, title=None):
    """The SVG document for `capture` (the text `tmux capture-pane -e -p` printed)."""
    style = Style()
    lines = capture.rstrip("\n").split("\n")
    while lines and not ESCAPE.sub("", lines[-1]).strip():
        lines.pop()
    rows = [runs(line, style) for line in lines]
    columns = max((start + width for row in rows for start, width, _, _ in row), default=0)
    top = PADDING + (TITLE_BAR if title is not None else 0)
    width = round(2 * PADDING + columns * CELL_WIDTH)
    height = round(top + len(rows) * LINE_HEIGHT + PADDING)
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (width, height, width, height),
        '<rect width="100%%" height="100%%" rx="8" fill="%s"/>' % BACKGROUND,
    ]
    if title is not None:
        out.append(window_bar(width, title))
    out.append('<g font-family="%s" font-size="%d" xml:space="preserve">' % (html.escape(FONT), FONT_SIZE))
    for number, row in enumerate(rows):
        y = top + number * LINE_HEIGHT
        for start, count, text, style in row:
            out.extend(draw(start, count, text, style, y))
    out.append("</g>\n</svg>\n")
    return "\n".join(out)


def draw(start, count, text, style, y):
    """The SVG elements of one run: its background, then its text or blocks."""
    fill, background = style.colours()
    x = PADDING + start * CELL_WIDTH
    span = count * CELL_WIDTH
    elements = []
    if background:
        elements.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>' % (x, y, span, LINE_HEIGHT, background))
    if not text.strip():
        return elements
    if text[0] in BLOCKS or text[0] in SHADES:
        opacity = SHADES.get(text[0], 1) * (0.6 if style.dim else 1)
        return elements + block(text[0], count, x, y, fill, opacity)
    attributes = ['x="%.1f" y="%.1f"' % (x, y + LINE_HEIGHT * 0.75)]
    if count > 1:
        attributes.append('textLength="%.1f"' % span)
    attributes.append('fill="%s"' % fill)
    if style.bold:
        attributes.append('font-weight="bold"')
    if style.dim:
        attributes.append('fill-opacity="0.6"')
    if style.italic:
        attributes.append('font-style="italic"')
    if style.underline:
        attributes.append('text-decoration="underline"')
    elements.append("<text %s>%s</text>" % (" ".join(attributes), html.escape(text, quote=False)))
    return elements


def block(char, count, x, y, fill, opacity):
    """`count` cells of a block element, as rectangles filling its parts of each cell. One
    reaching the cell's right edge overlaps the next by a hair, so no seam shows between them."""
    shade = ' fill-opacity="%g"' % opacity if opacity < 1 else ""
    parts = BLOCKS.get(char, [(0, 0, 1, 1)])
    if count > 1:
        parts = [(0, 0, count, 1)]
    return [
        '<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"%s/>'
        % (
            x + x0 * CELL_WIDTH,
            y + y0 * LINE_HEIGHT,
            (x1 - x0) * CELL_WIDTH + (0.3 if x1 >= 1 else 0),
            (y1 - y0) * LINE_HEIGHT,
            fill,
            shade,
        )
        for x0, y0, x1, y1 in parts
    ]


def window_bar(width, title):
    """A terminal window's title bar: three dots and the title."""
    dots = "".join(
        '<circle cx="%d" cy="%d" r="6" fill="%s"/>' % (PADDING + 6 + 20 * i, TITLE_BAR // 2 + 4, colour)
        for i, colour in enumerate(["#ff5f56", "#ffbd2e", "#27c93f"])
    )
    label = '<text x="%d" y="%d" text-anchor="middle" fill="#9a9a9a" font-family="%s" font-size="13">%s</text>' % (
        width // 2, TITLE_BAR // 2 + 8, html.escape(FONT), html.escape(title, quote=False))
    return dots + label


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture", help="the ANSI capture (tmux capture-pane -e -p)")
    parser.add_argument("svg", help="the SVG to write")
    parser.add_argument("--title", help="a title bar with this text")
    args = parser.parse_args()
    with open(args.capture, encoding="utf-8", errors="replace") as capture:
        svg = render(capture.read(), args.title)
    with open(args.svg, "w", encoding="utf-8") as out:
        out.write(svg)


if __name__ == "__main__":
    main()
