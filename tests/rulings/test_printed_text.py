"""The card's text as printed in the reader's language, the Oracle text one click away."""
import json
import shutil

import pytest

from bot.config import Config
from bot.rulings.command import ruling
from bot.services import Services
from tests.helpers import SHARED_DATA, needs_shared
from tests.test_cli import run


@pytest.fixture(scope="module")
def printed_catalog_path(bundled_catalog_path, tmp_path_factory):
    """The bundled catalog, plus MTGJSON's Ixalan (foreignData) and a real Scryfall page of cards
    in six languages (printed_name, printed_type_line, printed_text)."""
    if not SHARED_DATA.exists():
        pytest.skip("the real data is not at ../shared/data (CI always has it)")
    from bot.catalog.importer import import_files
    folder = tmp_path_factory.mktemp("printed")
    path = folder / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, path)
    page = json.loads((SHARED_DATA / "scryfall" / "cards-page-2019-06.json").read_text())
    cards = folder / "cards.json"
    cards.write_text(json.dumps(page["data"], ensure_ascii=False))
    import_files(path, [SHARED_DATA / "mtgjson" / "XLN.json", cards])
    return path


@pytest.fixture
def services(printed_catalog_path, tmp_path):
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(printed_catalog_path),
                                         "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}))
    yield services
    services.close()


@needs_shared
def test_french_reader_gets_queens_agent_as_printed_in_french(services):
    reply = ruling(services, "Queen's Agent", "fr")
    header = reply.pages[0].description
    assert header.startswith("*Créature : vampire et éclaireur*\nLien de vie\nQuand l'Agent de la reine arrive")
    assert "Texte de la carte tel qu'imprimé en français ; le texte Oracle (en anglais) fait foi." in header
    assert "Lifelink" not in header
    assert reply.data["printed_text"]["lang"] == "fr" and reply.data["oracle_text"].startswith("Lifelink")
    oracle = ruling(services, "Queen's Agent", "fr", show_oracle=True).pages[0].description
    assert oracle.startswith("*Creature — Vampire Scout*\nLifelink") and "Lien de vie" not in oracle


@needs_shared
@pytest.mark.parametrize("lang, start", [("ja", "絆魂\n女王の工作員が戦場に出たとき"), ("ru", "Цепь жизни"),
                                         ("zhs", "系命"), ("pt", "Vínculo com a vida")])
def test_every_language_mtgjson_prints(services, lang, start):
    assert start in ruling(services, "Queen's Agent", lang).pages[0].description


@needs_shared
def test_scryfall_printed_text_of_a_non_english_printing(services):
    reply = ruling(services, "Vide gluant", "fr")
    assert reply.data["name"] == "Voidslime"
    assert reply.pages[0].description.startswith("*Éphémère*\nContrecarrez le sort ciblé")


@needs_shared
def test_english_reader_and_a_card_never_printed_in_the_language_get_oracle_text(services):
    english = ruling(services, "Queen's Agent", "en").pages[0].description
    assert english.startswith("*Creature — Vampire Scout*\nLifelink") and "Oracle" not in english
    korean = ruling(services, "Glowcap Lantern", "ko")
    assert korean.data["printed_text"] is None
    assert "카탈로그에 이 카드의 한국어 인쇄 텍스트가 없습니다. 오라클 텍스트(영어)를 표시합니다." in korean.pages[0].description


@needs_shared
def test_cli_oracle_flag(printed_catalog_path):
    printed = run(["ruling", "Queen's Agent", "--lang", "de"], printed_catalog_path)
    assert "Lebensverknüpfung" in printed.stdout
    oracle = run(["ruling", "Queen's Agent", "--lang", "de", "--oracle"], printed_catalog_path)
    assert "Lifelink" in oracle.stdout and "Lebensverknüpfung" not in oracle.stdout


@needs_shared
async def test_oracle_text_is_one_click_away_in_discord(printed_catalog_path, tmp_path, monkeypatch):
    from tests.e2e.helpers import custom_ids, embed_text, option, start_bot, stop_bot
    from tests.fake_discord import FakeDiscord
    monkeypatch.setenv("WAYFINDER_CATALOG", str(printed_catalog_path))
    monkeypatch.setenv("WAYFINDER_SETTINGS_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    fake = FakeDiscord()
    await fake.start()
    bot, task = await start_bot(fake)
    try:
        answer = await fake.slash("ruling", [option("card", "agente della regina")], locale="it")
        assert "Legame vitale" in embed_text(answer.data)
        assert "wf:ruling:oracle" in custom_ids(answer.data)
        oracle = await fake.click(answer.message_id, "wf:ruling:oracle", locale="it")
        assert "Lifelink" in embed_text(oracle.data) and "Legame vitale" not in embed_text(oracle.data)
        back = await fake.click(answer.message_id, "wf:ruling:oracle", locale="it")
        assert "Legame vitale" in embed_text(back.data)
    finally:
        await stop_bot(bot, task)
        await fake.close()
