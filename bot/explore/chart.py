"""The odds of exploring as a PNG bar chart (matplotlib's Figure on the Agg canvas: no pyplot),
every word and number in the reader's language.

One panel per distribution (lands to hand, +1/+1 counters, and cards put into the graveyard when
any are), each bar labelled with its probability. The title names the explorer and the deck.
The text is drawn in Noto Sans CJK (SIL Open Font License, installed with the project as the
``noto-cjk-sans-otc`` package): one collection covering Latin with accents, Cyrillic, kana,
Hangul and the Chinese characters, with the Japanese, Korean, Simplified or Traditional Chinese
face chosen by the language.

    python -m bot.explore.chart [--out DIR] [--deck ixalan] [--explorer "Jadelight Ranger"] [--times 4] [LANG …]
"""
from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from bot.explore.odds import Odds
from bot.i18n import Messages

# the face of the collection for each language (the others read the Japanese face's Latin and Cyrillic)
FACES = {"ja": "Noto Sans CJK JP", "ko": "Noto Sans CJK KR", "zhs": "Noto Sans CJK SC", "zht": "Noto Sans CJK TC"}
DEFAULT_FACE = "Noto Sans CJK JP"
COLORS = ("#2e8b57", "#4169e1", "#b22222")
INK, GRID = "#282828", "#dcdcdc"


def font_path() -> Path:
    import noto_cjk_sans_otc
    return Path(str(noto_cjk_sans_otc.FONT_PATH))


@lru_cache(maxsize=1)
def _font_manager():
    """matplotlib's font manager with the font collection registered (once, on first use)."""
    from matplotlib import font_manager
    font_manager.fontManager.addfont(str(font_path()))
    return font_manager


def face(lang: str) -> str:
    return FACES.get(lang, DEFAULT_FACE)


def face_index(lang: str) -> int:
    """The index of ``lang``'s face in the collection (for checking its character map)."""
    for entry in _font_manager().fontManager.ttflist:
        if entry.name == face(lang) and Path(entry.fname) == font_path():
            return entry.index
    raise LookupError(face(lang))


@dataclass
class ChartText:
    """Every string the chart draws, so that a test can check the font has a glyph for each."""
    title: str
    subtitle: str
    panels: list[tuple[str, dict[int, Fraction]]]
    x_label: str
    y_label: str
    bar_labels: list[list[str]]
    x_ticks: list[list[str]]
    y_ticks: list[str]

    def strings(self) -> list[str]:
        return [self.title, self.subtitle, self.x_label, self.y_label, *self.y_ticks,
                *(label for label, _ in self.panels), *(s for row in self.bar_labels + self.x_ticks for s in row)]

    def key(self) -> tuple:
        """Everything the chart shows: the same key, the same picture."""
        return (tuple(self.strings()), tuple(tuple(sorted(d.items())) for _, d in self.panels))


Y_TICKS = (0, 0.25, 0.5, 0.75, 1)


def chart_text(odds: Odds, msg: Messages, explorer: str, deck: str) -> ChartText:
    panels = [(msg._("Lands to hand"), odds.lands_to_hand), (msg._("+1/+1 counters"), odds.counters)]
    if any(k for k in odds.to_graveyard):
        panels.append((msg._("Cards put into the graveyard"), odds.to_graveyard))
    policy = msg._("keep on top") if odds.policy == "keep" else msg._("graveyard")
    keys = [list(range(0, max(d) + 1)) for _, d in panels]
    return ChartText(
        title=f"{msg._('Odds')} — {explorer}",
        subtitle=" · ".join((msg._("Deck: {deck}", deck=deck), msg._("Explores: {count}", count=msg.number(odds.times)),
                             msg._("Revealed nonland cards: {policy}", policy=policy))),
        panels=panels,
        x_label=msg._("Number"),
        y_label=msg._("Probability"),
        bar_labels=[[msg.percent(d.get(k, 0), 1) for k in ks] for ks, (_, d) in zip(keys, panels)],
        x_ticks=[[msg.number(k) for k in ks] for ks in keys],
        y_ticks=[msg.percent(v, 0) for v in Y_TICKS],
    )


# Charts drawn lately, by what they show: the same odds for a reader of the same language are the
# same picture, which costs about 0.2 s of CPU to draw and 50 KB to keep.
CHARTS_KEPT = 64
_drawn: OrderedDict[tuple, bytes] = OrderedDict()
_drawn_lock = threading.Lock()


def _kept(key: tuple) -> bytes | None:
    with _drawn_lock:
        png = _drawn.get(key)
        if png is not None:
            _drawn.move_to_end(key)
        return png


