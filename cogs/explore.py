"""/explore: run (step by step, with keep/graveyard buttons), odds (exact, with a chart), decks."""
from __future__ import annotations

import asyncio
import logging
import io
from typing import Optional

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.explore import decks
from bot.explore.command import (MAX_SEED_CHARS, MAX_TIMES, ExploreRequest, choose_deck, new_request,
                                 odds as odds_command, run as run_command)
from bot.matching.lookup import autocomplete_choices
from bot.pages import BUTTON_LABEL_LIMIT, CHOICE_LIMIT, CHOICES_LIMIT, CONTENT_LIMIT, MODAL_LABEL_LIMIT, escape
from bot.reply import too_long
from bot.settings.store import MAX_DECK_NAME, MAX_DECKS_PER_GUILD, storable_deck_name
from bot.text import MAX_QUERY_CHARS, clip

from bot.discord_app.errors import AnswersErrors, quiet_autocomplete
from bot.discord_app.late import expired, fields
from bot.discord_app.translator import command_path, option_names
from bot.discord_app.views import (NO_PINGS, Context, OwnerView, choices_in_time, context, edit_answer, embed, in_time,
                                   late_rule, off_the_loop, rules_select, send, send_error, update_message)

DECK_FORM = "wf:explore:deck-modal"   # + ":<id of the interaction that opened it>:<deck name>"
DECKLIST = "wf:explore:decklist"
CHART_URL = "attachment://odds.png"
POLICY_CHOICES = [app_commands.Choice(name=_T("keep on top"), value="keep"),
                  app_commands.Choice(name=_T("graveyard"), value="graveyard")]

log = logging.getLogger(__name__)


def chart_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename="odds.png")


def cooldown(seconds: float):
    return app_commands.checks.cooldown(1, seconds, key=lambda i: i.user.id)


