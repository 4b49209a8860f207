"""Localize command, option and choice names and descriptions for Discord (app_commands.Translator).

Names (commands, groups, options) are looked up under the "command name" context of the catalogs,
so that a name and a message with the same English words can be translated differently.
A language choice (a ``locale_str`` carrying ``language=code``) reads as its own name followed by
its name in the reader's language: "Deutsch (allemand)".
"""
from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import _translations, messages
from bot.languages import language_for_locale

NAME_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
NAME_CONTEXT = "command name"


def option_names(*names: str) -> dict[str, app_commands.locale_str]:
    """For ``app_commands.rename``: each option keeps its English name and gets localized ones."""
    return {name: app_commands.locale_str(name) for name in names}


def language_choice(autonym: str, code: str, lang: str) -> str:
    """A language menu entry for a reader of ``lang``: the language's own name, and the reader's."""
    msg = messages(lang)
    local = msg.language_name(code)
    if code == lang or local.casefold() == autonym.casefold():
        return autonym
    return msg._("{autonym} — {language}", autonym=autonym, language=local)


def command_path(lang: str, *names: str) -> str:
    """A command as a reader of ``lang`` sees it in Discord: ("explore", "run") → "/explorer lancer"."""
    catalog = getattr(_translations(lang), "_catalog", {}) if lang != "en" else {}
    return "/" + " ".join(catalog.get(f"{NAME_CONTEXT}\x04{name}") or name for name in names)


class WayfinderTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = language_for_locale(locale.value)
        if lang == "en":
            return None  # English is the default text; other locales we do not cover fall back to it
        if "language" in string.extras:
            return language_choice(string.message, string.extras["language"], lang)
        key = string.message
        if context.location in NAME_LOCATIONS:
            key = f"{NAME_CONTEXT}\x04{key}"   # gettext's key for a message with a context
        # None (Discord shows the English text) only where the catalog has no entry
        return getattr(_translations(lang), "_catalog", {}).get(key)
