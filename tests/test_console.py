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
