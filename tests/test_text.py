from hypothesis import given, settings
from hypothesis import strategies as st

from bot.text import _fold_unicode, clip, clip_query, fold


def test_fold_drops_case_accents_and_punctuation():
    assert fold("Élite Lame-héron") == "elite lame heron"
    assert fold("Tishana’s Wayfinder") == fold("tishanas wayfinder")
    assert fold("Straße") == "strasse"
    assert fold("Æther Vial") == "aether vial"
    assert fold("Œil") == "oeil"


def test_fold_handles_full_width_spaces_and_control_characters():
    assert fold("Ｇｉａｎｔ　Ｇｒｏｗｔｈ") == "giant growth"
    assert fold("  giant\t\x00growth  ") == "giant growth"


def test_fold_keeps_cjk_and_voiced_kana():
    assert fold("ティシャーナの道探し") == "ティシャーナの道探し"
    assert fold("ガ") == "ガ"


def test_clip_query_says_when_it_cuts():
    assert clip_query("a" * 10, 5) == ("aaaaa", True)
    assert clip_query("abc", 5) == ("abc", False)


def test_clip_marks_a_cut_text_within_the_limit():
    assert clip("abcdefghij", 5) == "abcd…"
    assert clip("abc", 5) == "abc"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"aZ09 _'`-.,\t\x00", "’", "‘", "“", "”", "—", "–", "…", "•", "−",
                                         "\u00a0", "é", "\u00ad"]), max_size=30))
def test_fold_reads_typographic_punctuation_as_the_full_normalization_does(text):
    # rulings' curly apostrophes and dashes take the quick path: the key must not change
    assert fold(text) == _fold_unicode(text)
