"""/explore: explore on a deck shuffled from a seed, step by step; exact odds; the deck list."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.explore import decks
from bot.explore.names import CardNames
from bot.explore.shuffle import new_seed, parse_seed, shuffled
from bot.i18n import Messages, messages
from bot.pages import Field, Page, escape, pack, split_value
from bot.services import Services
from bot.reply import Choice, Reply

# The engine, its card table and the narration are loaded by the first run (the odds and their
# exact fractions, and the chart, by the first odds), not when the bot starts: the functions below
# import what they run.
if TYPE_CHECKING:
    from bot.explore.choices import NeedChoice
    from bot.explore.engine import Engine
    from bot.explore.model import CardFacts

MAX_TIMES = 20          # how many times one run or odds may explore
MAX_SEED_CHARS = 30     # the seed option's length (the seed itself is at most 2**63-1)
DEFAULT_DECK = "ixalan"
COLOR = 0x228B22


@dataclass
class ExploreRequest:
    deck: str                      # a preset name, or a saved deck's name (its text in deck_text)
    explorer: str
    times: int | None = None
    seed: int | None = None
    answers: list[str] = field(default_factory=list)
    deck_text: str | None = None
    policy: str | None = None      # a standing answer to reveals (None: ask)


def times_error(msg: Messages) -> str:
    return msg._("The number of explores must be from 1 to {max}.", max=MAX_TIMES)


def seed_error(msg: Messages) -> str:
    return msg._("The seed must be a whole number from 0 to 9223372036854775807.")


def new_request(msg: Messages, explorer: str, deck: str | None = None, times: int | str | None = None,
                seed: int | str | None = None, default_deck: str | None = None) -> tuple[ExploreRequest | None, str | None]:
    """A request from what was typed, or the message that says what is wrong. The deck is the one
    named, else the server's default deck, else the first preset."""
    request = ExploreRequest(deck=deck or default_deck or DEFAULT_DECK, explorer=explorer)
    if times not in (None, ""):
        try:
            request.times = int(times)
        except ValueError:
            return None, times_error(msg)
        if not 1 <= request.times <= MAX_TIMES:
            return None, times_error(msg)
    if seed not in (None, ""):
        try:
            request.seed = parse_seed(seed)
        except ValueError:
            return None, seed_error(msg)
    return request, None


async def choose_deck(request: ExploreRequest, msg: Messages, store, guild_id: int | None) -> str | None:
    """A preset deck by its name, else the deck saved on the server under that name (its text goes
    into the request); the message that lists the decks when there is neither."""
    if request.deck in decks.preset_names():
        return None
    text = await store.deck(guild_id, request.deck) if guild_id else None
    if text is None:
        saved = await store.deck_names(guild_id) if guild_id else []
        return decks.unknown_deck(msg, request.deck, decks.preset_names() + saved)
    request.deck_text = text
    return None


def card_facts(services: Services, oracle_id: str) -> CardFacts:
    from bot.explore.model import CardFacts
    return CardFacts.from_card(services.catalog.card(oracle_id))


def load_deck(services: Services, request: ExploreRequest, msg: Messages, lang: str) -> tuple[list[str] | None, Reply | None]:
    text = request.deck_text if request.deck_text is not None else decks.preset_text(request.deck)
    if text is None:
        return None, Reply(content=decks.unknown_deck(msg, request.deck, decks.preset_names()), error=True)
    parsed = decks.parse(text, services.matcher, msg, request.deck, lang)
    if parsed.errors:
        return None, Reply(content="\n".join(parsed.errors[:10]), error=True)
    return parsed.oracle_ids(), None


def deck_and_explorer(services: Services, request: ExploreRequest, msg: Messages,
                      lang: str) -> tuple[list[str], str | None, Reply | None]:
    """The deck's cards and the explorer's oracle id, or the reply that says what is wrong."""
    deck, problem = load_deck(services, request, msg, lang)
    if problem:
        return [], None, problem
    lookup = services.matcher.resolve(request.explorer, prefer_lang=lang)
    if lookup.status != "one":
        return [], None, Reply(content=msg._("No card named “{query}”.", query=escape(request.explorer)), error=True)
    if lookup.best.oracle_id not in deck:
        return [], None, Reply(content=msg._("{card} is not in the deck.",
                                             card=CardNames(services, lang)(lookup.best.english_name)), error=True)
    return deck, lookup.best.oracle_id, None


