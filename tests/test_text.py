from bot.text import clip, clip_query, fold


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
