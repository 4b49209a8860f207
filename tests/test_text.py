from hypothesis import given, settings
from hypothesis import strategies as st

from bot.text import _BY_CHARACTER, _fold_unicode, clip, clip_query, fold


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


# letters, marks that join the letter before, jamo that join into syllables, kana voicing marks,
# capital sigma (lower case depends on the end of the word), full-width forms, ligatures, controls
_NEIGHBOURS = [*"aZé0 _'’-", "Σ", "σ", "ς", "\u0301", "\u0327", "\u0308", "\u3099", "\u309a", "\u309b", "か",
               "ハ", "ｶ", "ﾞ", "가", "\u1100", "\u1161", "\u11a8", "ㄱ", "Ｇ", "ﬁ", "ß", "İ", "ǅ", "\u00ad", "\u200b",
               "\x07", "\u0b47", "\u0b3e", "\u0345", "ё", "Ё", "丁", "\U0001d400", "\u2126", "\u212b", "½", "ﷺ"]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(_NEIGHBOURS), max_size=12))
def test_fold_character_by_character_gives_what_the_full_normalization_gives(text):
    assert fold(text) == _fold_unicode(text)


def test_every_character_folds_alone_as_it_does_among_others():
    # each character folded on its own (the quick path) must fold the same beside any other: after
    # a letter, a Hangul syllable or initial consonant (a vowel or a final joins them), the first
    # half of an Oriya vowel sign, a capital sigma
    for code in range(0x80, 0x30000):
        alike = (0x3400 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7A3 or 0xE000 <= code <= 0xF8FF
                 or 0x20000 <= code)
        if alike and code % 97:
            continue   # (large blocks of alike characters: a sample of them)
        char = chr(code)
        for text in (char, f"a{char}b", f"가{char}か", f"{char}{char}", f"Σ{char}", f"\u0b47{char}",
                     f"ㄱ{char}", f"\u1100{char}"):
            assert fold(text) == _fold_unicode(text), (hex(code), text)


def test_folding_what_users_type_keeps_a_bounded_cache():
    """Each distinct character folded is remembered only up to U+FFFF: text from the other planes
    (a million code points) folds the same and leaves nothing behind."""
    beyond = "".join(chr(code) for code in range(0x10000, 0x30000, 7))
    assert fold(beyond) == _fold_unicode(beyond)
    assert fold("\U0001d400\U0001d401 x") == "ab x"
    assert all(code <= 0xFFFF for code in _BY_CHARACTER)