def kept_png(odds: Odds, msg: Messages, explorer: str, deck: str) -> bytes | None:
    """The chart ``odds_png`` would give if it is kept (drawn lately), else None: nothing is drawn."""
    text = chart_text(odds, msg, explorer, deck)
    return _kept((face(msg.lang), text.key()))


def odds_png(odds: Odds, msg: Messages, explorer: str, deck: str) -> bytes:
    """The chart for a reader of ``msg``'s language; ``explorer`` and ``deck`` as the reader knows
    them. Drawn once for the same odds and words (the last CHARTS_KEPT are kept)."""
    text = chart_text(odds, msg, explorer, deck)
    key = (face(msg.lang), text.key())
    png = _kept(key)
    if png is not None:
        return png
    png = draw_png(text, msg.lang)
    with _drawn_lock:
        _drawn[key] = png
        while len(_drawn) > CHARTS_KEPT:
            _drawn.popitem(last=False)
    return png


def draw_png(text: ChartText, lang: str) -> bytes:
    """Draw the chart of ``text`` in ``lang``'s face, as PNG bytes."""
    _font_manager()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    font = FontProperties(family=face(lang))
    big = FontProperties(family=face(lang), size=13)
    count = len(text.panels)
    # a Figure on a canvas of its own, never pyplot's shared state (pyplot is not even imported):
    # charts are drawn in worker threads, several at once
    figure = Figure(figsize=(3.4 * count + 0.6, 3.9), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots(1, count, squeeze=False)
    for i, (ax, (label, distribution)) in enumerate(zip(axes[0], text.panels)):
        keys = list(range(len(text.x_ticks[i])))
        values = [float(distribution.get(k, 0)) for k in keys]
        bars = ax.bar(keys, values, color=COLORS[i], width=0.7)
        for bar, value_label in zip(bars, text.bar_labels[i]):
            ax.annotate(value_label, (bar.get_x() + bar.get_width() / 2, bar.get_height()), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontproperties=font, fontsize=8,
                        color=INK)
        ax.set_title(label, fontproperties=font, fontsize=11, color=INK)
        ax.set_xticks(keys, text.x_ticks[i], fontproperties=font)
        ax.set_ylim(0, 1.12)
        ax.set_yticks(Y_TICKS, text.y_ticks if i == 0 else [""] * len(Y_TICKS), fontproperties=font)
        ax.set_xlabel(text.x_label, fontproperties=font, color=INK)
        if i == 0:
            ax.set_ylabel(text.y_label, fontproperties=font, color=INK)
        ax.grid(axis="y", color=GRID, linewidth=0.8)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    figure.suptitle(text.title + "\n" + text.subtitle, fontproperties=big, color=INK, linespacing=1.5)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


@dataclass(frozen=True)
class OddsChart:
    """The chart an odds answer comes with, drawn on demand: the odds, the reader's messages, and
    the explorer and the deck as the reader knows them."""
    odds: Odds
    msg: Messages
    explorer: str
    deck: str

    def png(self) -> bytes:
        return odds_png(self.odds, self.msg, self.explorer, self.deck)

    def kept(self) -> bytes | None:
        """The chart if it was drawn lately (no drawing), else None."""
        return kept_png(self.odds, self.msg, self.explorer, self.deck)


def main(argv: list[str] | None = None) -> int:
    """Write the odds chart of a preset deck in some languages (en, fr, ja unless told), to look at."""
    import argparse

    from bot.explore.command import ExploreRequest, odds
    from bot.languages import normalize_language
    from bot.services import Services

    parser = argparse.ArgumentParser(prog="python -m bot.explore.chart", description=main.__doc__)
    parser.add_argument("langs", nargs="*", default=["en", "fr", "ja"])
    parser.add_argument("--out", type=Path, default=Path("var/charts"))
    parser.add_argument("--deck", default="ixalan")
    parser.add_argument("--explorer", default="Jadelight Ranger")
    parser.add_argument("--times", type=int, default=4)
    parser.add_argument("--policy", choices=("keep", "graveyard"), default="graveyard")
    args = parser.parse_args(argv)
    services = Services()
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in args.langs:
        lang = normalize_language(lang) or parser.error(f"unknown language {lang!r}")
        reply = odds(services, ExploreRequest(deck=args.deck, explorer=args.explorer, times=args.times), lang,
                     args.policy)
        if reply.error:
            print(reply.content)
            return 1
        path = args.out / f"odds-{lang}.png"
        path.write_bytes(reply.figure.png())
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
