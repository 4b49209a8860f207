"""The reply-language rule every front end uses: option > server > user > locale."""
from bot.settings.language import reply_language


def test_the_commands_option_wins_over_everything():
    assert reply_language("ja", server="it", user="de", locale="fr") == "ja"


def test_the_servers_setting_wins_unless_it_is_auto():
    assert reply_language(None, server="it", user="de", locale="fr") == "it"
    assert reply_language(None, server="auto", user="de", locale="fr") == "de"


def test_without_a_user_language_the_locale_decides_and_unknown_locales_read_english():
    assert reply_language(None, server="auto", user=None, locale="pt-BR") == "pt"
    assert reply_language(None, server="auto", user=None, locale="zh-TW") == "zht"
    assert reply_language(None, server="auto", user=None, locale="fr_FR.UTF-8") == "fr"
    assert reply_language(None, server="auto", user=None, locale="nl") == "en"
    assert reply_language() == "en"
