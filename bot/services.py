"""What every front end (Discord, console, CLI) shares: configuration, catalog, matcher, settings."""
from __future__ import annotations

import logging
import os
import sys
import threading
import time
from functools import cached_property
from typing import TYPE_CHECKING

from bot.catalog import Catalog
from bot.config import Config

if TYPE_CHECKING:
    import subprocess

    from bot.matching import Matcher

log = logging.getLogger(__name__)


class Services:
    # builds the /ask index beside the catalog named after it, in a process of its own at the
    # lowest priority: it takes what CPU the rest of the machine leaves
    ask_builder = (sys.executable, "-m", "bot.ask.index", "--nice", "19")

    def __init__(self, config: Config | None = None):
        self.config = config or Config.from_env()
        self._lock = threading.Lock()
        self._ask_lock = threading.Lock()    # one /ask index build at a time
        self._ask_changed = threading.Condition(self._lock)   # the /ask index stored, or a preparation ended
        self._preparing = 0                  # preparations of the /ask index under way (prepare_ask_index)
        self._builder: subprocess.Popen | None = None
        self._stopping = False
        self._retired: list = []

    @cached_property
    def catalog(self) -> Catalog:
        from bot.catalog.bundled import ensure_catalog
        ensure_catalog(self.config.catalog_path, log=log.info, lock_wait=self.config.import_wait)
        return Catalog(self.config.catalog_path)

    @cached_property
    def matcher(self) -> Matcher:
        from bot.matching import Matcher
        with self._lock:
            return Matcher.from_catalog(self.catalog)

    @cached_property
    def rules(self):
        from bot.rules.book import RulesBook
        with self._lock:
            return RulesBook.lazy(self.catalog)

    @cached_property
    def keywords(self):
        """The keyword rules a card's text uses (CR 701, 702), read without the rules book."""
        from bot.rules.keywords import Keywords
        with self._lock:
            return Keywords.from_catalog(self.catalog)

    @property
    def ask_index(self):
        """The /ask search index beside the catalog (built when missing or stale). A build under
        way in the background (prepare_ask_index) or for another question is waited for, not done
        twice. Only _ask_lock is held meanwhile: closing the bot does not wait for the build."""
        index = self.__dict__.get("ask_index")
        if index is not None:
            return index
        from bot.ask.index import AskIndex
        with self._ask_lock:
            index = self.__dict__.get("ask_index")
            if index is not None:
                return index        # made while this question waited
            catalog, rules = self.catalog, self.rules
            index = AskIndex.open(catalog, rules)
            with self._ask_changed:
                if self.catalog is catalog:
                    self.__dict__["ask_index"] = index
                    self._ask_changed.notify_all()
                else:                   # a refresh switched catalogs meanwhile: this question reads it
                    self._retired.append(index)
            return index

    def ready_ask_index(self, deadline: float):
        """The /ask index for a question to a running bot: never built in this process (nor is
        the lock held that a build takes), but made ready in the background (prepare_ask_index,
        started again when none is under way: a build stopped by a refresh, one that failed) and
        waited for until ``deadline`` (time.monotonic()). None when it is not ready by then, or
        the bot is closing."""
        started = False
        with self._ask_changed:
            while True:
                index = self.__dict__.get("ask_index")
                if index is not None or self._stopping:
                    return index
                if not self._preparing and not started:
                    started = True
                    self._preparing += 1   # counted now: the questions waiting meanwhile start none
                    threading.Thread(target=self._prepare_in_background, name="wayfinder-ask-index",
                                     daemon=True).start()
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._ask_changed.wait(left)

    def prepare_ask_index(self) -> None:
        """Make the /ask index ready before the first question (about a minute of work on a full
        catalog): read from its file beside the catalog when it is current, else built there by a
        process of its own at the lowest priority (ask_builder), so that this one answers at full
        speed meanwhile, then read. Where the catalog's folder cannot be written, the index is
        built in memory here. A question asked meanwhile waits for it (ready_ask_index)."""
        with self._lock:
            self._preparing += 1
        self._prepare_counted()

    def _prepare_in_background(self) -> None:
        try:
            self._prepare_counted()
        except Exception:   # e.g. the catalog closed under it as the bot closes; the next question tries again
            if not self._stopping:
                log.warning("the /ask index could not be made ready", exc_info=True)

    def _prepare_counted(self) -> None:
        """prepare_ask_index, counted in _preparing already: when it ends, however it ends, the
        questions waiting for the index look again."""
        try:
            self._prepare_ask_index()
        finally:
            with self._ask_changed:
                self._preparing -= 1
                self._ask_changed.notify_all()

    def _prepare_ask_index(self) -> None:
        from bot.ask.index import AskIndex, index_path
        with self._ask_lock:
            if "ask_index" in self.__dict__:
                return
            catalog = self.catalog
            if os.access(index_path(catalog.path).parent, os.W_OK):
                index = AskIndex.read(catalog)
                if index is None and self._build_beside(catalog):
                    index = AskIndex.read(catalog)   # None: the catalog changed meanwhile
                if index is None:
                    return
            else:
                index = AskIndex.open(catalog, self.rules)
            with self._lock:
                if self.catalog is catalog and "ask_index" not in self.__dict__:
                    self.__dict__["ask_index"] = index
                    return
            index.close()   # a refresh switched catalogs meanwhile

    def _build_beside(self, catalog) -> bool:
        """Run ask_builder for ``catalog``; whether it built the index (not stopped, no failure)."""
        import subprocess   # here: a one-shot look-up never starts a builder
        with self._lock:
            if self._stopping:
                return False
            # a session of its own: Ctrl-C in the bot's terminal does not reach it (the bot stops it)
            builder = self._builder = subprocess.Popen(
                [*self.ask_builder, str(catalog.path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, start_new_session=True)
        said = builder.communicate()[1].decode(errors="replace").strip()
        code = builder.returncode
        with self._lock:
            self._builder = None
        stopped = getattr(builder, "stopped", False)
        if said and not stopped:
            log.warning("the background build of the /ask index says: %s", said)
        if code and not stopped:
            log.warning("the /ask index could not be built in the background (exit status %s):"
                        " the first question builds it", code)
        return code == 0

    def _stop_builder(self) -> None:
        """End the background build of the /ask index, if one runs (its temporary file goes)."""
        with self._lock:
            builder = self._builder
            if builder is not None:
                builder.stopped = True
                builder.terminate()

    def stop_background(self) -> None:
        """No background work from now on: a build under way ends (the bot is closing)."""
        with self._ask_changed:
            self._stopping = True
            self._ask_changed.notify_all()   # a question waiting for the /ask index answers now
        self._stop_builder()

    def warm_up(self) -> None:
        """What a running bot reads ahead of the first uses: every language's messages and Babel
        data (a first command loads its own language's), the rules, then the /ask index."""
        from bot import i18n
        i18n.warm_up()
        self.warm_rules()
        self.prepare_ask_index()

    def warm_rules(self) -> None:
        """Read the rules book whole now (every edition, the autocomplete, the word index) and the
        keyword rules, so that no /rule keystroke or search pays for reading them."""
        self.rules.read_all()
        self.keywords  # noqa: B018

    def card_facts(self, name: str):
        """A card for the explore engine, by its English name or any printed name."""
        from bot.explore.choices import ScenarioError
        from bot.explore.model import CardFacts
        card = self.catalog.card_by_english_name(name)
        if card is None:
            result = self.matcher.resolve(name)
            if result.status != "one":
                raise ScenarioError("No card named “{query}”.", query=name)
            card = self.catalog.card(result.best.oracle_id)
        return CardFacts.from_card(card)

    def refresh(self) -> bool:
        """Fetch and import what changed upstream, then answer from the new catalog: the new
        catalog, name index and rules are loaded first and swapped in together. The catalog may
        also have been replaced by another process sharing it (which held the refresh lock). True
        when this process now answers from new data."""
        from bot.catalog.refresh import refresh
        self._close_retired()   # the last refresh's: answers that were reading them ended long ago
        held = self.catalog     # what it answers from now
        refresh(self.config)
        if not held.replaced():
            return False
        fresh = Services(self.config)
        fresh.warm_rules()      # before the swap: the first /rule keystroke after it finds them read
        loaded = {"catalog": fresh.catalog, "matcher": fresh.matcher, "rules": fresh.rules,
                  "keywords": fresh.keywords}
        with self._lock:
            retired = [self.__dict__[k] for k in ("catalog", "ask_index") if k in self.__dict__]
            self.__dict__.pop("ask_index", None)       # rebuilt for the new catalog when next asked
            self.__dict__.update(loaded)
            self._retired.extend(retired)               # answers under way may still read them
        self._stop_builder()    # an /ask index build for the catalog replaced is of no use now
        log.info("now answering from the refreshed catalog %s", self.config.catalog_path)
        return True

    def _close_retired(self) -> None:
        """Close what a refresh replaced: the file it holds, renamed over, is freed on disk."""
        with self._lock:
            retired, self._retired = self._retired, []
        for old in retired:
            old.close()

    def close(self) -> None:
        self.stop_background()
        self._close_retired()
        if "ask_index" in self.__dict__:
            self.ask_index.close()
        if "catalog" in self.__dict__:
            self.catalog.close()
