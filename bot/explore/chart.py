"""A PNG bar chart of explore odds (Pillow): one panel per distribution, bars labelled with %.

Pillow is imported when a chart is drawn, not when an odds answer is built."""
from __future__ import annotations

import io
from dataclasses import dataclass
from fractions import Fraction

from bot.explore.odds import Odds

WIDTH, PANEL_HEIGHT, MARGIN = 640, 190, 28
COLORS = ((46, 139, 87), (65, 105, 225), (178, 34, 34))
BACKGROUND, INK, GRID = (255, 255, 255), (40, 40, 40), (220, 220, 220)


def _font(size: int):
    from PIL import ImageFont
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # an older Pillow without sizes
        return ImageFont.load_default()


def _panel(draw: ImageDraw.ImageDraw, top: int, label: str, distribution: dict[int, Fraction], color) -> None:
    font, small = _font(15), _font(12)
    draw.text((MARGIN, top + 4), label, fill=INK, font=font)
    keys = list(range(0, max(distribution) + 1)) if distribution else [0]
    plot_top, plot_bottom = top + 44, top + PANEL_HEIGHT - 26
    draw.line((MARGIN, plot_bottom, WIDTH - MARGIN, plot_bottom), fill=GRID, width=1)
    slot = (WIDTH - 2 * MARGIN) / len(keys)
    for i, k in enumerate(keys):
        p = float(distribution.get(k, 0))
        x0 = MARGIN + i * slot + slot * 0.15
        x1 = MARGIN + (i + 1) * slot - slot * 0.15
        y0 = plot_bottom - p * (plot_bottom - plot_top)
        if p > 0:
            draw.rectangle((x0, y0, x1, plot_bottom), fill=color)
        draw.text(((x0 + x1) / 2, y0 - 4), f"{p:.1%}", fill=INK, font=small, anchor="mb")
        draw.text(((x0 + x1) / 2, plot_bottom + 4), str(k), fill=INK, font=small, anchor="mt")


def odds_png(odds: Odds, labels: tuple[str, str, str] = ("Lands to hand", "+1/+1 counters",
                                                          "Cards put into the graveyard")) -> bytes:
    """Labels are drawn in Pillow's built-in Latin font: pass them in a Latin-script language."""
    from PIL import Image, ImageDraw
    panels = [(labels[0], odds.lands_to_hand), (labels[1], odds.counters)]
    if any(k for k in odds.to_graveyard):
        panels.append((labels[2], odds.to_graveyard))
    image = Image.new("RGB", (WIDTH, PANEL_HEIGHT * len(panels) + 8), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, (label, distribution) in enumerate(panels):
        _panel(draw, 4 + i * PANEL_HEIGHT, label, distribution, COLORS[i])
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@dataclass(frozen=True)
class OddsChart:
    """The chart an odds answer comes with: its data and its labels, drawn on demand."""
    odds: Odds
    labels: tuple[str, str, str]

    def png(self) -> bytes:
        return odds_png(self.odds, self.labels)
