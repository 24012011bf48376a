"""SVG building blocks shared by the boards: the document, shapes, text and dice.

Every function returns markup as a string; nothing here knows a game. Numbers are
written with at most two decimals so the output is stable and compact.
"""

from __future__ import annotations

from html import escape

#: Fill and outline of each seat's pieces (seat 0 ivory, seat 1 dark red, then more).
SEAT_FILL = ("#f6f0e1", "#8b1e2d", "#1f5f8b", "#d9a521", "#4c8a3c", "#6b3fa0")
SEAT_STROKE = ("#5a5040", "#3d0a12", "#0d2c41", "#6b500c", "#1f3d18", "#2e1a47")
HIGHLIGHT = "#ffd54a"


def num(value: float) -> str:
    """A coordinate without trailing zeros: ``12``, ``12.5``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def attrs(**values: object) -> str:
    """``key="value"`` pairs (underscores become dashes; None values are left out)."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        text = num(value) if isinstance(value, float) else str(value)
        out.append(f'{key.rstrip("_").replace("_", "-")}="{escape(text)}"')
    return " ".join(out)


def document(width: float, height: float, body: list[str], size: int | None, title: str) -> str:
    """A standalone SVG of ``width`` x ``height`` user units, ``size`` pixels wide."""
    if size is not None and (not isinstance(size, int) or size < 16 or size > 10_000):
        raise ValueError(f"size is a width in pixels from 16 to 10000, not {size!r}")
    shown_w = size if size is not None else width
    shown_h = shown_w * height / width
    head = attrs(
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {num(width)} {num(height)}",
        width=num(shown_w),
        height=num(shown_h),
        role="img",
    )
    return f"<svg {head}><title>{escape(title)}</title>{''.join(body)}</svg>"


def rect(x: float, y: float, w: float, h: float, **style: object) -> str:
    return f"<rect {attrs(x=float(x), y=float(y), width=float(w), height=float(h), **style)}/>"


def circle(cx: float, cy: float, r: float, **style: object) -> str:
    return f"<circle {attrs(cx=float(cx), cy=float(cy), r=float(r), **style)}/>"


def line(x1: float, y1: float, x2: float, y2: float, **style: object) -> str:
    points = {"x1": float(x1), "y1": float(y1), "x2": float(x2), "y2": float(y2)}
    return f"<line {attrs(**points, **style)}/>"


def polygon(points: list[tuple[float, float]], **style: object) -> str:
    coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f"<polygon {attrs(points=coords, **style)}/>"


def text(x: float, y: float, content: str, size: float = 12, **style: object) -> str:
    style.setdefault("text_anchor", "middle")
    style.setdefault("font_family", "sans-serif")
    head = attrs(x=float(x), y=float(y), font_size=float(size), **style)
    return f"<text {head}>{escape(content)}</text>"


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def die(
    x: float,
    y: float,
    side: float,
    face: int,
    fill: str = "#fdfdfd",
    pips: str = "#222",
    **style: object,
) -> str:
    """A die showing ``face`` (1..6) with its top-left corner at (x, y)."""
    if face not in _PIPS:
        raise ValueError(f"a die shows 1 to 6, not {face!r}")
    style.setdefault("stroke", "#333")
    parts = [rect(x, y, side, side, rx=side * 0.18, fill=fill, **style)]
    cx, cy, step = x + side / 2, y + side / 2, side * 0.27
    parts += [
        circle(cx + dx * step, cy + dy * step, side * 0.09, fill=pips) for dx, dy in _PIPS[face]
    ]
    return "<g>" + "".join(parts) + "</g>"
