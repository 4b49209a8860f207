# Wayfinder: `make run` starts the bot (or the local console without DISCORD_TOKEN);
# `make test` runs every test. Both set up .venv from the project's own files when needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# the message catalogs, compiled: each .mo is rebuilt from its .po (the .mo files are not in git)
CATALOGS := $(patsubst %.po,%.mo,$(wildcard data/locales/*/LC_MESSAGES/wayfinder.po))
# and the part of Babel's locale data each language's dates and numbers read (bot/babel_data.py)
LOCALE_DATA := $(patsubst %/LC_MESSAGES/wayfinder.po,%/babel-locale.pickle,$(wildcard data/locales/*/LC_MESSAGES/wayfinder.po))

.PHONY: setup run test bench charts clean

$(STAMP): pyproject.toml setup.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]' --config-settings editable_mode=compat
	@touch $(STAMP)

%.mo: %.po | $(STAMP)
	$(PY) -m bot.i18n $<

$(LOCALE_DATA) &: bot/babel_data.py bot/languages.py $(STAMP)
	$(PY) -m bot.babel_data

setup: $(STAMP) $(CATALOGS) $(LOCALE_DATA)

run: setup
	$(PY) -m bot

test: setup
	$(PY) -m pytest -q --durations=15

# every tests/benchmarks/bench_*.py; fails when a figure misses its goal
bench: charts
	$(PY) tests/benchmarks/run.py

charts: setup
	$(PY) -m bot.explore.chart en fr ja

clean:
	rm -rf $(VENV) var *.egg-info $(CATALOGS) $(LOCALE_DATA)
