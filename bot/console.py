"""The local console: the bot's commands without Discord, typed as in Discord.

    /ruling defossilizare language:it
    /ruling card:lanterne calotte search:empty library
    /rule 701.44a
    /explore run deck:ixalan explorer:Jadelight Ranger seed:42
    /settings language value:fr

The console is one reader on one server of its own (the "console server"): /settings shows and
changes that server's settings, kept in the settings database like any server's, and they apply
to the console's answers as they would on Discord. Answers are Discord's pages drawn for a
terminal: Markdown rendered, each section once.
"""
from __future__ import annotations

import asyncio
import re
import sys
from typing import Callable, TextIO

from bot.explore import command as explore
from bot.i18n import Messages, messages
from bot.languages import AUTONYMS, LANGUAGES, normalize_language
from bot.reply import Reply
from bot.rules.command import rule
from bot.rulings.command import ruling
from bot.services import Services
from bot.settings.command import default_deck_problem, saved_message, settings_page
from bot.settings.language import AUTO, reply_language
from bot.settings.store import GuildSettings

_OPTION = re.compile(r"(?:^|\s)([a-z_]+):")
PROMPT = "wayfinder> "
CONSOLE_SERVER = 0   # the console's own server in the settings database (Discord ids start far above)
CONSOLE_USER = 0

SUBCOMMANDS = {"explore": {"run", "odds", "decks"},
               "settings": {"show", "reset", "language", "machine", "originals", "private", "inline", "deck",
                            "policy"}}

# the commands as /help lists them: what to type, and what it does (a message of the catalogs)
COMMANDS = (
    ("/ruling <card> [language:<code>] [search:<text>] [originals:yes]",
     "Show a card's official rulings in your language"),
    ("/rule <number, keyword or glossary term>", "Look up the Comprehensive Rules"),
    ("/explore run explorer:<card> [deck:<deck>] [times:<n>] [seed:<n>] [policy:keep|graveyard]",
     "Explore on a deck shuffled from a seed, step by step"),
    ("/explore odds explorer:<card> [deck:<deck>] [times:<n>] [policy:keep|graveyard]", "Exact odds of exploring"),
    ("/explore decks", "List the decks"),
    ("/settings show", "Show this server's settings"),
    ("/settings <setting> value:<value>", "Change a setting of the console's server"),
    ("/settings reset", "Reset this server's settings"),
    ("/language value:<code>|auto", "Your own reply language"),
    ("/lang <code>", "The console's reply language"),
    ("/help", "This list of commands"),
    ("/quit", "Leave the console"),
)

# /settings <name> value:<value>: the store's key, and the values typed (as stored)
SETTINGS = {
    "language": ("reply_language", {AUTO: AUTO, **{code: code for code in LANGUAGES}}),
    "machine": ("machine_translations", {"show": "show", "hide": "hide"}),
    "originals": ("english_originals", {"beside": "beside", "click": "click"}),
    "private": ("private_replies", {"on": True, "off": False}),
    "inline": ("inline_cards", {"on": True, "off": False}),
    "policy": ("default_policy", {"ask": None, "keep": "keep", "graveyard": "graveyard"}),
    "deck": ("default_deck", None),   # any preset deck
}


def parse_line(line: str) -> tuple[list[str], dict[str, str]]:
    """'/ruling defossilizare language:it' → (['ruling'], {'': 'defossilizare', 'language': 'it'}).

    Words before the first option are the command path then the main value.
    """
    line = line.strip()
    if line.startswith("/"):
        line = line[1:]
    matches = list(_OPTION.finditer(line))
    head = line[: matches[0].start()] if matches else line
    options: dict[str, str] = {}
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        options[match.group(1)] = line[match.end():end].strip()
    words = head.split()
    path = words[:1]
    rest = words[1:]
    if path and path[0] in SUBCOMMANDS and rest and rest[0] in SUBCOMMANDS[path[0]]:
        path.append(rest.pop(0))
    if rest:
        options.setdefault("", " ".join(rest))
    return path, options


