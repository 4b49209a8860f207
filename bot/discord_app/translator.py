"""Localize command, option and choice names and descriptions for Discord (app_commands.Translator)."""
from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import _translations
from bot.languages import language_for_locale

NAME_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
NAME_CONTEXT = "command name"


class WayfinderTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = language_for_locale(locale.value)
        if lang == "en":
            return None  # English is the default text; other locales we do not cover fall back to it
        translations = _translations(lang)
        if context.location in NAME_LOCATIONS:
            text = translations.pgettext(NAME_CONTEXT, string.message)
        else:
            text = translations.gettext(string.message)
        return text if text != string.message else None
