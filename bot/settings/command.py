"""/settings: what the settings look like to the reader, and the messages the command answers."""
from __future__ import annotations

from bot.explore.decks import preset_names, unknown_deck
from bot.i18n import Messages
from bot.pages import Field, Page, escape
from bot.reply import too_long
from bot.settings.language import AUTO
from bot.settings.store import MAX_DECK_NAME, GuildSettings


def auto_language(msg: Messages) -> str:
    return msg._("auto (each user's language)")


def setting_fields(settings: GuildSettings, msg: Messages) -> dict[str, Field]:
    """Each setting, by its name in the store, as the reader sees it: label and value."""
    def onoff(value: bool) -> str:
        return msg._("on") if value else msg._("off")
    language = auto_language(msg) if settings.reply_language == AUTO else msg.language_name(settings.reply_language)
    policy = {None: msg._("ask each time"), "keep": msg._("keep on top"), "graveyard": msg._("graveyard")}
    machine = (msg._("shown, marked") if settings.machine_translations == "show"
               else msg._("hidden (English original instead)"))
    originals = msg._("beside every translation") if settings.english_originals == "beside" else msg._("on click")
    return {
        "reply_language": Field(msg._("Reply language"), language, True),
        "machine_translations": Field(msg._("Machine translations"), machine, True),
        "english_originals": Field(msg._("English originals"), originals, True),
        "private_replies": Field(msg._("Private replies"), onoff(settings.private_replies), True),
        "inline_cards": Field(msg._("Inline [[card]]"), onoff(settings.inline_cards), True),
        "default_deck": Field(msg._("Default deck"), escape(settings.default_deck) if settings.default_deck else "—", True),
        "default_policy": Field(msg._("Default choice for revealed nonland cards"),
                                policy.get(settings.default_policy, "—"), True),
    }


def settings_page(settings: GuildSettings, user_language: str | None, msg: Messages) -> Page:
    """/settings show: the server's settings, then the reader's own language."""
    page = Page(title=msg._("Settings"), fields=list(setting_fields(settings, msg).values()))
    page.fields.append(Field(msg._("Your language"),
                             msg.language_name(user_language) if user_language else auto_language(msg), False))
    return page


def saved_message(settings: GuildSettings, key: str, msg: Messages) -> str:
    """The confirmation of a change, showing the setting as /settings show does."""
    field = setting_fields(settings, msg)[key]
    return msg._("Setting saved: {setting} — {value}.", setting=field.name, value=field.value)


def needs_manage_server(msg: Messages) -> str:
    return msg._("You need the Manage Server permission to change these settings.")


def server_only(msg: Messages) -> str:
    return msg._("This command works only in a server.")


async def default_deck_problem(value: str, msg: Messages, store, guild_id: int | None) -> str | None:
    """Why ``value`` cannot be the server's default deck (too long, no such deck), or None."""
    if len(value) > MAX_DECK_NAME:
        return too_long(msg, MAX_DECK_NAME)
    known = preset_names() + (await store.deck_names(guild_id) if guild_id else [])
    return None if value in known else unknown_deck(msg, value, known)