class ExploreView(OwnerView):
    """Keep on top / Graveyard while a nonland card waits for a choice; Replay; New seed."""

    def __init__(self, origin: discord.Interaction, ctx: Context, cog: "Explore", request: ExploreRequest):
        super().__init__(origin, ctx.msg)
        self.cog, self.ctx, self.request = cog, ctx, request
        self.note: str | None = None
        self.reply = None

    async def load(self, interaction: discord.Interaction, *, update: bool = False) -> None:
        """Run the engine (off the event loop, deferring ``interaction`` when slow)."""
        self.show(await in_time(interaction, run_command, self.cog.bot.services, self.request, self.ctx.lang,
                                interactive=True, update=update, ephemeral=self.ctx.guild.private_replies,
                                long_work=True))

    def show(self, reply) -> None:
        self.reply = reply
        if self.reply.data.get("seed") is not None:
            self.request.seed = self.reply.data["seed"]
        self.clear_items()
        if self.reply.error:
            return
        for choice in self.reply.choices:
            style = discord.ButtonStyle.primary if choice.value == "keep" else discord.ButtonStyle.secondary
            self._add(choice.label, f"wf:explore:choose:{choice.value}"[:CHOICE_LIMIT], self._answer(choice.value), style)
        self._add(self.msg._("Replay"), "wf:explore:replay", self.replay, discord.ButtonStyle.secondary)
        self._add(self.msg._("New seed"), "wf:explore:new-seed", self.new_seed, discord.ButtonStyle.secondary)
        menu = rules_select(self.cog.bot.services, self.ctx.lang, self.msg,
                            [(c.label, c.value) for c in self.reply.cited], "wf:explore:rule")
        if menu is not None:
            self.add_item(menu)

    def _add(self, label, custom_id, callback, style) -> None:
        button = discord.ui.Button(label=label[:BUTTON_LABEL_LIMIT], custom_id=custom_id, style=style)
        button.callback = callback
        self.add_item(button)

    @property
    def pending(self) -> bool:
        return bool(self.reply.data.get("pending"))

    def content(self) -> str | None:
        parts = [p for p in (self.note, self.reply.content) if p]
        return "\n".join(parts) or None

    def current(self) -> discord.Embed | None:
        return embed(self.reply.pages[0]) if self.reply.pages else None

    def _answer(self, value: str):
        async def callback(interaction: discord.Interaction) -> None:
            self.request.answers.append(value)
            self.note = None
            await self.load(interaction, update=True)
            await self.redraw(interaction)
        return callback

    async def replay(self, interaction: discord.Interaction) -> None:
        self.request.answers = []
        self.note = None
        await self.load(interaction, update=True)
        await self.redraw(interaction)

    async def new_seed(self, interaction: discord.Interaction) -> None:
        self.request.answers = []
        self.request.seed = None   # the core draws a new one
        self.note = None
        await self.load(interaction, update=True)
        await self.redraw(interaction)

    async def redraw(self, interaction: discord.Interaction) -> None:
        await update_message(interaction, content=self.content(), embed=self.current(), view=self)

    async def on_timeout(self) -> None:
        if self.pending:
            default = self.ctx.guild.default_policy or "keep"
            self.request.policy = default   # the server's standing answer to every reveal left
            try:
                self.show(await asyncio.to_thread(run_command, self.cog.bot.services, self.request, self.ctx.lang,
                                                  interactive=True))
                label = self.msg._("Keep on top") if default == "keep" else self.msg._("Graveyard")
                self.note = self.msg._("No choice was made in time: “{choice}” was applied.", choice=label)
            except Exception:   # the buttons are disabled all the same, below
                log.exception("explore: applying the default choice at expiry failed")
        for item in self.children:
            item.disabled = True
        note = expired(self.msg, form=False)
        try:
            await self.origin.edit_original_response(content="\n".join(p for p in (self.content(), note) if p),
                                                     embed=self.current(), view=self, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            pass


class DeckModal(AnswersErrors, discord.ui.Modal):
    """The form a decklist is pasted into. discord.py finds an open form by its custom id, so each
    has its own (the id of the interaction that opened it): two people saving decks at once each
    get their own list saved under their own name. The deck's name is in the custom id too, so that
    a form submitted after it expired (an hour), or after a restart, is saved all the same."""

    def __init__(self, cog: "Explore", ctx: Context, name: str, opened_by: discord.Interaction,
                 text: str | None = None):
        super().__init__(title=ctx.msg._("Paste a decklist")[:MODAL_LABEL_LIMIT],
                         custom_id=f"{DECK_FORM}:{opened_by.id}:{name}", timeout=3600)
        self.cog, self.ctx, self.name = cog, ctx, name
        self.decklist = discord.ui.TextInput(label=ctx.msg._("Decklist (MTGA, MTGO or “4 Name” lines)")[:MODAL_LABEL_LIMIT],
                                             style=discord.TextStyle.paragraph, max_length=4000,
                                             custom_id=DECKLIST, default=text)
        self.add_item(self.decklist)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.save_decklist(interaction, self.ctx, self.name, str(self.decklist.value))


class Explore(commands.GroupCog, group_name=_T("explore"), group_description=_T("Simulate the explore keyword action")):
    deck = app_commands.Group(name=_T("deck"), description=_T("Saved decks of this server"))

    def __init__(self, bot):
        self.bot = bot
        super().__init__()
        bot.late_answers.add(DECK_FORM + r":\d+:(?P<name>.+)", self.late_decklist, form=True, owner=self)
        bot.late_answers.add(r"wf:explore:rule", late_rule, owner=self)
        bot.late_answers.add(r"wf:explore:(?:choose:.*|replay|new-seed)", self.late_game, owner=self)

    def cog_unload(self) -> None:
        self.bot.late_answers.remove(self)   # unloaded, it answers nothing late

    async def save_decklist(self, interaction: discord.Interaction, ctx: Context, name: str, text: str) -> None:
        """Save a pasted decklist under ``name``, or list what is wrong with it (nothing is lost: a
        button opens the form again with the list as it was pasted)."""
        msg = ctx.msg
        parsed = await in_time(interaction, decks.parse, text, self.bot.services.matcher, msg, name, ctx.lang,
                               ephemeral=True, long_work=True)
        if parsed.errors:
            view = OwnerView(interaction, msg)
            again = discord.ui.Button(label=msg._("Paste a decklist")[:BUTTON_LABEL_LIMIT], custom_id="wf:explore:deck-edit",
                                      style=discord.ButtonStyle.primary)

            async def reopen(button_interaction: discord.Interaction) -> None:
                await button_interaction.response.send_modal(DeckModal(self, ctx, name, button_interaction, text))

            again.callback = reopen
            view.add_item(again)
            await send(interaction, content=clip("\n".join(parsed.errors[:15]), CONTENT_LIMIT), view=view,
                       ephemeral=True)
            return
        try:
            await self.bot.settings.save_deck(interaction.guild_id, name, text, parsed.size, interaction.user.id)
        except ValueError:
            await send_error(interaction, msg._("This server already has {count} saved decks: delete one first.",
                                                count=MAX_DECKS_PER_GUILD))
            return
        await send(interaction, content=msg._("Deck “{deck}” saved ({count} cards).", deck=escape(name),
                                              count=parsed.size), ephemeral=True)

    async def late_decklist(self, interaction: discord.Interaction, match) -> None:
        """A decklist form submitted after it expired, or after a restart: saved all the same, if its
        custom id names a deck /explore deck save would have saved (in a server)."""
        ctx = await context(interaction)
        if interaction.guild_id is None or not storable_deck_name(match["name"]):
            await send_error(interaction, expired(ctx.msg, form=True))
            return
        await self.save_decklist(interaction, ctx, match["name"], fields(interaction).get(DECKLIST, ""))

    async def late_game(self, interaction: discord.Interaction, match) -> None:
        """A game's buttons after a restart: its state is gone."""
        msg = (await context(interaction)).msg
        await send_error(interaction, msg._("This game has expired. Run {command} again, with the same seed to replay it.",
                                            command=command_path(msg.lang, "explore", "run")))

    async def _request(self, interaction: discord.Interaction, ctx: Context, deck: str | None, explorer: str,
                       times: int | None, seed: str | None) -> ExploreRequest | None:
        request, problem = new_request(ctx.msg, explorer, deck, times, seed, ctx.guild.default_deck)
        if request is not None:
            problem = await choose_deck(request, ctx.msg, self.bot.settings, interaction.guild_id)
        if problem:
            await send_error(interaction, problem)
            return None
        return request

    @app_commands.command(name=_T("run"), description=_T("Explore on a deck shuffled from a seed, step by step"))
    @app_commands.describe(deck=_T("Preset or saved deck"), explorer=_T("The card that explores"),
                           times=_T("How many times it explores"),
                           seed=_T("Shuffle seed (a whole number); empty for a new one"))
    @app_commands.rename(**option_names("explorer", "deck", "times", "seed"))
    async def run(self, interaction: discord.Interaction, explorer: app_commands.Range[str, 1, MAX_QUERY_CHARS],
                  deck: Optional[app_commands.Range[str, 1, MAX_DECK_NAME]] = None,
                  times: Optional[app_commands.Range[int, 1, MAX_TIMES]] = None,
                  seed: Optional[app_commands.Range[str, 1, MAX_SEED_CHARS]] = None) -> None:
        ctx = await context(interaction)
        request = await self._request(interaction, ctx, deck, explorer, times, seed)
        if request is None:
            return
        view = ExploreView(interaction, ctx, self, request)
        await view.load(interaction)
        if view.reply.error:
            view.stop()
            await send_error(interaction, view.reply.content)
            return
        await send(interaction, content=view.content(), embed=view.current(), view=view,
                   ephemeral=ctx.guild.private_replies)

    @app_commands.command(name=_T("odds"), description=_T("Exact odds of exploring"))
    @app_commands.describe(deck=_T("Preset or saved deck"), explorer=_T("The card that explores"),
                           times=_T("How many times it explores"), policy=_T("What happens to revealed nonland cards"))
    @app_commands.choices(policy=POLICY_CHOICES)
    @app_commands.rename(**option_names("explorer", "deck", "times", "policy"))
    @cooldown(5.0)
    async def odds(self, interaction: discord.Interaction, explorer: app_commands.Range[str, 1, MAX_QUERY_CHARS],
                   deck: Optional[app_commands.Range[str, 1, MAX_DECK_NAME]] = None,
                   times: Optional[app_commands.Range[int, 1, MAX_TIMES]] = None,
                   policy: Optional[app_commands.Choice[str]] = None) -> None:
        ctx = await context(interaction)
        request = await self._request(interaction, ctx, deck, explorer, times, None)
        if request is None:
            return
        chosen = policy.value if policy else (ctx.guild.default_policy or "keep")
        reply, png = await in_time(interaction, self._odds_with_kept_chart, request, ctx.lang, chosen,
                                   ephemeral=ctx.guild.private_replies, long_work=True)
        if reply.error:
            await send_error(interaction, reply.content)
            return
        card_embed = embed(reply.pages[0])
        if png is not None:   # a chart kept from the same odds asked lately: all in the first answer
            await send(interaction, embed=card_embed.set_image(url=CHART_URL), file=chart_file(png),
                       ephemeral=ctx.guild.private_replies)
            return
        # the exact odds at once; their chart, drawn off the event loop, is attached when ready
        sent = await send(interaction, embed=card_embed, ephemeral=ctx.guild.private_replies)
        try:
            png = await off_the_loop(reply.figure.png, long_work=True)
        except Exception:
            log.warning("explore: drawing the odds chart failed", exc_info=True)
            change = {"content": ctx.msg._("The chart could not be drawn: the odds are shown without it.")}
        else:
            change = {"embed": card_embed.set_image(url=CHART_URL), "attachments": [chart_file(png)]}
        if self.bot.is_closed():   # closed while the chart was drawn: the answer stays as it was sent
            return
        try:
            await edit_answer(interaction, sent, **change)
        except discord.HTTPException:   # the answer was deleted meanwhile: nothing left to attach to
            log.info("explore: the odds answer could not be edited to add its chart", exc_info=True)
        except RuntimeError:            # "Session is closed": the bot closed under the edit
            if not self.bot.is_closed():
                raise

    def _odds_with_kept_chart(self, request: ExploreRequest, lang: str, policy: str):
        """The exact odds and their chart as PNG bytes if it is kept (drawn lately), else None."""
        reply = odds_command(self.bot.services, request, lang, policy)
        return reply, None if reply.error else reply.figure.kept()

    @deck.command(name=_T("save"), description=_T("Save a pasted decklist"))
    @app_commands.describe(name=_T("Deck name"))
    @app_commands.rename(**option_names("name"))
    @app_commands.guild_only()
    @cooldown(5.0)
    async def deck_save(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_DECK_NAME]) -> None:
        ctx = await context(interaction)
        if len(name) > MAX_DECK_NAME:
            await send_error(interaction, too_long(ctx.msg, MAX_DECK_NAME))
            return
        await interaction.response.send_modal(DeckModal(self, ctx, name.strip(), interaction))

    @deck.command(name=_T("list"), description=_T("List the decks"))
    async def deck_list(self, interaction: discord.Interaction) -> None:
        from bot.explore.command import list_decks
        ctx = await context(interaction)
        saved = await self.bot.settings.deck_names(interaction.guild_id) if interaction.guild_id else []
        reply = await in_time(interaction, list_decks, self.bot.services, ctx.lang, saved, ephemeral=True)
        await send(interaction, embed=embed(reply.pages[0]), ephemeral=True)

    @deck.command(name=_T("delete"), description=_T("Delete a saved deck"))
    @app_commands.describe(name=_T("Deck name"))
    @app_commands.rename(**option_names("name"))
    @app_commands.guild_only()
    async def deck_delete(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_DECK_NAME]) -> None:
        ctx = await context(interaction)
        if await self.bot.settings.delete_deck(interaction.guild_id, name):
            await send(interaction, content=ctx.msg._("Deck “{deck}” deleted.", deck=escape(name)), ephemeral=True)
        else:
            known = await self.bot.settings.deck_names(interaction.guild_id)
            await send_error(interaction, decks.unknown_deck(ctx.msg, name, known))

    @run.autocomplete("deck")
    @odds.autocomplete("deck")
    @deck_delete.autocomplete("name")
    @quiet_autocomplete
    async def deck_autocomplete(self, interaction: discord.Interaction, current: str):
        saved = await self.bot.settings.deck_names(interaction.guild_id) if interaction.guild_id else []
        names = ([] if interaction.command and interaction.command.name == "delete" else decks.preset_names()) + saved
        current = current.lower()
        return [app_commands.Choice(name=n[:CHOICE_LIMIT], value=n[:CHOICE_LIMIT])
                for n in names if current in n.lower()][:CHOICES_LIMIT]

    @run.autocomplete("explorer")
    @odds.autocomplete("explorer")
    @quiet_autocomplete
    async def explorer_autocomplete(self, interaction: discord.Interaction, current: str):
        ctx = await context(interaction)
        found = await choices_in_time(interaction, autocomplete_choices, self.bot.services.matcher, current, ctx.lang)
        return [app_commands.Choice(name=c.label, value=c.value) for c in found]


async def setup(bot) -> None:
    await bot.add_cog(Explore(bot))
