"""The wayfinder command line: run the bot or the console, import data, look things up.

    wayfinder                       the bot with DISCORD_TOKEN, else the local console
    wayfinder data import FILE…     Scryfall bulk files, MTGJSON files, ruling documents, the CR
    wayfinder data sync             download Scryfall's bulk data, then import it
    wayfinder data info [--json]    what the catalog holds
    wayfinder card NAME [--lang L] [--json]
    wayfinder resolve [--json] [NAME …]        (names from stdin, one per line, without NAME)
    wayfinder ruling NAME [--lang L] [--search TEXT] [--originals] [--oracle] [--json]
"""
from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.catalog.errors import DataImportError
from bot.config import Config, ConfigError, bulk_types, is_database_url
from bot.i18n import Messages, Note, messages, said
from bot.languages import LANGUAGES, normalize_language
from bot.settings.errors import SettingsError

if TYPE_CHECKING:
    from bot.services import Services

# Each command imports what it needs when it runs: a one-shot look-up loads neither the importer,
# the settings store nor discord.


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=None, sort_keys=False))


def _operator(console_lang: str | None) -> Messages:
    """The language of the command line's own lines (progress, summaries, refusals): the
    console's (WAYFINDER_CONSOLE_LANG), else the system locale's, as the console chooses it."""
    import locale
    from bot.settings.language import reply_language
    return messages(reply_language(user=console_lang, locale=locale.getlocale()[0]))


def _error(msg: Messages, message) -> None:
    """A refusal: one line on stderr, in ``msg``'s language."""
    print(msg._("error: {reason}", reason=said(message, msg)), file=sys.stderr)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal. argparse makes a formatter for every option it
    adds, and asks shutil for the width, which loads shutil's compression modules: the width is
    read here as shutil reads it ($COLUMNS, else the terminal, else 80 columns)."""

    def __init__(self, prog: str):
        try:
            width = int(os.environ["COLUMNS"])
        except (KeyError, ValueError):
            try:
                width = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                width = 80
        super().__init__(prog, width=width - 2)


class _Parser(argparse.ArgumentParser):
    """The parser of every command and subcommand: they share the help formatter."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


def _data_arguments(parser: argparse.ArgumentParser) -> None:
    data = parser.add_subparsers(dest="data_command", required=True)
    imp = data.add_parser("import", help="import data files into the catalog")
    imp.add_argument("files", nargs="+", type=Path)
    imp.add_argument("--no-progress", action="store_true")
    info = data.add_parser("info", help="what the catalog holds")
    info.add_argument("--json", action="store_true")
    sync = data.add_parser("sync", help="download Scryfall bulk data and import it")
    sync.add_argument("--types", default="all_cards,rulings",
                      help="bulk types to fetch (default: all_cards,rulings)")
    sync.add_argument("--base-url", help="Scryfall API base URL (default: $WAYFINDER_SCRYFALL_URL)")
    sync.add_argument("--rules-url", help="also fetch the Comprehensive Rules text file (default: $WAYFINDER_RULES_URL)")
    sync.add_argument("--no-progress", action="store_true")
    data.add_parser("bundled", help="rebuild the bundled data into the catalog")


def _card_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="+")
    parser.add_argument("--lang")
    parser.add_argument("--json", action="store_true")


def _resolve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*")
    parser.add_argument("--json", action="store_true", help="one JSON line per name (the default)")
    parser.add_argument("--lang", help="prefer names in this language when tied")


def _ruling_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="+")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--search")
    parser.add_argument("--originals", action="store_true", help="show the English originals beside translations")
    parser.add_argument("--oracle", action="store_true",
                        help="the card's Oracle text (English) instead of its text as printed in --lang")
    parser.add_argument("--json", action="store_true")


def _explore_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scenario", type=Path, required=True, help="a scenario JSON file (see README)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--lang", help="the narration's language (default: the operator's)")


def _db_arguments(parser: argparse.ArgumentParser) -> None:
    db = parser.add_subparsers(dest="db_command", required=True)
    db.add_parser("migrate", help="apply the settings database's pending migrations")
    db.add_parser("check", help="the settings database's schema version (exit 1 when migrations are pending)")
    backup = db.add_parser("backup", help="copy the live settings database consistently (PostgreSQL: a logical"
                                          " export of the settings tables into a SQLite file)")
    backup.add_argument("path", type=Path)
    backup.add_argument("--force", action="store_true", help="replace the file if it exists")


def _ask_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("question", nargs="+")
    parser.add_argument("--lang", default="en", help="the reply language")
    parser.add_argument("--json", action="store_true")


def _rule_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="+")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--json", action="store_true")


