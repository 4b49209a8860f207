"""Every command fed bad input: a clear, localized message, privately, never a traceback."""
from tests.e2e.helpers import answer_of, option


def run_options(**values):
    return [{"name": "run", "type": 1, "options": [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in values.items()]}]


async def test_bad_inputs_get_localized_messages(shared_bot):
    fake = shared_bot.fake
    cases = [
        ("ruling", [option("card", "Queen's Agent" + "x" * 300)], "fr", "Aucune carte ne s'appelle"),
        ("ruling", [option("card", "?!…")], "it", "Quel nome non contiene lettere né cifre."),
        ("ruling", [option("card", "zzqqxxv")], "de", "Keine Karte heißt „zzqqxxv“."),
        ("ruling", [option("card", "nicanzil"), option("search", "y" * 150)], "pt-BR",
         "O texto de busca é longo demais (no máximo 100 caracteres)."),
        ("rule", [{"name": "query", "type": 3, "value": "999.99"}], "es-ES", "No hay ninguna regla con el número 999.99."),
        ("explore", run_options(deck="ixalan", explorer="Jadelight Ranger", seed="-5"), "ja",
         "シードは0から9223372036854775807までの整数にしてください。"),
        ("explore", run_options(deck="ixalan", explorer="Jadelight Ranger", times=99), "ko",
         "탐험 횟수는 1부터 20까지여야 합니다."),
        ("explore", run_options(deck="ixalan", explorer="Forest Zzqqxx"), "ru", "Карты с названием «Forest Zzqqxx» нет."),
    ]
    for command, options, locale, expected in cases:
        answer = await fake.slash(command, options, locale=locale)
        content = (await answer_of(fake, answer)).get("content") or ""
        assert content.startswith(expected), (command, locale, content)
        assert (await answer_of(fake, answer))["flags"] & 64, (command, content)
        assert "Traceback" not in content

    long = await fake.slash("ruling", [option("card", "x" * 300)], locale="fr")
    assert "Votre saisie a été coupée à 200 caractères." in (await answer_of(fake, long))["content"]
