"""/ask and ``wayfinder ask``: a question → the rules, glossary entries and rulings that decide it."""
from __future__ import annotations

from bot.i18n import messages
from bot.reply import Choice, Reply
from bot.rulings.select import dated, version_shown
from bot.services import Services

RULE_VALUE, CARD_VALUE = "rule:", "card:"
MAX_QUESTION_OPTION = 4000      # what Discord lets a reader type; the search reads MAX_QUESTION of it
# How long a question to a running bot waits for the /ask index made ready in the background (a
# build takes about a minute on a full catalog; one waiting for another process's build, up to an
# hour): well within the 15 minutes Discord lets a deferred answer come in.
INDEX_WAIT = 300.0


def _rulings_shown(services: Services, index, results, lang: str, machine: str) -> dict[str, tuple]:
    """For each ruling among ``results`` (by its id): the text to show, its language, the version
    shown (its date, source and status are that text's) and the English original it renders, if a
    translation: as /ruling shows it (bot.rulings.select.version_shown), the version in the
    reader's language taken from the ruling's group (the same ruling printed for several cards, and
    its translations). Read together, however many they are: one look-up of the index, and of the
    catalog one for the versions and one for the originals not among them."""
    found = [result for result in results if result.kind == "ruling"]
    if not found:
        return {}
    catalog = services.catalog
    groups = index.groups({result.group for result in found})

    def candidate(result) -> int:
        """The ruling in the reader's language, the same card's first; else the one found."""
        mine = [doc for doc in groups.get(result.group, ()) if doc.lang == lang]
        return int(min(mine, key=lambda doc: doc.oracle_id != result.oracle_id).ref) if mine else int(result.ref)

    candidates = {result.ref: candidate(result) for result in found}
    rulings = catalog.rulings_by_id(sorted(set(candidates.values())))
    wanted = {ruling.original_id for ruling in rulings.values() if ruling.original_id}
    rulings.update(catalog.rulings_by_id(sorted(wanted - rulings.keys())))
    shown = {}
    for result in found:
        ruling = rulings.get(candidates[result.ref])
        if ruling is None:     # not in the catalog read (it changed meanwhile): the text found
            shown[result.ref] = (result.text, result.lang, None, None)
            continue
        version = version_shown(ruling, rulings.get(ruling.original_id) if ruling.original_id else None,
                                lang, machine)
        shown[result.ref] = (version.ruling.text, version.ruling.lang, version.ruling, version.original)
    return shown


def ask(services: Services, question: str, lang: str, *, limit: int = 5, machine: str = "show",
        asked_at: float | None = None) -> Reply:
    """``machine``: the server's machine translations setting ("show" marked, or "hide").
    ``asked_at``: when a running bot received the question (time.monotonic()): the index is then
    not built for it but waited for, INDEX_WAIT at most (Services.ready_ask_index), or until it
    could not be built; without it (a one-shot command) it is built here when missing."""
    # the search (stemmers, game terms, ranking) is loaded by the first question, not at start
    from bot.ask.pages import answer_pages, passage
    from bot.ask.search import rank
    from bot.ask.understand import MAX_QUESTION, understand
    msg = messages(lang)
    question = (question or "").strip()
    if not question:
        return Reply(content=msg._("Ask a question about the rules, in your own words."), error=True)
    catalog, book = services.catalog, services.rules
    index = services.ask_index if asked_at is None else services.ready_ask_index(asked_at + INDEX_WAIT)
    if index is None and services.ask_index_failed:
        return Reply(content=msg._("The search index for questions could not be built. The bot's operator"
                                   " will find why in its log; it is tried again in a few minutes."), error=True)
    if index is None:
        return Reply(content=msg._("The search index for questions is still being built."
                                   " Please ask again in a minute."), error=True)
    current = book.current.rules if not book.empty else {}
    understood = understand(question, lang, index, lambda number: number in current)

    def card_text(oracle_id: str) -> str:
        card = catalog.card(oracle_id)
        return card.oracle_text if card else ""

    def card_name(oracle_id: str) -> str | None:
        card = catalog.card(oracle_id)
        return card.name if card else None

    results = (rank(understood, index, book, card_text, limit=limit, card_name=card_name,
                    keywords=services.keywords if not book.empty else None)
               if not understood.empty else [])
    cards = []
    for oracle_id, words in understood.cards:
        card = catalog.card(oracle_id)
        if card is not None:
            shown = catalog.printed_name(oracle_id, lang) or card.name
            cards.append({"oracle_id": oracle_id, "name": card.name, "matched": words,
                          "shown": shown if shown == card.name else f"{shown} ({card.name})"})
    data = {"query": understood.text, "lang": lang, "question_lang": understood.lang, "cards": cards,
            "results": []}
    highlighted = []
    versions = _rulings_shown(services, index, results, lang, machine)
    for result in results:
        text, text_lang, ruling, original = versions.get(result.ref, (result.text, result.lang, None, None)) \
            if result.kind == "ruling" else (result.text, result.lang, None, None)
        item = {"kind": result.kind, "text": text, "lang": text_lang, "score": result.score}
        if result.kind == "rule":
            item.update(number=result.ref, edition=book.current.effective_date)
        elif result.kind == "glossary":
            item.update(term=result.ref, edition=book.current.effective_date)
        else:
            card = catalog.card(result.oracle_id)
            name = card.name if card else result.oracle_id
            shown = catalog.printed_name(result.oracle_id, lang) or name
            published_at, source = dated(ruling, original) if ruling else (None, None)
            item.update(card=name, oracle_id=result.oracle_id, card_shown=shown, published_at=published_at,
                        source=source, status=ruling.status if ruling else None, cites=list(result.cites))
        data["results"].append(item)
        highlighted.append(passage(text, text_lang, set(result.matched)))
    notes = [msg._("Your input was cut to {limit} characters.", limit=MAX_QUESTION)] if understood.truncated else []
    if not results:
        notes.append(msg._("Nothing matched your question. Try naming a card, a rule number or a game term"
                           " (for example “explore”, “empty library”, “704.5b”)."))
        return Reply(content="\n".join(notes), error=True, data=data)
    reply = Reply(pages=answer_pages(data, msg, highlighted), data=data, content="\n".join(notes) or None)
    reply.choices = _choices(data, book, msg)
    return reply


def _choices(data: dict, book, msg) -> list[Choice]:
    """What the reader can open next: each rule as /rule shows it, each card's rulings."""
    out, seen = [], set()
    for item in data["results"]:
        numbers = [item["number"]] if item["kind"] == "rule" else item.get("cites", [])
        for number in numbers:
            if number not in seen:
                seen.add(number)
                rule = book.current.rules.get(number) if not book.empty else None
                label = f"{msg._('Rule {number}', number=number)} — {rule.title}" if rule and rule.title \
                    else book.label(number)
                out.append(Choice(label[:100], RULE_VALUE + number))
        if item["kind"] == "ruling" and item["oracle_id"] not in seen:
            seen.add(item["oracle_id"])
            out.append(Choice(msg._("Rulings of {card}", card=item["card_shown"])[:100],
                              CARD_VALUE + item["oracle_id"]))
    for card in data["cards"]:
        if card["oracle_id"] not in seen:
            seen.add(card["oracle_id"])
            out.append(Choice(msg._("Rulings of {card}", card=card["shown"])[:100], CARD_VALUE + card["oracle_id"]))
    return out[:25]
