"""The slash commands as Discord receives them: every name and description localized in every
language, and within Discord's rules, built by discord.py itself from the cogs and the translator."""
from __future__ import annotations

import asyncio
import unicodedata

import pytest

from bot.discord_app.bot import EXTENSIONS, WayfinderBot
from bot.discord_app.translator import WayfinderTranslator
from bot.languages import DISCORD_LOCALES
from bot.services import Services

# every Discord locale that reads one of our languages, except the English ones (the default text)
LOCALES = [loc for lang, locs in DISCORD_LOCALES.items() if lang != "en" for loc in locs]
SUBCOMMAND, GROUP = 1, 2


def valid_name(name: str) -> bool:
    """Discord's pattern ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase where a case exists."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or "\u0900" <= ch <= "\u097f"
               or "\u0e00" <= ch <= "\u0e7f" for ch in name)


async def build_payloads() -> list[dict]:
    """What the bot's CommandTree.sync sends: each command's payload through the translator."""
    bot = WayfinderBot(Services(), sync_commands=False)   # nothing here opens the catalog
    translator = WayfinderTranslator()
    await bot.tree.set_translator(translator)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]


@pytest.fixture(scope="module")
def payloads() -> list[dict]:
    return asyncio.run(build_payloads())


def walk(items: list[dict], path: str = ""):
    """Every command, subcommand, group and option (with its path), and the siblings it has."""
    for item in items:
        where = f"{path}/{item['name']}" if not path or item.get("type") in (SUBCOMMAND, GROUP, None) \
            else f"{path} {item['name']}"
        yield where, item, items
        yield from walk(item.get("options", []), where)


def test_names_and_descriptions_are_localized_within_discords_rules(payloads):
    problems = []
    seen = 0
    for where, item, _ in walk(payloads):
        seen += 1
        names, descriptions = item.get("name_localizations") or {}, item.get("description_localizations") or {}
        assert valid_name(item["name"]), where
        for locale in LOCALES:
            name, description = names.get(locale), descriptions.get(locale)
            if name is None:
                problems.append(f"{where}: no {locale} name")
            elif not valid_name(name):
                problems.append(f"{where}: {locale} name {name!r} breaks Discord's rules")
            if description is None:
                problems.append(f"{where}: no {locale} description")
            elif not 1 <= len(description) <= 100:
                problems.append(f"{where}: {locale} description has {len(description)} characters")
        for choice in item.get("choices", []):
            localized = choice.get("name_localizations") or {}
            for locale in LOCALES:
                if not 1 <= len(localized.get(locale, "")) <= 100:
                    problems.append(f"{where}: choice {choice['name']!r} has no fit {locale} name")
    assert seen > 40   # the commands, their subcommands and options were all walked
    assert not problems, "\n".join(problems)


def test_sibling_names_differ_in_every_language(payloads):
    problems = []
    for where, item, siblings in walk(payloads):
        for locale in LOCALES + ["en-US"]:
            def local(x):
                return (x.get("name_localizations") or {}).get(locale, x["name"])
            if sum(1 for s in siblings if local(s) == local(item)) > 1:
                problems.append(f"{where}: {locale} name {local(item)!r} is taken twice")
            choices = [(c.get("name_localizations") or {}).get(locale, c["name"]) for c in item.get("choices", [])]
            if len(set(choices)) != len(choices):
                problems.append(f"{where}: {locale} choices repeat: {choices}")
    assert not problems, "\n".join(problems)


def test_the_readers_words(payloads):
    """Accents kept, the printed word for explore, language menus in the reader's language."""
    by_name = {c["name"]: c for c in payloads}
    assert by_name["rule"]["name_localizations"]["fr"] == "règle"
    assert by_name["settings"]["name_localizations"]["pt-BR"] == "configurações"
    assert by_name["explore"]["name_localizations"]["zh-CN"] == "勘察"   # as printed on Ixalan's cards
    assert by_name["explore"]["name_localizations"]["ru"] == "разведка"
    odds = next(o for o in by_name["explore"]["options"] if o["name"] == "odds")
    policy = next(o for o in odds["options"] if o["name"] == "policy")
    assert policy["name_localizations"]["fr"] != "politique"
    assert {c["name_localizations"]["fr"] for c in policy["choices"]} == {"laisser au-dessus", "mettre au cimetière"}
    language = next(o for o in by_name["ruling"]["options"] if o["name"] == "language")
    german = next(c for c in language["choices"] if c["value"] == "de")
    assert german["name_localizations"]["fr"] == "Deutsch — allemand"
    assert german["name_localizations"]["de"] == "Deutsch"
    chinese = {c["value"]: c["name_localizations"]["fr"] for c in language["choices"] if c["value"] in ("zhs", "zht")}
    assert chinese == {"zhs": "简体中文 — chinois (simplifié)", "zht": "繁體中文 — chinois (traditionnel)"}
