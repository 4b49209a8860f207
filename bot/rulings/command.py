"""/ruling: a card's official rulings in the reader's language."""
from __future__ import annotations

from bot.i18n import Messages, messages
from bot.languages import LANGUAGES
from bot.pages import CHOICE_LIMIT, Page
from bot.rulings.select import MAX_SEARCH_CHARS, RulingEntry, RulingsReport, rulings_for
from bot.rulings.pages import (capitalized, card_title, has_translations, language_label, other_card_name,
                               ruling_notes, ruling_pages, source_label)
from bot.services import Services
from bot.text import MAX_QUERY_CHARS
from bot.matching.lookup import resolve_card, unresolved
from bot.reply import Choice, Reply


def ruling(services: Services, card: str, lang: str, *, search: str | None = None,
           machine: str = "show", show_originals: bool = False, show_oracle: bool = False) -> Reply:
    msg = messages(lang)
    if search and len(search) > MAX_SEARCH_CHARS:
        return Reply(content=msg._("The search text is too long (at most {limit} characters).",
                                   limit=MAX_SEARCH_CHARS), error=True)
    lookup = resolve_card(services.matcher, card, msg, prefer_lang=lang)
    if lookup.reply:
        return lookup.reply
    report = rulings_for(services.catalog, lookup.oracle_id, lang, search=search or None, machine=machine)
    reply = Reply(pages=ruling_pages(report, msg, show_originals, show_oracle))
    keywords = services.keywords
    reply.choices = [Choice(f"{msg._('Rule {number}', number=n)} — {keywords.title(n)}"[:CHOICE_LIMIT], n)
                     for n in keywords.rules(report.card.oracle_text, name=report.card.name)]
    if lookup.truncated:
        reply.content = msg._("Your input was cut to {limit} characters.", limit=MAX_QUERY_CHARS)
    reply.data = {
        "oracle_id": report.card.oracle_id, "name": report.card.name, "title": card_title(report),
        "lang": lang, "no_translation": report.no_translation, "no_english": report.no_english,
        "translations": has_translations(report),
        "printed_text": ({"lang": report.printed.lang, "name": report.printed.name,
                          "type_line": report.printed.type_line, "text": report.printed.text}
                         if report.printed else None),
        "oracle_text": report.card.oracle_text,
        "rulings": [ruling_json(e, report, msg) for e in report.entries],
    }
    return reply


def _dated_json(entry: RulingEntry, msg: Messages) -> dict:
    """Where a ruling's text comes from: its date, source, documents, and the card it was
    published for when that is another card."""
    other = entry.other_card
    return {"published_at": entry.published_at, "date": msg.date(entry.published_at), "source": entry.source,
            "sources": [s.as_dict() for s in entry.sources],
            "other_card": {"oracle_id": other.oracle_id, "name": other.name, "shown": other_card_name(other)}
            if other else None}


def ruling_json(entry: RulingEntry, report: RulingsReport, msg: Messages) -> dict:
    """One ruling as `ruling --json` and `card --json` print it (README, /ruling)."""
    dated = _dated_json(entry, msg)
    return {"published_at": dated["published_at"], "date": dated["date"], "source": dated["source"],
            "lang": entry.lang, "status": entry.status, "text": entry.text, "wordings": list(entry.wordings),
            "untranslated_sentences": list(entry.untranslated_sentences),
            "english_original": entry.english_original,
            "original": _dated_json(entry.original, msg) if entry.original else None,
            "shown": entry.shown, "label": language_label(entry, report, msg),
            "sources": dated["sources"], "other_card": dated["other_card"]}


def card(services: Services, name: str, lang: str | None = None, *, as_json: bool = False,
         reader: Messages | None = None) -> Reply:
    """`wayfinder card`: a card, its names per language and its rulings in one language (``lang``,
    else the language of the name that matched). Printed as JSON (``as_json``), each ruling comes
    in the shape `ruling --json` gives, its date written in the language; the text shows ISO dates. A
    name that names no single card is said as /ruling says it, in ``lang`` (else ``reader``'s)."""
    result = services.matcher.resolve(name, prefer_lang=lang)
    if result.status != "one":
        reply = unresolved(result, messages(lang) if lang else reader or messages("en"))
        reply.error, reply.data = True, {"error": "no single card", **result.as_dict()}
        return reply
    best = result.best
    lang = lang or best.lang
    msg = messages(lang)
    report = rulings_for(services.catalog, best.oracle_id, lang)
    found = report.card
    entries = [e for e in report.entries if e.lang == lang]
    data = {
        "oracle_id": found.oracle_id, "name": found.name, "layout": found.layout, "type_line": found.type_line,
        "oracle_text": found.oracle_text, "mana_cost": found.mana_cost, "image_uri": found.image_uri,
        "kind": found.kind,
        "faces": [{"name": f.name, "type_line": f.type_line, "oracle_text": f.oracle_text,
                   "mana_cost": f.mana_cost} for f in found.faces],
        "names": report.printed_names,
        "matched": {"name": best.name, "lang": best.lang, "score": round(best.score, 1)},
        "rulings_lang": lang,
    }
    if as_json:
        data["rulings"] = [ruling_json(e, report, msg) for e in entries]
    # languages, sources and translations in words, as the rulings' pages say them
    lines = [found.type_line, found.oracle_text, ""]
    lines += [msg._("{language}: {names}", language=capitalized(msg.language_name(code)), names=" / ".join(names))
              for code in LANGUAGES for names in [data["names"].get(code)] if names]
    lines += ["", msg.n_("{count} ruling in {language}:", "{count} rulings in {language}:", len(entries),
                         language=msg.language_name(lang))]
    for e in entries:
        notes = ruling_notes(e, report, msg) + (
            [msg._("also worded: {wordings}", wordings=" | ".join(e.wordings))] if e.wordings else [])
        lines += [f"- {e.published_at or msg._('undated')} · {source_label(e, msg)}", f"  {e.text}"]
        lines += [f"  *{note}*" for note in notes]
    page = Page(title=f"{found.name}  {found.mana_cost or ''}".rstrip(), description="\n".join(lines))
    return Reply(pages=[page], data=data)
