import io

from bot.console import Console, parse_line


def test_parse_line_reads_options_as_discord_does():
    assert parse_line("/ruling defossilizare language:it") == (["ruling"], {"": "defossilizare", "language": "it"})
    assert parse_line("/ruling card:lanterne calotte search:empty library") == (
        ["ruling"], {"card": "lanterne calotte", "search": "empty library"})
    assert parse_line("/explore run deck:ixalan explorer:Jadelight Ranger seed:7") == (
        ["explore", "run"], {"deck": "ixalan", "explorer": "Jadelight Ranger", "seed": "7"})


def test_console_runs_ruling_like_discord(bundled_services):
    console = Console(bundled_services, "en", out=io.StringIO())
    text = console.execute("/ruling defossilizare language:it")
    assert text.startswith("Defossilizzare (Defossilize)")
    assert "10 novembre 2023" in text
    assert "Se una magia" in text


def test_console_language_switch_and_loop(bundled_services):
    out = io.StringIO()
    console = Console(bundled_services, "en", out=out)
    code = console.loop(io.StringIO("/lang fr\n/ruling lanterne calotte\n/quit\n"))
    assert code == 0
    assert "Aucune traduction en français" in out.getvalue()


def test_console_bad_input_is_a_message(bundled_services):
    console = Console(bundled_services, "it", out=io.StringIO())
    assert "Scrivi il nome di una carta." in console.execute("/ruling")
    assert "Nessuna carta si chiama «zzqqxx»." in console.execute("/ruling zzqqxx")
    assert "/ruling" in console.execute("/nonsense")


def test_console_follows_its_language_then_the_system_locale(bundled_services):
    console = Console(bundled_services, None, out=io.StringIO(), locale="it_IT")
    assert "Nessuna carta si chiama «zzqqxx»." in console.execute("/ruling zzqqxx")
    assert "Aucune carte ne s'appelle « zzqqxx »." in console.execute("/ruling zzqqxx language:fr")
    console.execute("/lang de")
    assert console.lang == "de"


def test_unknown_commands_and_language_codes_are_explained(bundled_services):
    console = Console(bundled_services, "en", out=io.StringIO())
    text = console.execute("/foo")
    assert text.startswith("Unknown command /foo. Commands: /ruling, /rule, /explore, /settings, /lang")
    assert console.execute("/explore nope").startswith("Unknown command /explore nope. Commands: /explore run")
    assert "“xx” is not a language code. Codes: en (English), es (Español)" in console.execute("/lang xx")
    assert "zht (繁體中文)" in console.execute("/lang xx")
    assert console.execute("/lang fr") == "Langue de la console : français."
    assert console.execute("/foo").startswith("Commande inconnue : /foo. Commandes : /ruling")
    help_text = console.execute("/help")
    assert "Affiche les clarifications officielles d'une carte dans votre langue" in help_text
    assert "/settings <setting> value:<value>" in help_text


def test_answers_are_drawn_for_a_terminal(bundled_services):
    console = Console(bundled_services, "en", out=io.StringIO())
    rulings = console.execute("/ruling glowcap lantern")     # nine rulings: two pages on Discord
    assert "\nArtifact — Equipment\n" in rulings and "*" not in rulings
    assert rulings.count("— November 10, 2023") == 9     # the sections of both pages
    assert rulings.startswith("Glowcap Lantern\n") and "\nGlowcap Lantern\n" not in rulings   # the title once
    assert "Page 1 of 2" not in rulings and rulings.count("9 rulings") == 1
    run = console.execute("/explore run deck:ixalan explorer:Jadelight Ranger seed:42")
    for text in (rulings, run):
        assert "\u200b" not in text and "\n\n\n" not in text
        assert all(line == line.rstrip() for line in text.split("\n"))
    assert "— Life: 20" in run and run.count("— Steps") == 1


def test_terminal_markdown():
    from bot.reply import terminal
    text = "**Bold** and *italic*, `code`, [the rule](https://example.org/r), \\*not\\* ||hidden||\u200b\n\u200b\n\n\nend"
    assert terminal(text) == "Bold and italic, code, the rule <https://example.org/r>, *not* hidden\n\nend"
    assert terminal("**B** *i*", styles=True) == "\x1b[1mB\x1b[0m \x1b[3mi\x1b[0m"
    assert terminal("2 * 3 * 4 and snake_case_name") == "2 * 3 * 4 and snake_case_name"


def test_settings_of_the_console_server(bundled_catalog_path, tmp_path):
    from bot.config import Config
    from bot.services import Services
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(bundled_catalog_path),
                                         "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}))
    console = Console(services, None, out=io.StringIO(), locale="en_US")
    try:
        shown = console.execute("/settings show")
        assert shown.startswith("Settings") and "— Reply language\nauto (each user's language)" in shown
        assert console.execute("/settings machine value:maybe") == (
            "“maybe” is not a value of /settings machine: show, hide.")
        assert console.execute("/settings language value:de") == (
            "Einstellung gespeichert: Sprache der Antworten — Deutsch.")
        assert "Keine Karte heißt „zzqqxx“." in console.execute("/ruling zzqqxx")   # the server's language applies
        assert console.execute("/settings originals value:beside").endswith("neben jeder Übersetzung.")
        assert console.execute("/settings reset").endswith("„/settings reset confirm:yes“ eingeben.")
        assert "Deutsch" in console.execute("/settings show")       # nothing was reset without confirmation
    finally:
        console.close()
    again = Console(services, None, out=io.StringIO(), locale="en_US")   # the settings were kept
    try:
        assert "— Sprache der Antworten\nDeutsch" in again.execute("/settings")
        assert again.execute("/settings reset confirm:yes") == "Every setting of this server is back to its default."
        assert again.execute("/language value:ja") == "あなたの言語は日本語になりました。"
        assert "「zzqqxx」" in again.execute("/ruling zzqqxx")
        assert "is not a language code" not in again.execute("/language value:auto")
    finally:
        again.close()
