import json

from bot.catalog.langdetect import detect, detect_sentences
from bot.languages import MTGJSON_NAMES
from tests.helpers import SHARED_DATA, needs_shared

MTGJSON_LANGUAGES = {name: lang for lang, names in MTGJSON_NAMES.items() for name in names}


def test_scripts_decide_cjk_and_cyrillic():
    assert detect("探検を行う。") == "ja"
    assert detect("탐험한다") == "ko"
    assert detect("Исследует") == "ru"
    assert detect("这个生物进行探险") == "zhs"
    assert detect("這個生物進行探險") == "zht"


def test_short_game_texts():
    assert detect("Anule a mágica alvo.") == "pt"
    assert detect("Vol") == "fr"
    assert detect("Roba una carta.") == "es"


def test_an_english_sentence_left_in_an_italian_ruling_is_found():
    text = ("In alcuni casi insoliti, i permanenti non creatura possono esplorare. Per esempio, se la carta "
            "creatura riportata sul campo di battaglia da Defossilize in qualche modo non è una creatura una "
            "volta che si trova sul campo di battaglia, può comunque esplorare. Eseguirai tutte le stesse "
            "azioni e potresti finire per mettere un segnalino +1/+1 sul permanente. (Note that some effects "
            "target a creature, and those effects would still require a legal target to have it explore.)")
    found = detect_sentences(text)
    assert found.lang == "it"
    assert found.mixed_with == ("en",)


@needs_shared
def test_foreign_card_texts_of_the_mtgjson_sets_are_recognised():
    total = right = 0
    for code in ("XLN", "RIX", "ZNR"):
        data = json.loads((SHARED_DATA / "mtgjson" / f"{code}.json").read_text(encoding="utf-8"))["data"]
        for card in data["cards"]:
            for foreign in card.get("foreignData", []):
                if foreign.get("text"):
                    total += 1
                    right += detect(foreign["text"]) == MTGJSON_LANGUAGES[foreign["language"]]
    share = right / total
    print(f"\nlanguage of {total:,} foreign card texts detected right: {share:.2%}")
    assert share >= 0.99