def run(services: Services, request: ExploreRequest, lang: str, interactive: bool = True) -> Reply:
    from bot.explore.cards import explore_count
    from bot.explore.choices import Choices, NeedChoice, ScenarioError
    from bot.explore.engine import Engine, slug
    from bot.explore.model import Enter, Explore, GameState, Permanent
    msg = messages(lang)
    seed = request.seed if request.seed is not None else new_seed()
    if request.times is not None and not 1 <= request.times <= MAX_TIMES:
        return Reply(content=times_error(msg), error=True)
    deck, explorer_id, problem = deck_and_explorer(services, request, msg, lang)
    if problem:
        return problem
    library_ids = list(deck)
    library_ids.remove(explorer_id)
    facts = {oid: card_facts(services, oid) for oid in set(deck)}
    state = GameState(library=[facts[oid] for oid in shuffled(library_ids, seed)])
    explorer = facts[explorer_id]
    choices = Choices(request.answers, interactive=interactive, policy=request.policy)
    engine = Engine(state, choices, services.card_facts)
    explorer_id_on_battlefield = slug(explorer.name)
    pending: NeedChoice | None = None
    try:
        own = explore_count(explorer.front_name)
        if request.times is None and own is not None:
            engine.run_action(Enter(explorer.name, explorer_id_on_battlefield, x=1 if own == "X" else 0))
        else:
            state.battlefield[explorer_id_on_battlefield] = Permanent(explorer_id_on_battlefield, explorer,
                                                                      object_number=1)
            engine.run_action(Explore(explorer_id_on_battlefield, request.times or 1))
    except NeedChoice as need:
        pending = need
    except ScenarioError as exc:
        return Reply(content=exc.localized(msg), error=True)
    reply = _run_reply(engine, explorer, request, seed, pending, msg, CardNames(services, lang))
    reply.cited = cited_rules(services, [number for event in engine.events for number in event.cites])
    return reply


def cited_rules(services: Services, numbers) -> list[Choice]:
    """The rules cited (not the rulings), in order, that the catalog's Comprehensive Rules hold."""
    rules = services.rules
    if rules.empty:
        return []
    wanted = sorted({n for n in numbers if n in rules.current.rules})
    return [Choice(rules.label(n), n) for n in wanted]


def _deck_label(name: str) -> str:
    return name if name in decks.preset_names() else escape(name)


def _zone(cards: list[CardFacts], msg: Messages, name: CardNames) -> str:
    return ", ".join(name(c.name) for c in cards) if cards else msg._("(empty)")


def _run_reply(engine: Engine, explorer: CardFacts, request: ExploreRequest, seed: int,
               pending: NeedChoice | None, msg: Messages, name: CardNames) -> Reply:
    from bot.explore.narrate import describe
    state = engine.state
    for event in engine.events:   # the permanents the steps speak of, named by their cards
        if isinstance(event.params.get("id"), str) and isinstance(event.params.get("card"), str):
            name.ids.setdefault(event.params["id"], event.params["card"])
    title = msg._("Explore — {card}", card=name(explorer.name))
    steps = [line for line in (describe(e, msg, name) for e in engine.events) if line]
    numbered = "\n".join(f"{i}. {line}" for i, line in enumerate(steps, start=1))
    header = Page(title=title,
                  description=msg._("Deck: {deck} · seed {seed}", deck=_deck_label(request.deck), seed=seed),
                  color=COLOR)
    blocks = [[Field(msg._("Steps") if i == 0 else "…", piece) for i, piece in enumerate(split_value(numbered))]]
    top = name(state.library[0].name) if state.library else msg._("(empty)")
    zones = [Field(msg._("Library"), msg._("{count} cards, top: {top}", count=len(state.library), top=top), True),
             Field(msg._("Hand"), _zone(state.hand, msg, name), True),
             Field(msg._("Graveyard"), _zone(state.graveyard, msg, name), True),
             Field(msg._("Battlefield"), ", ".join(name(p.card.name) + (f" (+{p.counters})" if p.counters else "")
                                                 for p in state.battlefield.values()) or msg._("(empty)"), True),
             Field(msg._("Life: {life}", life=state.life), "\u200b", True)]
    visible = state.top_card_visible()
    if visible:
        zones.append(Field("\u200b", msg._("You may look at the top card of your library: {card}.", card=name(visible))))
    blocks.append(zones)
    reply = Reply(pages=pack(header, blocks, lambda page, pages: msg._("Page {page} of {pages}", page=page, pages=pages)))
    if pending is not None and pending.decision == "reveal":
        reply.content = msg._("{card} was revealed. Keep it on top or put it into the graveyard?",
                              card=name(pending.about["card"]) if pending.about.get("card") else "?")
        reply.choices = [Choice(msg._("Keep on top"), "keep"), Choice(msg._("Graveyard"), "graveyard")]
    elif pending is not None:
        reply.content = f"{pending.decision}: {', '.join(pending.options)}"
        reply.choices = [Choice(o, o) for o in pending.options]
    reply.data = {
        "seed": seed, "deck": request.deck, "explorer": explorer.name, "answers": list(request.answers),
        "pending": ({"decision": pending.decision, "options": list(pending.options), "default": pending.default}
                    if pending else None),
        "explored": [{"permanent": e.permanent, "card": e.card, "revealed": e.revealed} for e in engine.explored],
        "events": [e.as_dict() for e in engine.events],
        "state": state.as_dict(),
    }
    return reply


