"""What every cog shares: the reader's language, answering in time, embeds from pages, owner-only
views."""
from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial

import discord

from bot.discord_app.errors import AnswersErrors
from bot.discord_app.late import expired, values
from bot.reply import Reply
from bot.i18n import Messages, messages
from bot.pages import CHOICE_LIMIT, CHOICES_LIMIT, Page
from bot.settings.language import reply_language
from bot.settings.store import GuildSettings

NO_PINGS = discord.AllowedMentions.none()
# Discord fails an interaction not answered within 3 s of its creation. Work that finishes within
# this budget is answered directly; slower work is deferred ("thinking…") and answered after.
DISCORD_LIMIT = 3.0   # seconds Discord waits for the first answer to an interaction
ANSWER_BUDGET = 1.5
# An autocomplete cannot be deferred: what it has not found within this budget is not offered
# (Discord shows no choices; the next keystroke asks again).
AUTOCOMPLETE_BUDGET = 2.0
_DEFERRED_EPHEMERAL = "wayfinder.deferred_ephemeral"
# The threads answers' catalog work runs in (look-ups, pages, autocomplete): the catalog is one
# SQLite connection behind a lock, so more threads would only wait for it and for Python's
# interpreter lock, which the event loop then waits for too. Long work (an explore run, a chart, a
# pasted deck) runs in asyncio's default threads instead, so it never holds these up; an /ask in
# ASK_WORK.
CATALOG_WORKERS = 2
_catalog_work = ThreadPoolExecutor(CATALOG_WORKERS, thread_name_prefix="wayfinder-catalog")
# The thread /ask questions run in: one asked while the /ask index is prepared waits for it there,
# not in one of asyncio's default threads, which the explore runs and charts would then wait for.
ASK_WORK = ThreadPoolExecutor(1, thread_name_prefix="wayfinder-ask")


def off_the_loop(work, /, *args, long_work: bool | Executor = False, **kwargs) -> asyncio.Future:
    """``work(*args, **kwargs)`` in a thread: one of the catalog workers, or for ``long_work`` one
    of asyncio's default threads (or of the executor given, such as ASK_WORK)."""
    if isinstance(long_work, Executor):
        return asyncio.get_running_loop().run_in_executor(long_work, partial(work, *args, **kwargs))
    if long_work:
        return asyncio.ensure_future(asyncio.to_thread(work, *args, **kwargs))
    return asyncio.get_running_loop().run_in_executor(_catalog_work, partial(work, *args, **kwargs))


@dataclass(frozen=True)
class Context:
    """Who reads the answer, in which language, under which server settings."""
    lang: str
    msg: Messages
    guild: GuildSettings


async def reader_context(client, guild_id: int | None, user_id: int, locale: str | None,
                         explicit: str | None = None) -> Context:
    """The reader's language (bot.settings.language.reply_language) and the server's settings."""
    store = getattr(client, "settings", None)
    guild = await store.guild(guild_id) if store else GuildSettings()
    user = await store.user_language(user_id) if store and not explicit else None
    lang = reply_language(explicit, guild.reply_language, user, locale)
    return Context(lang, messages(lang), guild)


async def context(interaction: discord.Interaction, explicit: str | None = None) -> Context:
    """The reply language of an interaction: its option, the server's, the user's, their locale."""
    locale = interaction.locale.value if interaction.locale else None
    return await reader_context(interaction.client, interaction.guild_id, interaction.user.id, locale, explicit)


async def reader_language(interaction: discord.Interaction, explicit: str | None = None) -> str:
    return (await context(interaction, explicit)).lang


async def messages_for(interaction: discord.Interaction, explicit: str | None = None) -> Messages:
    return (await context(interaction, explicit)).msg


def embed(page: Page) -> discord.Embed:
    result = discord.Embed(title=page.title or None, description=page.description or None,
                           color=page.color, url=page.url)
    for field in page.fields:
        result.add_field(name=field.name, value=field.value, inline=field.inline)
    if page.footer:
        result.set_footer(text=page.footer)
    if page.thumbnail:
        result.set_thumbnail(url=page.thumbnail)
    return result


def _budget_left(interaction: discord.Interaction, budget: float | None = None) -> float:
    """What is left of the answer budget, counted from when Discord created the interaction."""
    budget = ANSWER_BUDGET if budget is None else budget
    age = (datetime.now(timezone.utc) - interaction.created_at).total_seconds()
    if age >= DISCORD_LIMIT:   # older than Discord lets any interaction get: this host's clock runs ahead
        age = 0.0
    return min(budget, max(0.0, budget - age))


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False, update: bool = False) -> None:
    """Tell Discord the answer is coming: "thinking…" for a new message (private if the answer
    will be), or a pending edit of the message a button or menu is on (``update``)."""
    if interaction.response.is_done():
        return
    if update and interaction.message is not None:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        interaction.extras[_DEFERRED_EPHEMERAL] = ephemeral


