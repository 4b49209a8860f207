"""The /ask index a running bot shares between its questions, its background build and its close."""
from __future__ import annotations

import os
import shutil
import sys
import threading
import time

import pytest

from bot.ask.command import INDEX_WAIT, ask
from bot.ask.index import AskIndex, index_path
from bot.config import Config
from bot.services import Services
from tests.helpers import held


@pytest.fixture
def services(bundled_catalog_path, tmp_path):
    """Services on a copy of the bundled catalog, its /ask index beside it."""
    live = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, live)
    shutil.copy(str(bundled_catalog_path) + ".ask", str(live) + ".ask")
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(live),
                                         "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}))
    yield services
    services.close()


def in_thread(work) -> tuple[threading.Thread, list]:
    out = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


def test_the_bot_closes_without_waiting_for_a_questions_build_of_the_ask_index(services, monkeypatch):
    """A question that builds the /ask index in the bot's own process does not hold up closing:
    stopping the background work returns while the build is still under way."""
    services.catalog, services.rules  # noqa: B018
    entered, release = held(monkeypatch, AskIndex, "open")
    question, _ = in_thread(lambda: services.ask_index)
    try:
        assert entered.wait(30)
        stopping, _ = in_thread(services.stop_background)
        stopping.join(20)
        assert not stopping.is_alive(), "closing waited for the build"
    finally:
        release.set()
        question.join(60)


def test_a_question_racing_the_background_build_gets_the_index_it_made(services, monkeypatch):
    """A question asked while the background build reads the index waits for it and answers from
    the index it stored: the index is not opened a second time, nor the stored one replaced."""
    services.catalog, services.rules  # noqa: B018
    entered, release = held(monkeypatch, AskIndex, "read")
    opened = []
    real_open = AskIndex.open
    monkeypatch.setattr(AskIndex, "open", classmethod(
        lambda cls, *args: opened.append(args) or real_open.__func__(cls, *args)))
    background, _ = in_thread(services.prepare_ask_index)
    assert entered.wait(30)
    question, answered = in_thread(lambda: services.ask_index)
    release.set()
    background.join(60)
    question.join(60)
    assert answered == [services.ask_index] and services.ask_index.size > 0
    assert opened == [], "the question opened the index a second time"


SPEAKING_BUILDER = """
import os, pathlib, sys
pathlib.Path(sys.argv[1]).write_text(str(os.getsid(0)))
print("the catalog could not be read", file=sys.stderr)
sys.exit(1)
"""


def test_the_background_builder_runs_apart_from_the_bots_terminal_and_its_words_reach_the_log(
        services, tmp_path, monkeypatch, caplog):
    """Ctrl-C in the bot's terminal does not reach the builder (a session of its own: the bot
    stops it itself), and what the builder writes on its error stream is in the bot's log."""
    session = tmp_path / "session"
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", SPEAKING_BUILDER, str(session)))
    assert services._build_beside(services.catalog) is False
    assert int(session.read_text()) != os.getsid(0)
    assert "the catalog could not be read" in caplog.text


def test_a_question_waiting_for_the_background_build_when_the_bot_closes_is_told_to_ask_again(services,
                                                                                              monkeypatch):
    """Closing stops the background build of the /ask index: a question waiting for it is answered
    at once, in its reader's language, and the index is not built in the bot's own process instead."""
    index_path(services.catalog.path).unlink()
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", "import time; time.sleep(600)"))
    built = []
    monkeypatch.setattr(AskIndex, "_build_file", staticmethod(lambda *args: built.append(args)))
    monkeypatch.setattr(AskIndex, "in_memory", classmethod(lambda *args: built.append(args)))
    question, replies = in_thread(lambda: ask(services, "explore with an empty library", "fr",
                                              asked_at=time.monotonic()))
    deadline = time.monotonic() + 60
    while services._builder is None:
        assert time.monotonic() < deadline, "no background build started"
        time.sleep(0.02)
    services.stop_background()
    question.join(60)
    assert replies[0].error and "L'index de recherche des questions est encore en cours" in replies[0].content
    assert built == [], "the bot's own process built the index"


FAILING_BUILDER = """
import pathlib, sys
runs = pathlib.Path(sys.argv[1])
runs.write_text(runs.read_text() + "run\\n" if runs.exists() else "run\\n")
sys.exit("builder failed")
"""


