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

# After the /ask index could not be made ready at all (its background build and the build in the
# bot's own process both failed), questions are told so at once, and the next question after this
# many seconds tries again.
ASK_RETRY = 600.0


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
        self._ask_failed_at: float | None = None   # when the last preparation failed (time.monotonic())
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
        """The /ask index for a question to a running bot: not built for the question (nor is the
        lock held that a build takes), but made ready in the background (prepare_ask_index,
        started again when none is under way: a build stopped by a refresh, one that failed
        ASK_RETRY ago) and waited for until ``deadline`` (time.monotonic()), or until its
        preparation fails (ask_index_failed). None when it is not ready by then, or the bot is
        closing."""
        with self._ask_changed:
            while True:
                index = self.__dict__.get("ask_index")
                if index is not None or self._stopping:
                    return index
                if not self._preparing:
                    if self._failed_lately():
                        return None
                    self._preparing += 1   # counted now: the questions waiting meanwhile start none
                    threading.Thread(target=self._prepare_in_background, name="wayfinder-ask-index",
                                     daemon=True).start()
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._ask_changed.wait(left)

    @property
    def ask_index_failed(self) -> bool:
        """Whether the /ask index could not be made ready, lately (ASK_RETRY): the log says why."""
        with self._lock:
            return self._failed_lately()

    def _failed_lately(self) -> bool:
        return self._ask_failed_at is not None and time.monotonic() - self._ask_failed_at < ASK_RETRY

    def prepare_ask_index(self) -> None:
        """Make the /ask index ready before the first question (about a minute of work on a full
        catalog): read from its file beside the catalog when it is current, else built there by a
        process of its own at the lowest priority (ask_builder), so that this one answers at full
        speed meanwhile, then read. Where the catalog's folder cannot be written, or that build
        failed, the index is built in memory here, in a thread at the lowest priority. A question
        asked meanwhile waits for it (ready_ask_index)."""
        with self._lock:
            self._preparing += 1
        self._prepare_counted()

    def _prepare_in_background(self) -> None:
        try:
            self._prepare_counted()
        except Exception:   # logged by _prepare_counted; the next question after ASK_RETRY tries again
            pass

    def _prepare_counted(self) -> None:
        """prepare_ask_index, counted in _preparing already: when it ends, however it ends, the
        questions waiting for the index look again; when it failed, they are told so."""
        failed = False
        try:
            self._prepare_ask_index()
        except Exception:
            failed = not self._stopping   # e.g. the catalog closed under it as the bot closes
            if failed:
                log.error("the /ask index could not be built, in the background nor in the bot's own"
                          " process: questions are told so, and one asked after %d minutes tries again",
                          ASK_RETRY // 60, exc_info=True)
            raise
        finally:
            with self._ask_changed:
                self._preparing -= 1
                self._ask_failed_at = time.monotonic() if failed else None
                self._ask_changed.notify_all()

    def _prepare_ask_index(self) -> None:
        from bot.ask.index import AskIndex, index_path
        with self._ask_lock:
            if "ask_index" in self.__dict__:
                return
            catalog = self.catalog
            index = None
            if os.access(index_path(catalog.path).parent, os.W_OK):
                index = AskIndex.read(catalog)
                if index is None:
                    built = self._build_beside(catalog)
                    if built is None or self.catalog is not catalog:
                        return      # stopped: by a refresh (the next question starts again) or closing
                    if built:
                        index = AskIndex.read(catalog)
                        if index is None:
                            log.warning("the background build of the /ask index left none beside the"
                                        " catalog that the bot can read: it builds it itself, in memory")
            if index is None:
                index = self._build_in_memory(catalog)
            with self._lock:
                if self.catalog is catalog and "ask_index" not in self.__dict__:
                    self.__dict__["ask_index"] = index
                    return
            index.close()   # a refresh switched catalogs meanwhile

    def _build_in_memory(self, catalog):
        """The /ask index of ``catalog`` built in memory, in a thread of its own at the lowest CPU
        priority (the thread waiting for it may be one the bot's other work shares)."""
        from bot.ask.index import AskIndex
        rules, out = self.rules, []

        def build() -> None:
            try:
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)   # this thread only (Linux)
            except (AttributeError, OSError):   # elsewhere: the build runs at the normal priority
                pass
            try:
                out.append(AskIndex.in_memory(catalog, rules))
            except BaseException as error:
                out.append(error)
        worker = threading.Thread(target=build, name="wayfinder-ask-index-build", daemon=True)
        worker.start()
        worker.join()
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def _build_beside(self, catalog) -> bool | None:
        """Run ask_builder for ``catalog``: True when it built the index, False when it failed,
        None when it was stopped (a refresh, the bot closing)."""
        import subprocess   # here: a one-shot look-up never starts a builder
        with self._lock:
            if self._stopping:
                return None
            # a session of its own: Ctrl-C in the bot's terminal does not reach it (the bot stops it)
            builder = self._builder = subprocess.Popen(
                [*self.ask_builder, str(catalog.path)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, start_new_session=True)
        said = builder.communicate()[1].decode(errors="replace").strip()
        code = builder.returncode
        with self._lock:
            self._builder = None
        if getattr(builder, "stopped", False):
            return None
        if said:
            log.warning("the background build of the /ask index says: %s", said)
        if code:
            log.warning("the /ask index could not be built in the background (exit status %s):"
                        " the bot builds it itself, in memory", code)
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