def _rules_arguments(parser: argparse.ArgumentParser) -> None:
    rules = parser.add_subparsers(dest="rules_command", required=True)
    rules_diff = rules.add_parser("diff", help="rules added, removed, renumbered and changed between two editions")
    rules_diff.add_argument("old", help="an edition's effective date (YYYY-MM-DD) or a CR text file")
    rules_diff.add_argument("new")
    rules_diff.add_argument("--json", action="store_true")
    rules.add_parser("editions", help="the editions in the catalog")


# every command, in the order --help lists them: what it does, and the arguments it takes
COMMANDS = {
    "run": ("the bot with DISCORD_TOKEN, else the console", None),
    "console": ("the local console", None),
    "data": ("the card catalog", _data_arguments),
    "card": ("a card, its names per language and its rulings", _card_arguments),
    "resolve": ("resolve card names (arguments, or stdin one per line)", _resolve_arguments),
    "ruling": ("a card's rulings in a language", _ruling_arguments),
    "explore": ("run one explore scenario (a board, an action, the answers)", _explore_arguments),
    "db": ("the settings database", _db_arguments),
    "ask": ("a rules question in your own words: the rules and rulings that decide it", _ask_arguments),
    "rule": ("the Comprehensive Rules by number, keyword or glossary term", _rule_arguments),
    "rules": ("Comprehensive Rules editions", _rules_arguments),
}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given the arguments, it describes only the command they name:
    argparse makes a parser for every command, which costs a one-shot look-up more than its own
    work. Without arguments it is `run` (the bot, or the console); with an unknown first argument
    (--help, a mistake) it describes them all."""
    parser = _Parser(prog="wayfinder", description="Wayfinder, a Magic: The Gathering rules bot.")
    sub = parser.add_subparsers(dest="command")
    named = "run" if argv == [] else argv[0] if argv and argv[0] in COMMANDS else None
    for name, (help_text, arguments) in COMMANDS.items():
        if named in (None, name):
            command = sub.add_parser(name, help=help_text)
            if arguments:
                arguments(command)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        config = Config.from_env()
    except ConfigError as exc:   # a malformed setting, in the language the configuration names, if it does
        _error(_operator(exc.lang), exc)
        return 2
    operator = _operator(config.console_lang)
    if getattr(args, "lang", None) is not None:   # a print language, in any of its spellings
        lang = normalize_language(args.lang)
        if not lang:
            _error(operator, Note("not a print language: {value} (one of {languages})", value=repr(args.lang),
                                  languages=", ".join(LANGUAGES)))
            return 2
        args.lang = lang
    # the answer's own language where the command has one, else the operator's
    msg = messages(args.lang) if getattr(args, "lang", None) else operator
    logging.basicConfig(level=getattr(logging, config.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        status = _dispatch(args, config, msg)
        sys.stdout.flush()   # a closed pipe shows here, not at exit
        return status
    except (ConfigError, DataImportError, SettingsError) as exc:
        _error(msg, exc)
        return 2
    except BrokenPipeError:   # `wayfinder … | head`: the reader had enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _error(msg, "the output was closed before everything was written (broken pipe)")
        return 141
    except KeyboardInterrupt:
        return 130


def _dispatch(args, config: Config, msg: Messages) -> int:
    command = args.command or "run"
    if command == "run":
        if config.token:
            gc.disable()   # while the bot starts: see bot.discord_app.bot.resume_collector
            from bot.discord_app.bot import StartError, run_bot
            try:
                return run_bot(config)
            except StartError as exc:   # Discord refused the bot, or cannot be reached
                _error(msg, exc)
                return 2
        command = "console"
    if command == "console":
        from bot.console import run_console
        from bot.services import Services
        return run_console(Services(config))
    if command == "data":
        return _data(args, config, msg)
    if command == "db":
        return _db(config, args, msg)
    from bot.services import Services
    services = Services(config)
    if command == "card":
        from bot.rulings.command import card
        return _print_reply(card(services, " ".join(args.name), args.lang, as_json=args.json, reader=msg), args.json)
    if command == "resolve":
        return _resolve(services, args.names, args.lang)
    if command == "ruling":
        from bot.rulings.command import ruling
        return _print_reply(ruling(services, " ".join(args.name), args.lang, search=args.search,
                                   show_originals=args.originals, show_oracle=args.oracle), args.json)
    if command == "rule":
        from bot.rules.command import rule
        return _print_reply(rule(services, " ".join(args.query), args.lang), args.json)
    if command == "ask":
        from bot.ask.command import ask
        return _print_reply(ask(services, " ".join(args.question), args.lang), args.json)
    if command == "rules":
        return _rules(services, args, msg)
    if command == "explore":
        return _explore(services, args, msg)
    raise SystemExit(f"unknown command {command}")


def _explore(services: Services, args, msg: Messages) -> int:
    """One scenario, narrated in ``msg``'s language (--lang's, else the operator's), or its JSON."""
    from bot.explore.choices import ScenarioError
    from bot.explore.names import CardNames
    from bot.explore.narrate import describe
    from bot.explore.model import Event
    from bot.explore.scenario import load, run

    def deck_lookup(name: str):   # a scenario that names a preset deck
        from bot.explore.decks import parse, preset_names, preset_text
        text = preset_text(name)
        if text is None:
            raise ScenarioError("No deck named “{deck}”. Decks: {decks}.", deck=name, decks=", ".join(preset_names()))
        deck = parse(text, services.matcher, messages("en"), name)
        return [services.card_facts(services.catalog.card(oid).name) for oid in deck.oracle_ids()]

    try:
        result = run(load(args.scenario), services.card_facts, deck_lookup)
    except ScenarioError as exc:
        if args.json:
            _print_json({"error": str(exc)})
        else:
            _error(msg, exc)
        return 2
    if args.json:
        _print_json(result)
        return 0
    name = CardNames(services, msg.lang)
    for i, event in enumerate(result["events"], start=1):
        line = describe(Event(event["kind"], {k: v for k, v in event.items() if k not in ("kind", "cites")},
                              tuple(event["cites"])), msg, name)
        if line:
            print(f"{i:3}. {line}")
    print()
    print(json.dumps(result["state"], ensure_ascii=False, indent=2))
    return 0