def failing_builder(services, tmp_path, monkeypatch):
    """The /ask index gone from beside the catalog, and a builder that fails: the file it counts its runs in."""
    index_path(services.catalog.path).unlink()
    runs = tmp_path / "runs"
    monkeypatch.setattr(Services, "ask_builder", (sys.executable, "-c", FAILING_BUILDER, str(runs)))
    return runs


def test_when_the_background_build_fails_the_bot_builds_the_ask_index_itself_and_answers(
        services, tmp_path, monkeypatch, caplog):
    """A question to the running bot is answered from an index the bot builds in memory once its
    background build failed; the log says so, and later questions start no build."""
    runs = failing_builder(services, tmp_path, monkeypatch)
    asked_at = time.monotonic() - INDEX_WAIT + 120   # a stuck wait fails the test, not a 5-minute hang
    first = ask(services, "can I respond to a spell on the stack", "en", asked_at=asked_at)
    assert not first.error and first.pages
    second = ask(services, "explore with an empty library", "de", asked_at=time.monotonic())
    assert not second.error and "701.44" in str(second.data)
    assert runs.read_text().splitlines() == ["run"]
    assert "builder failed" in caplog.text and "the bot builds it itself, in memory" in caplog.text
    assert "the first question builds it" not in caplog.text
    assert not index_path(services.catalog.path).exists(), "the index beside the catalog is the builder's to write"


def test_when_the_ask_index_cannot_be_built_at_all_questions_are_told_at_once_and_it_is_tried_later(
        services, tmp_path, monkeypatch, caplog):
    """Background build and the build in memory both fail: the question waiting is told in its
    language that the index could not be built (not to ask again in a minute), and so are the next
    ones, without another doomed build each; once ASK_RETRY has passed a question tries again."""
    import bot.services as services_module
    runs = failing_builder(services, tmp_path, monkeypatch)

    def broken(cls, catalog, book):
        raise OSError("No space left on device")
    monkeypatch.setattr(AskIndex, "in_memory", classmethod(broken))
    for lang, words in (("fr", "L'index de recherche des questions n'a pas pu être créé"),
                        ("ja", "質問の検索インデックスを作成できませんでした"),
                        ("en", "could not be built")):
        reply = ask(services, "can I respond to a spell on the stack", lang,
                    asked_at=time.monotonic() - INDEX_WAIT + 120)
        assert reply.error and words in reply.content, reply.content
    assert runs.read_text().splitlines() == ["run"], "a doomed build was started again"
    assert "No space left on device" in caplog.text
    monkeypatch.setattr(AskIndex, "in_memory", real_in_memory)
    monkeypatch.setattr(services_module, "ASK_RETRY", 0.0)
    reply = ask(services, "explore with an empty library", "en", asked_at=time.monotonic())
    assert not reply.error and "701.44" in str(reply.data)
    assert runs.read_text().splitlines() == ["run", "run"]


real_in_memory = AskIndex.in_memory


def test_a_one_shot_question_waits_for_another_process_building_the_same_index_and_reads_it(
        services, tmp_path, monkeypatch, caplog):
    """``wayfinder ask`` (a question without asked_at) takes the index's build lock, as the bot's
    build does: while another process builds the index, it waits (the log says for whom), then
    answers from the index that process wrote, without building it a second time."""
    from bot.catalog.locks import FileLock, beside
    beside_catalog = index_path(services.catalog.path)
    made_elsewhere = tmp_path / "made-elsewhere.ask"
    shutil.move(beside_catalog, made_elsewhere)
    built = []
    monkeypatch.setattr(AskIndex, "_build_file", staticmethod(lambda *args: built.append(args)))
    monkeypatch.setattr(AskIndex, "in_memory", classmethod(lambda *args: built.append(args)))
    other = FileLock(beside(beside_catalog, ".lock"))
    assert other.acquire()
    try:
        question, replies = in_thread(lambda: ask(services, "explore with an empty library", "en"))
        deadline = time.monotonic() + 60
        while "is building the /ask index" not in caplog.text:
            assert time.monotonic() < deadline and question.is_alive(), "the question did not wait"
            time.sleep(0.02)
        assert f"(pid {os.getpid()})" in caplog.text
        shutil.move(made_elsewhere, beside_catalog)   # the other process's build, done
    finally:
        other.release()
    question.join(120)
    assert not replies[0].error and "701.44" in str(replies[0].data)
    assert built == [], "the index was built a second time"