def odds(services: Services, request: ExploreRequest, lang: str, policy: str = "keep") -> Reply:
    from bot.explore.cards import usual_explores
    from bot.explore.odds import POLICIES, explore_odds
    msg = messages(lang)
    if request.times is not None and not 1 <= request.times <= MAX_TIMES:
        return Reply(content=times_error(msg), error=True)
    if policy not in POLICIES:
        policy = "keep"
    deck, explorer_id, problem = deck_and_explorer(services, request, msg, lang)
    if problem:
        return problem
    # no ``times``: as many explores as the card's own ability (Jadelight Ranger: 2; X: 1, as /explore run pays)
    times = request.times or usual_explores(card_facts(services, explorer_id).front_name)
    library = list(deck)
    library.remove(explorer_id)
    lands = sum(1 for oid in library if card_facts(services, oid).is_land)
    result = explore_odds(len(library), lands, times, policy)
    explorer = services.catalog.card(explorer_id).name
    return odds_reply(result, explorer, request.deck, msg, CardNames(services, lang)(explorer))


def odds_reply(result, explorer: str, deck: str, msg: Messages, shown: str | None = None) -> Reply:
    """The odds as a page; ``shown`` is the explorer as the reader knows it (its English name if None)."""
    from bot.explore.chart import OddsChart
    policy_name = msg._("keep on top") if result.policy == "keep" else msg._("graveyard")
    shown = shown or explorer

    def table(distribution) -> str:
        lines = [f"{k}: {msg.percent(p)} ({p.numerator}/{p.denominator})" for k, p in sorted(distribution.items())]
        lines.append(msg._("expected {value}", value=msg.number(result.expected(distribution), 3)))
        return "\n".join(lines)

    page = Page(title=f"{msg._('Odds')} — {shown}",
                description=msg._("Exact odds: {library} cards in the library, {lands} lands, {times} explores, nonland cards: {policy}.",
                                  library=result.library, lands=result.lands, times=result.times, policy=policy_name)
                + "\n" + msg._("Deck: {deck}", deck=_deck_label(deck)),
                fields=[Field(msg._("Lands to hand"), table(result.lands_to_hand), True),
                        Field(msg._("+1/+1 counters"), table(result.counters), True),
                        Field(msg._("Cards put into the graveyard"), table(result.to_graveyard), True)],
                color=COLOR)
    chart = OddsChart(result, msg, shown, deck)
    return Reply(pages=[page], data={"explorer": explorer, "explorer_shown": shown, "deck": deck, **result.as_dict()}, figure=chart)


def list_decks(services: Services, lang: str, saved: list[str] | None = None) -> Reply:
    """The preset decks, each with its cards as the reader knows them, then the server's saved decks."""
    msg, name = messages(lang), CardNames(services, lang)
    fields = []
    for preset in decks.preset_names():
        cards = decks.parse(decks.preset_text(preset), services.matcher, msg, preset, "en").cards
        lines = [f"{count} {name(services.catalog.card(oracle_id).name)}" for count, oracle_id in cards]
        fields.append(Field(f"`{preset}`", split_value("\n".join(lines))[0]))
    if saved:
        fields.append(Field(msg._("Saved decks"), "\n".join(f"`{escape(n)}`" for n in saved)))
    return Reply(pages=[Page(title=msg._("Preset decks"), fields=fields, color=COLOR)])


def request_from_options(options: dict, lang: str) -> tuple[ExploreRequest | None, str | None]:
    """A request from console options (name:value), or the message that says what is wrong."""
    request, problem = new_request(messages(lang), options.get("explorer") or options.get("", ""),
                                   options.get("deck"), options.get("times"), options.get("seed"))
    if request is not None and options.get("choices"):
        request.answers = options["choices"].split()
    return request, problem


def run_from_options(services: Services, options: dict, lang: str) -> Reply:
    request, problem = request_from_options(options, lang)
    if problem:
        return Reply(content=problem, error=True)
    from bot.explore.odds import POLICIES
    request.policy = options.get("policy") if options.get("policy") in POLICIES else None
    return run(services, request, lang, interactive=False)


def odds_from_options(services: Services, options: dict, lang: str) -> Reply:
    request, problem = request_from_options({k: v for k, v in options.items() if k != "seed"}, lang)
    if problem:
        return Reply(content=problem, error=True)
    return odds(services, request, lang, options.get("policy", "keep"))
