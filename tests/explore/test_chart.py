"""The odds chart in every language: each character drawn has a glyph in the font's face for it."""
from __future__ import annotations

import warnings

import pytest
from fontTools.ttLib import TTCollection

from bot.explore.chart import chart_text, face_index, font_path, odds_png
from bot.explore.command import CardNames
from bot.explore.odds import explore_odds
from bot.i18n import messages
from bot.languages import LANGUAGES

ODDS = explore_odds(59, 24, 4, "graveyard")


@pytest.fixture(scope="module")
def collection():
    return TTCollection(str(font_path()))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_character_of_the_chart_has_a_glyph(lang, collection, bundled_services):
    msg = messages(lang)
    explorer = CardNames(bundled_services, lang)("Jadelight Ranger")
    text = chart_text(ODDS, msg, explorer, "ixalan")
    cmap = collection.fonts[face_index(lang)].getBestCmap()
    drawn = "".join(text.strings())
    missing = sorted({ch for ch in drawn if not ch.isspace() and ord(ch) not in cmap})
    assert not missing, missing
    # the words are the reader's: the panel titles and axes come from the catalog, the numbers from Babel
    assert text.panels[0][0] == msg._("Lands to hand") and text.y_label == msg._("Probability")
    assert explorer in text.title and "ixalan" in text.subtitle
    if lang != "en":
        assert text.y_label != "Probability"
    with warnings.catch_warnings():
        warnings.simplefilter("error")    # matplotlib warns of a glyph missing from the font
        png = odds_png(ODDS, msg, explorer, "ixalan")
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_numbers_on_the_chart_are_written_the_readers_way(bundled_services):
    french = chart_text(ODDS, messages("fr"), "Ranger jadefeu", "ixalan")
    assert french.bar_labels[0][1] == "34,5\xa0%"
    assert french.y_ticks == ["0\xa0%", "25\xa0%", "50\xa0%", "75\xa0%", "100\xa0%"]
    assert chart_text(ODDS, messages("en"), "Jadelight Ranger", "ixalan").bar_labels[0][1] == "34.5%"
    assert len(french.panels) == 3   # cards put into the graveyard are shown when there are any
    assert len(chart_text(explore_odds(59, 24, 1, "keep"), messages("fr"), "x", "y").panels) == 2


def test_charts_drawn_at_once_in_threads_are_each_whole():
    """/explore odds draws its chart in a worker thread; two readers at once get two whole charts."""
    import concurrent.futures

    from bot.explore.chart import draw_png
    from bot.explore.odds import explore_odds
    from bot.i18n import messages
    jobs = [(chart_text(explore_odds(60, 24, 2), messages("fr"), "Ranger jadefeu", "ixalan"), "fr"),
            (chart_text(explore_odds(40, 17, 4), messages("ja"), "翡翠光のレインジャー", "ixalan"), "ja")]
    alone = [draw_png(*job) for job in jobs]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:   # drawn afresh each time, not taken from the kept ones
        together = list(pool.map(lambda job: draw_png(*job), jobs * 3))
    assert together == alone * 3


def test_a_chart_is_drawn_without_pyplot_and_is_the_same_in_any_process(tmp_path):
    """The chart is matplotlib's Figure on the Agg canvas: no pyplot (its global state, its slow
    import, its threads), and the same picture whoever draws it."""
    import subprocess
    import sys

    from tests.helpers import PROJECT
    out = tmp_path / "odds.png"
    script = ("import sys\n"
              "from bot.explore.chart import odds_png\n"
              "from bot.explore.odds import explore_odds\n"
              "from bot.i18n import messages\n"
              "png = odds_png(explore_odds(59, 24, 4, 'graveyard'), messages('ja'), '翡翠光のレインジャー', 'ixalan')\n"
              f"open({str(out)!r}, 'wb').write(png)\n"
              "print('matplotlib.pyplot' in sys.modules, 'matplotlib.figure' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
    assert out.read_bytes() == odds_png(ODDS, messages("ja"), "翡翠光のレインジャー", "ixalan")


def test_the_same_odds_asked_again_are_the_same_picture_and_other_odds_or_words_another():
    from bot.explore.chart import draw_png
    odds = explore_odds(59, 24, 3, "keep")
    english = odds_png(odds, messages("en"), "Jadelight Ranger", "ixalan")
    assert odds_png(odds, messages("en"), "Jadelight Ranger", "ixalan") == english
    assert english == draw_png(chart_text(odds, messages("en"), "Jadelight Ranger", "ixalan"), "en")
    assert odds_png(odds, messages("fr"), "Ranger jadefeu", "ixalan") != english
    assert odds_png(explore_odds(59, 24, 2, "keep"), messages("en"), "Jadelight Ranger", "ixalan") != english
