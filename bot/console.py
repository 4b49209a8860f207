"""The local console: the bot's commands without Discord, typed as in Discord.

    /ruling defossilizare language:it
    /ruling card:lanterne calotte search:empty library
    /rule 701.44a
    /explore run deck:ixalan explorer:Jadelight Ranger seed:42
"""
from __future__ import annotations

import re
import sys
from typing import Callable, TextIO

from bot.reply import Reply
from bot.explore import command as explore
from bot.languages import LANGUAGES, normalize_language
from bot.rules.command import rule
from bot.rulings.command import ruling
from bot.services import Services
from bot.settings.language import reply_language

_OPTION = re.compile(r"(?:^|\s)([a-z_]+):")
PROMPT = "wayfinder> "
HELP = """Commands (options as in Discord, name:value):
  /ruling <card> [language:<code>] [search:<text>] [originals:yes]
  /rule <number, keyword or glossary term>
  /explore run deck:<deck> explorer:<card> [times:<n>] [seed:<n>] [policy:keep|graveyard]
  /explore odds deck:<deck> explorer:<card> [times:<n>] [policy:keep|graveyard]
  /explore decks
  /lang <code>        reply language of this console (""" + " ".join(LANGUAGES) + """)
  /help, /quit"""


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


SUBCOMMANDS = {"explore": {"run", "odds", "decks"}, "settings": {"show", "reset"}}


class Console:
    """``lang`` is the console's own language (/lang, WAYFINDER_CONSOLE_LANG), like a user's
    /settings me language; ``locale`` the system locale, like a Discord locale."""

    def __init__(self, services: Services, lang: str | None = None, out: TextIO = sys.stdout,
                 locale: str | None = None):
        self.services = services
        self.user_lang = lang
        self.locale = locale
        self.out = out
        self.handlers: dict[tuple[str, ...], Callable[[dict, str], Reply]] = {
            ("ruling",): self.ruling,
            ("rule",): lambda o, lang: rule(self.services, o.get("") or o.get("query", ""), lang),
            ("explore", "run"): lambda o, lang: explore.run_from_options(self.services, o, lang),
            ("explore", "odds"): lambda o, lang: explore.odds_from_options(self.services, o, lang),
            ("explore", "decks"): lambda o, lang: explore.list_decks(self.services, lang),
        }

    @property
    def lang(self) -> str:
        """The reply language when a command names none."""
        return reply_language(user=self.user_lang, locale=self.locale)

    def ruling(self, options: dict, lang: str) -> Reply:
        return ruling(self.services, options.get("") or options.get("card", ""), lang,
                      search=options.get("search"), show_originals=options.get("originals") in ("yes", "on", "1"))

    def execute(self, line: str) -> str | None:
        """Run one line; return the text to show (None to quit)."""
        line = line.strip()
        if not line:
            return ""
        path, options = parse_line(line)
        if not path:
            return HELP
        if path[0] in ("quit", "exit", "q"):
            return None
        if path[0] == "help":
            return HELP
        if path[0] == "lang":
            lang = normalize_language(options.get(""))
            if not lang:
                return f"? {' '.join(LANGUAGES)}"
            self.user_lang = lang
            return f"language: {lang}"
        handler = self.handlers.get(tuple(path))
        if handler is None:
            return HELP
        reply = handler(options, reply_language(normalize_language(options.get("language")), user=self.user_lang,
                                                locale=self.locale))
        return reply.as_text()

    def loop(self, stdin: TextIO = sys.stdin) -> int:
        interactive = stdin.isatty()
        print("Wayfinder console — no DISCORD_TOKEN set, so the commands run here. /help for help.",
              file=self.out)
        while True:
            if interactive:
                print(PROMPT, end="", file=self.out, flush=True)
            line = stdin.readline()
            if not line:
                return 0
            try:
                text = self.execute(line)
            except Exception as exc:  # the console keeps going after a bad command
                text = f"error: {exc}"
            if text is None:
                return 0
            if text:
                print(text, file=self.out, flush=True)


def run_console(services: Services, lang: str | None = None) -> int:
    import locale
    chosen = lang or normalize_language(services.config.console_lang)
    return Console(services, chosen, locale=locale.getlocale()[0]).loop()


__all__ = ["Console", "parse_line", "run_console"]
