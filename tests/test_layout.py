"""The layout the README promises: only bot/discord_app talks to discord; cogs only draw."""
import ast
from pathlib import Path

from tests.helpers import PROJECT

BOT = PROJECT / "bot"
COGS = PROJECT / "cogs"

# what a cog may use from the core: the commands, the shared layer, the discord adapters
DRAWING = ("bot.discord_app", "bot.i18n", "bot.languages", "bot.pages", "bot.reply", "bot.text",
           "bot.settings.command", "bot.settings.language", "bot.settings.store", "bot.matching.lookup",
           "bot.explore.decks", "bot.rulings.inline")


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) for every import in the file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def test_nothing_in_bot_outside_the_discord_adapters_imports_discord():
    offenders = []
    for path in sorted(BOT.rglob("*.py")):
        if (BOT / "discord_app") in path.parents:
            continue
        offenders += [f"{path.relative_to(PROJECT)}: {module}" for module, _ in imports(path)
                      if module == "discord" or module.startswith("discord.")]
    assert len(list(BOT.rglob("*.py"))) > 40, "the walk found the modules"
    assert not offenders, offenders


def test_cogs_call_commands_and_draw_they_compute_nothing():
    """A cog imports a feature's command module, the shared layer and the discord adapters; from
    anything else (engines, odds, look-ups, the catalog) at most a named limit."""
    offenders = []
    for path in sorted(COGS.glob("*.py")):
        for module, names in imports(path):
            if not module.startswith("bot"):
                continue
            if module.endswith(".command") or module.startswith(DRAWING):
                continue
            # a submodule imported by name (from bot.explore import decks) counts as that module
            computed = [name for name in names if not name.isupper()
                        and not f"{module}.{name}".startswith(DRAWING)]
            if computed or not names:
                offenders.append(f"{path.name}: {module} {computed or ''}")
    assert not offenders, offenders


def test_the_explore_cog_leaves_odds_and_the_engine_to_the_core():
    modules = {module for module, _ in imports(COGS / "explore.py")}
    assert "bot.explore.command" in modules
    assert not modules & {"bot.explore.odds", "bot.explore.engine", "bot.explore.chart", "bot.explore.shuffle"}