def _db(config: Config, args, msg: Messages) -> int:
    """db migrate | check | backup, on SQLite and PostgreSQL alike; a refusal is one line, exit 2."""
    import asyncio
    import tempfile
    from bot.settings.backup import check_backup_target
    from bot.settings.store import SettingsStore

    async def backup(target: Path) -> None:
        store = await SettingsStore.open(config.settings_path)
        # written beside the target, then renamed over it: a failed backup leaves the old file
        fd, scratch = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        os.close(fd)
        try:
            done = await store.backup(scratch)
            os.replace(scratch, target)
            print(f"{target}: {said(done, msg)}")
        except OSError as exc:
            raise SettingsError(Note("{target} cannot be written: {error}", target=target,
                                     error=exc.strerror or exc)) from exc
        finally:
            Path(scratch).unlink(missing_ok=True)
            await store.close()

    async def schema() -> int:
        if not is_database_url(config.settings_path) and not Path(config.settings_path).exists() \
                and args.db_command == "check":
            raise SettingsError(Note("there is no settings database at {path} (the bot creates it at start-up,"
                                     " so does `wayfinder db migrate`)", path=config.settings_path))
        store = await SettingsStore.open(config.settings_path, migrate=False)
        try:
            if args.db_command == "migrate":
                applied = await store.migrate()
                after = await store.status()
                done = msg._("applied {migrations}", migrations=", ".join(f"{n:03d}" for n in applied)) \
                    if applied else msg._("nothing to apply")
                print(msg._("{target}: schema version {version} ({done})", target=after.target,
                            version=msg.number(after.version), done=done))
                return 0
            status = await store.status()
            state = msg._("up to date") if not status.pending else \
                Note("{count} migration to apply: run `wayfinder db migrate`",
                     "{count} migrations to apply: run `wayfinder db migrate`", count=status.pending).localized(msg)
            print(msg._("{target}: schema version {version} of {latest}, {state}", target=status.target,
                        version=msg.number(status.version), latest=msg.number(status.latest), state=state))
            return 1 if status.pending else 0
        finally:
            await store.close()

    try:
        if args.db_command != "backup":
            return asyncio.run(schema())
        live = None if is_database_url(config.settings_path) else config.settings_path
        asyncio.run(backup(check_backup_target(args.path, live, force=args.force)))
        return 0
    except SettingsError as exc:
        _error(msg, exc)
        return 2


def _print_reply(reply, as_json: bool) -> int:
    """Every answer is printed one way: as text, or as its JSON (README documents each shape)."""
    if as_json:
        _print_json(reply.as_json())
    else:
        print(reply.for_terminal(styles=sys.stdout.isatty()))
    return 1 if reply.error else 0


def _edition(services: Services, value: str):
    """An edition by date from the catalog, or read from a CR text file."""
    from bot.rules.book import Edition
    path = Path(value)
    if path.exists():
        from bot.catalog.comprehensive_rules import parse_rules, read_text
        from bot.rules.book import Rule
        doc = parse_rules(read_text(path), str(path))
        rules = {r.number: Rule(r.number, r.parent, r.title, r.text, tuple(r.examples), i)
                 for i, r in enumerate(doc.rules)}
        return Edition(0, doc.effective_date, "en", rules, dict(doc.glossary)).index()
    edition = services.rules.edition(value)
    if edition is None:
        known = ", ".join(e.effective_date for e in services.rules.editions)
        raise LookupError(Note("no edition {value} in the catalog (editions: {editions}); name a date or a CR file",
                               value=repr(value), editions=known) if known else
                          Note("no edition {value} in the catalog, which holds none; name a CR file", value=repr(value)))
    return edition