async def in_time(interaction: discord.Interaction, work, /, *args, ephemeral: bool = False,
                  update: bool = False, long_work: bool | Executor = False, **kwargs):
    """``work(*args, **kwargs)`` run off the event loop (``off_the_loop``: catalog reads, or engine
    runs and charts as ``long_work``); when it has not finished within the answer budget the
    interaction is deferred (see ``defer``), so that ``send``/``update_message`` answer with a
    follow-up. What ``work`` returns or raises."""
    task = off_the_loop(work, *args, long_work=long_work, **kwargs)
    if not interaction.response.is_done():
        done, _ = await asyncio.wait({task}, timeout=_budget_left(interaction))
        if not done:
            try:
                await defer(interaction, ephemeral=ephemeral, update=update)
            except BaseException:
                task.add_done_callback(lambda t: t.cancelled() or t.exception())   # nobody waits for it now
                raise
    return await task


async def choices_in_time(interaction: discord.Interaction, work, /, *args) -> list:
    """An autocomplete's choices: ``work(*args)`` run off the event loop, or none when it has not
    finished within AUTOCOMPLETE_BUDGET. Work still waiting for a catalog worker then is dropped,
    so that it does not hold up the commands behind it; work already running ends (what it was
    reading, e.g. the rules right after a start, is ready for the next keystroke)."""
    task = off_the_loop(work, *args)
    done, _ = await asyncio.wait({task}, timeout=_budget_left(interaction, AUTOCOMPLETE_BUDGET))
    if not done:
        task.cancel()   # nobody waits for it now; a job not yet started never runs
        return []
    return task.result()


async def send(interaction: discord.Interaction, *, content: str | None = None, embed: discord.Embed | None = None,
               view: discord.ui.View | None = None, ephemeral: bool = False, file: discord.File | None = None):
    """Answer an interaction (or follow up if it was answered or deferred), never pinging anyone."""
    kwargs = {"content": content, "allowed_mentions": NO_PINGS, "ephemeral": ephemeral}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        if interaction.extras.pop(_DEFERRED_EPHEMERAL, ephemeral) != ephemeral:
            # "thinking…" was shown to everyone and this answer is private (or the reverse):
            # the follow-up would take over its visibility, so it goes and a new message comes
            with suppress(discord.HTTPException):
                await interaction.delete_original_response()
        return await interaction.followup.send(**kwargs, wait=True)
    await interaction.response.send_message(**kwargs)
    return None


async def edit_answer(interaction: discord.Interaction, sent, **fields) -> None:
    """Edit an answer ``send`` gave: its follow-up message (what ``send`` returned), or the
    interaction's own response (``send`` returned None)."""
    if sent is not None:
        await sent.edit(**fields, allowed_mentions=NO_PINGS)
    else:
        await interaction.edit_original_response(**fields, allowed_mentions=NO_PINGS)


async def update_message(interaction: discord.Interaction, **fields) -> None:
    """Redraw the message a button or menu is on (directly, or after ``defer(update=True)``)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.edit_message(**fields, allowed_mentions=NO_PINGS)


async def send_error(interaction: discord.Interaction, text: str) -> None:
    await send(interaction, content=text, ephemeral=True)


class OwnerView(AnswersErrors, discord.ui.View):
    """Buttons and menus that answer only the person who invoked the command, that are disabled,
    with a note, when they expire, and that answer an unexpected error as commands do."""

    def __init__(self, interaction: discord.Interaction, msg: Messages, timeout: float | None = None):
        super().__init__(timeout=timeout if timeout is not None else interaction.client.services.config.view_timeout)
        self.owner_id = interaction.user.id
        self.origin = interaction
        self.msg = msg

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                self.msg._("Only the person who used the command can press these buttons."),
                ephemeral=True, allowed_mentions=NO_PINGS)
            return False
        return True

    async def on_timeout(self) -> None:
        for item in self.children:
            if hasattr(item, "disabled"):
                item.disabled = True
        try:
            await self.origin.edit_original_response(
                content=expired(self.msg, form=False), view=self,
                allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            pass


def rule_turns(msg: Messages) -> tuple[tuple[str, str], tuple[str, str]]:
    """The page buttons of a rule: (label, custom id) of the previous and the next page."""
    return ("◀", "wf:rule:page-prev"), ("▶", "wf:rule:page-next")


def ruling_turns(msg: Messages) -> tuple[tuple[str, str], tuple[str, str]]:
    """The page buttons of a card's rulings."""
    return (msg._("Previous"), "wf:ruling:prev"), (msg._("Next"), "wf:ruling:next")


