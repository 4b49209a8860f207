"""/ruling: a card's official rulings in the reader's language."""
from __future__ import annotations

from bot.i18n import messages
from bot.rulings.select import MAX_SEARCH_CHARS, rulings_for
from bot.rulings.pages import card_title, has_translations, language_label, ruling_pages
from bot.services import Services
from bot.text import MAX_QUERY_CHARS
from bot.matching.lookup import resolve_card
from bot.reply import Choice, Reply


def ruling(services: Services, card: str, lang: str, *, search: str | None = None,
           machine: str = "show", show_originals: bool = False) -> Reply:
    msg = messages(lang)
    if search and len(search) > MAX_SEARCH_CHARS:
        return Reply(content=msg._("The search text is too long (at most {limit} characters).",
                                   limit=MAX_SEARCH_CHARS), error=True)
    lookup = resolve_card(services.matcher, card, msg, prefer_lang=lang)
    if lookup.reply:
        return lookup.reply
    report = rulings_for(services.catalog, lookup.oracle_id, lang, search=search or None, machine=machine)
    reply = Reply(pages=ruling_pages(report, msg, show_originals))
    rules = services.rules
    reply.choices = [Choice(f"{msg._('Rule {number}', number=n)} — {rules.current.rules[n].title}"[:100], n)
                     for n in rules.keyword_rules(report.card.oracle_text)]
    if lookup.truncated:
        reply.content = msg._("Your input was cut to {limit} characters.", limit=MAX_QUERY_CHARS)
    reply.data = {
        "oracle_id": report.card.oracle_id, "name": report.card.name, "title": card_title(report),
        "lang": lang, "no_translation": report.no_translation, "no_english": report.no_english,
        "translations": has_translations(report),
        "rulings": [{"published_at": e.published_at, "date": msg.date(e.published_at), "source": e.source,
                     "lang": e.lang, "status": e.status, "text": e.text, "wordings": list(e.wordings),
                     "untranslated_sentences": list(e.untranslated_sentences),
                     "english_original": e.english_original, "shown": e.shown,
                     "label": language_label(e, report, msg),
                     "sources": [s.as_dict() for s in e.sources]}
                    for e in report.entries],
    }
    return reply