class Console:
    """``lang`` is the console's own language (/lang, WAYFINDER_CONSOLE_LANG), like a user's
    /language; ``locale`` the system locale, like a Discord locale."""

    def __init__(self, services: Services, lang: str | None = None, out: TextIO = sys.stdout,
                 locale: str | None = None, styles: bool = False):
        self.services = services
        self.user_lang = lang
        self.locale = locale
        self.out = out
        self.styles = styles
        self._loop: asyncio.AbstractEventLoop | None = None
        self._store = None
        self.handlers: dict[tuple[str, ...], Callable[[dict, str], Reply]] = {
            ("ruling",): self.ruling,
            ("rule",): lambda o, lang: rule(self.services, o.get("") or o.get("query", ""), lang),
            ("explore", "run"): lambda o, lang: explore.run_from_options(self.services, self._explore(o), lang),
            ("explore", "odds"): lambda o, lang: explore.odds_from_options(self.services, self._explore(o), lang),
            ("explore", "decks"): lambda o, lang: explore.list_decks(self.services, lang),
            ("settings",): self.settings_show,
            ("settings", "show"): self.settings_show,
            ("settings", "reset"): self.settings_reset,
            ("language",): self.my_language,
            **{("settings", name): self._setting(name) for name in SETTINGS},
        }

    # the console server's settings, in the settings database
    def _run(self, coroutine):
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(coroutine)

    @property
    def store(self):
        if self._store is None:
            from bot.settings.store import SettingsStore
            self._store = self._run(SettingsStore.open(self.services.config.settings_path))
        return self._store

    @property
    def server(self) -> GuildSettings:
        return self._run(self.store.guild(CONSOLE_SERVER))

    def close(self) -> None:
        if self._store is not None:
            self._run(self._store.close())
            self._store = None
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    @property
    def lang(self) -> str:
        """The reply language when a command names none."""
        return self.language()

    def language(self, explicit: str | None = None) -> str:
        return reply_language(explicit, server=self.server.reply_language, user=self.user_lang, locale=self.locale)

    def ruling(self, options: dict, lang: str) -> Reply:
        server = self.server
        originals = options.get("originals")
        show = originals in ("yes", "on", "1") if originals else server.english_originals == "beside"
        return ruling(self.services, options.get("") or options.get("card", ""), lang,
                      search=options.get("search"), machine=server.machine_translations, show_originals=show)

    def _explore(self, options: dict) -> dict:
        """The console server's default deck and default choice, where the command names none."""
        server = self.server
        defaults = {"deck": server.default_deck, "policy": server.default_policy}
        return {**{k: v for k, v in defaults.items() if v}, **options}

    def settings_show(self, options: dict, lang: str) -> Reply:
        user = self.user_lang or self._run(self.store.user_language(CONSOLE_USER))
        return Reply(pages=[settings_page(self.server, user, messages(lang))])

    def settings_reset(self, options: dict, lang: str) -> Reply:
        msg = messages(lang)
        if options.get("confirm") not in ("yes", "y"):
            return Reply(content=msg._("Reset every setting of this server?") + " "
                         + msg._("Type “{command}” to confirm.", command="/settings reset confirm:yes"))
        self._run(self.store.reset_guild(CONSOLE_SERVER))
        return Reply(content=messages(self.language())._("Every setting of this server is back to its default."))

    def _setting(self, name: str) -> Callable[[dict, str], Reply]:
        key, values = SETTINGS[name]

        def change(options: dict, lang: str) -> Reply:
            msg = messages(lang)
            typed = (options.get("value") or options.get("") or "").strip()
            if values is None:
                problem = self._run(default_deck_problem(typed, msg, self.store, None))
                if problem:
                    return Reply(content=problem, error=True)
                value = typed
            elif typed.lower() in values or normalize_language(typed) in values:
                value = values.get(typed.lower(), values.get(normalize_language(typed)))
            else:
                return Reply(content=msg._("“{value}” is not a value of /settings {setting}: {values}.",
                                           value=typed, setting=name, values=", ".join(values)), error=True)
            updated = self._run(self.store.set_guild(CONSOLE_SERVER, key, value))
            return Reply(content=saved_message(updated, key, messages(self.language())))
        return change

    def my_language(self, options: dict, lang: str) -> Reply:
        typed = (options.get("value") or options.get("") or "").strip()
        chosen = normalize_language(typed)
        if typed.lower() != AUTO and chosen is None:
            return Reply(content=self.unknown_language(typed, messages(lang)), error=True)
        self._run(self.store.set_user_language(CONSOLE_USER, chosen))
        self.user_lang = chosen
        msg = messages(self.language())
        return Reply(content=msg._("Your language is now {language}.", language=msg.language_name(chosen)) if chosen
                     else msg._("Your language now follows your Discord settings."))

    # the console's own commands
    def help(self, msg: Messages) -> str:
        width = max(len(syntax) for syntax, _ in COMMANDS)
        lines = [msg._("Commands (options as in Discord, name:value):")]
        lines += [f"  {syntax:<{width}}  {msg._(what)}" for syntax, what in COMMANDS]
        return "\n".join(lines)

    @staticmethod
    def unknown_language(typed: str, msg: Messages) -> str:
        codes = ", ".join(f"{code} ({AUTONYMS[code]})" for code in LANGUAGES)
        return msg._("“{code}” is not a language code. Codes: {codes}.", code=typed, codes=codes)

    def unknown_command(self, path: list[str], options: dict, msg: Messages) -> str:
        """What was typed, and the commands there are: the subcommands when the command exists."""
        if path[0] in SUBCOMMANDS:
            typed = "/" + " ".join(path + options.get("", "").split()[:1])
            known = ["/" + " ".join(p) for p in self.handlers if p[0] == path[0] and len(p) > 1]
        else:
            typed = "/" + path[0]
            known = list(dict.fromkeys("/" + p[0] for p in self.handlers)) + ["/lang", "/help", "/quit"]
        return msg._("Unknown command {command}. Commands: {commands}.", command=typed, commands=", ".join(known))

    def execute(self, line: str) -> str | None:
        """Run one line; return the text to show (None to quit)."""
        line = line.strip()
        if not line:
            return ""
        path, options = parse_line(line)
        msg = messages(self.language())
        if not path or path[0] == "help":
            return self.help(msg)
        if path[0] in ("quit", "exit", "q"):
            return None
        if path[0] == "lang":
            typed = options.get("", "").strip()
            lang = normalize_language(typed)
            if not lang:
                return self.unknown_language(typed, msg)
            self.user_lang = lang
            msg = messages(self.language())
            return msg._("Console language: {language}.", language=msg.language_name(lang))
        handler = self.handlers.get(tuple(path))
        if handler is None or (path[0] in SUBCOMMANDS and len(path) == 1 and options.get("")):
            return self.unknown_command(path, options, msg)
        lang = self.language(normalize_language(options.get("language")) if path == ["ruling"] else None)
        return handler(options, lang).for_terminal(self.styles)

    def loop(self, stdin: TextIO = sys.stdin) -> int:
        interactive = stdin.isatty()
        print(messages(self.language())._("Wayfinder console — no DISCORD_TOKEN set, so the commands run here. "
                                          "/help for help."), file=self.out)
        try:
            while True:
                if interactive:
                    print(PROMPT, end="", file=self.out, flush=True)
                line = stdin.readline()
                if not line:
                    return 0
                try:
                    text = self.execute(line)
                except Exception as exc:  # the console keeps going after a bad command
                    text = messages(self.language())._("Something went wrong: {error}", error=exc)
                if text is None:
                    return 0
                if text:
                    print(text + "\n", file=self.out, flush=True)   # a blank line after each answer
        finally:
            self.close()


def run_console(services: Services, lang: str | None = None) -> int:
    import locale
    chosen = lang or services.config.console_lang
    return Console(services, chosen, locale=locale.getlocale()[0], styles=sys.stdout.isatty()).loop()


__all__ = ["Console", "parse_line", "run_console"]