class PagedView(OwnerView):
    """An answer of several pages, turned with a previous and a next button (``turns``: their
    labels and ids, as rule_turns or ruling_turns give them); a subclass adds its own buttons in
    ``rebuild``."""

    def __init__(self, interaction: discord.Interaction, msg: Messages, turns, reply=None, *, row: int | None = None):
        super().__init__(interaction, msg)
        self.turns, self.row = turns, row
        self.reply, self.page = reply, 0
        if reply is not None:
            self.rebuild()

    def rebuild(self) -> None:
        self.page = max(0, min(self.page, len(self.reply.pages) - 1))
        self.clear_items()
        if len(self.reply.pages) > 1:
            (back, back_id), (forward, forward_id) = self.turns
            self.add_item(self._button(back, back_id, self._turn(-1), self.page == 0))
            self.add_item(self._button(forward, forward_id, self._turn(1), self.page >= len(self.reply.pages) - 1))

    def _button(self, label, custom_id, callback, disabled, style=discord.ButtonStyle.secondary, row=None):
        button = discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled, style=style,
                                   row=self.row if row is None else row)
        button.callback = callback
        return button

    def _turn(self, step: int):
        async def callback(interaction: discord.Interaction) -> None:
            self.page += step
            self.rebuild()
            await self.redraw(interaction)
        return callback

    def current(self) -> discord.Embed | None:
        return embed(self.reply.pages[self.page]) if self.reply.pages else None

    async def redraw(self, interaction: discord.Interaction) -> None:
        await update_message(interaction, content=self.reply.content, embed=self.current(),
                             view=self if self.children else None)


def choices_view(interaction, msg: Messages, reply: Reply, on_pick) -> discord.ui.View | None:
    """A select menu of candidate cards; ``on_pick(interaction, value)`` answers the pick."""
    if not reply.choices:
        return None
    view = OwnerView(interaction, msg)
    select = discord.ui.Select(placeholder=msg._("Choose a card"), custom_id="wf:pick",
                               options=[discord.SelectOption(label=c.label[:CHOICE_LIMIT], value=c.value[:CHOICE_LIMIT])
                                        for c in reply.choices[:CHOICES_LIMIT]])

    async def picked(select_interaction: discord.Interaction) -> None:
        view.stop()
        await on_pick(select_interaction, select.values[0])

    select.callback = picked
    view.add_item(select)
    return view


def rules_select(services, lang: str, msg: Messages, choices: list[tuple[str, str]], custom_id: str):
    """A menu of the rules a reply cites; picking one shows it (as /rule would), privately."""
    if not choices:
        return None
    select = discord.ui.Select(placeholder=msg._("Rule {number}", number="…"), custom_id=custom_id, row=4,
                               options=[discord.SelectOption(label=label[:CHOICE_LIMIT], value=value[:CHOICE_LIMIT])
                                        for label, value in choices[:CHOICES_LIMIT]])

    async def picked(interaction: discord.Interaction) -> None:
        await show_rule(interaction, services, select.values[0], lang)

    select.callback = picked
    return select


# A rule or a card's rulings opened from a menu or a button: shown privately to whoever opened it,
# as /rule and /ruling show them.
async def show_privately(interaction: discord.Interaction, msg: Messages, turns, work, /, *args, **kwargs) -> None:
    """``work(*args, **kwargs)``'s answer, with its pages turned as the command turns them."""
    reply = await in_time(interaction, work, *args, ephemeral=True, **kwargs)
    view = PagedView(interaction, msg, turns(msg), reply)
    if not view.children:
        view.stop()
    await send(interaction, content=reply.content, embed=view.current(),
               view=view if view.children else None, ephemeral=True)


async def show_rule(interaction: discord.Interaction, services, number: str, lang: str) -> None:
    from bot.rules.command import rule
    await show_privately(interaction, messages(lang), rule_turns, rule, services, number, lang)


async def show_rulings(interaction: discord.Interaction, services, oracle_id: str, ctx: Context) -> None:
    """The card's rulings under the server's settings for machine translations and originals."""
    from bot.matching.lookup import AUTOCOMPLETE_PREFIX
    from bot.rulings.command import ruling
    await show_privately(interaction, ctx.msg, ruling_turns, ruling, services, AUTOCOMPLETE_PREFIX + oracle_id, ctx.lang,
                         machine=ctx.guild.machine_translations,
                         show_originals=ctx.guild.english_originals == "beside")


# Answered late (bot.discord_app.late): a menu of a message from before a restart still opens what
# it offers, privately, in the language of whoever picks it.
async def late_rule(interaction: discord.Interaction, match) -> None:
    """A menu of rules: the rule picked."""
    await show_rule(interaction, interaction.client.services, values(interaction)[0], await reader_language(interaction))


async def late_rulings(interaction: discord.Interaction, match) -> None:
    """A menu of cards: the rulings of the card picked."""
    from bot.matching.lookup import AUTOCOMPLETE_PREFIX
    await show_rulings(interaction, interaction.client.services, values(interaction)[0].removeprefix(AUTOCOMPLETE_PREFIX),
                       await context(interaction))