def _rules(services: Services, args, msg: Messages) -> int:
    if args.rules_command == "editions":
        for edition in services.rules.editions:
            print(msg._("{date}  {rules}, {glossary}", date=edition.effective_date,
                        rules=Note("{count} rule", "{count} rules", count=len(edition.rules)).localized(msg),
                        glossary=Note("{count} glossary entry", "{count} glossary entries",
                                      count=len(edition.glossary)).localized(msg)))
        return 0
    from bot.rules.diff import diff, format_diff
    try:
        old, new = _edition(services, args.old), _edition(services, args.new)
    except LookupError as exc:
        _error(msg, exc.args[0])
        return 2
    result = diff(old, new)
    if args.json:
        _print_json(result.as_dict())
    else:
        print(format_diff(result, new, old))
    return 0


def _data(args, config: Config, msg: Messages) -> int:
    from bot.catalog.bundled import build_bundled, ensure_catalog
    from bot.catalog.importer import collector_paused, import_files

    def log(line) -> None:   # the importer's lines, in the operator's language
        print(said(line, msg), flush=True)

    if args.data_command == "import":
        with collector_paused():
            reports = import_files(config.catalog_path, args.files, progress=not args.no_progress, log=log,
                                   lock_wait=config.import_wait, bundled_first=True)
        return 1 if any(r.skipped for r in reports) else 0   # a file was refused whole
    if args.data_command == "bundled":
        build_bundled(config.catalog_path, log=log, lock_wait=config.import_wait)
        return 0
    if args.data_command == "sync":
        from bot.catalog.sync import sync
        types = bulk_types(args.types, "--types", ())   # refused before anything is fetched
        ensure_catalog(config.catalog_path, log=log, lock_wait=config.import_wait)
        with collector_paused():
            sync(config, types=list(types),
                 base_url=args.base_url, progress=not args.no_progress, log=log, rules_url=args.rules_url)
        return 0
    if args.data_command == "info":
        from bot.catalog.store import Catalog
        ensure_catalog(config.catalog_path, log=log, lock_wait=config.import_wait)
        info = Catalog(config.catalog_path).info()
        if args.json:
            _print_json(info)
        else:
            print(_info_text(info, config.catalog_path, msg))
        return 0
    return 1


def _info_text(info: dict, catalog: Path, msg: Messages) -> str:
    """`data info` as text, in the operator's language."""
    from bot.catalog.report_text import counts_text

    def counts(values: dict) -> str:
        return ", ".join(f"{k} {msg.number(v)}" for k, v in values.items())

    dates = info["ruling_dates"]
    lines = [msg._("catalog: {path}", path=catalog),
             msg._("cards: {cards}   names: {names}   rulings: {rulings}", cards=msg.number(info["cards"]),
                   names=msg.number(info["names"]), rulings=msg.number(info["rulings"])),
             msg._("names per language: {counts}", counts=counts(info["names_per_language"])),
             msg._("rulings per language: {counts}", counts=counts(info["rulings_per_language"])),
             msg._("ruling sources: {counts}", counts=counts(info["ruling_sources"])),
             msg._("ruling statuses: {counts}", counts=counts(info["ruling_statuses"])),
             msg._("ruling dates: {first} to {last}", first=msg.date(dates["first"]), last=msg.date(dates["last"]))
             if dates["first"] else msg._("ruling dates: none"),
             msg._("Comprehensive Rules editions: {editions}",
                   editions=", ".join(msg.date(d) for d in info["rules_editions"]))
             if info["rules_editions"] else msg._("Comprehensive Rules editions: none")]
    for imp in info["imports"][-10:]:
        done = counts_text(imp["counts"], msg)
        if imp["warnings"]:
            skipped = Note("{count} record skipped", "{count} records skipped", count=imp["warnings"])
            done = msg._("{summary}; {skipped}", summary=done, skipped=skipped.localized(msg))
        when = imp["imported_at"]
        lines.append(msg._("  imported {date} {kind}: {file} ({counts})",
                           date=f"{msg.date(when[:10])} {when[11:16]} UTC", kind=msg._(imp["kind"]),
                           file=Path(imp["path"]).name, counts=done))
    return "\n".join(lines)


def _resolve(services: Services, names: list[str], lang: str | None) -> int:
    source = names or (line.rstrip("\n") for line in sys.stdin)
    status = 0
    for name in source:
        result = services.matcher.resolve(name, prefer_lang=lang)
        _print_json(result.as_dict())
        status = status or (result.status != "one")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
