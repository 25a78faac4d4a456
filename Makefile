# The card table. Quick start: `make run` serves the games on the LAN, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 5000
WORKERS ?= 2
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: install install-dev bytecode run backup lint test test-fast browser-deps bench clean solver translations

# What serving needs (requirements.txt): all `make run` installs.
install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@# (installs made when the project was called mason-rummy: that name goes, its console script stays)
	$(PY) -m pip uninstall --quiet --disable-pip-version-check -y mason-rummy 2>/dev/null || true
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

# ...and the tests' and benchmarks' tools (requirements-dev.txt), for `make test` and `make bench`.
install-dev: $(DEV_STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	-$(PY) scripts/build-solver
	touch $(DEV_STAMP)

# The Seahaven Towers solver compiled with mypyc (needs the dev tools and a C compiler; the game
# uses it only while it matches solver.py, and runs the same solver as plain Python without it).
solver: install-dev
	$(PY) scripts/build-solver

# Python's compiled bytecode, written ahead: the libraries' at the level the server runs them
# (-OO, app/settings.py) and the table's own at both. Where PYTHONDONTWRITEBYTECODE is set, as on
# this project's build machines, nothing is cached on import, and every server process compiled
# each module it loads again: over half of a server's start (bench/server_start.py). Files
# already compiled are skipped.
bytecode: install
	@$(PY) -m compileall -q -o 2 $(VENV)/lib
	@$(PY) -m compileall -q -o 0 -o 2 app config.py wsgi.py

# Serve on every interface with gunicorn (gevent workers), after upgrading the database: `flask
# upgrade` prints the version, suggests `make backup` before a migration changes a database that
# holds games, migrates (flask db upgrade), rebuilds old games' replays (app/serving/upgrades.py),
# says the database is ready and, on a first start, shows the admin password made for it
# (CARD_TABLE_FIRST_START_SUMMARY); the server then says where to open the table.
run: bytecode
	CARD_TABLE_FIRST_START_SUMMARY=1 $(VENV)/bin/flask --app wsgi upgrade
	PORT=$(PORT) WORKERS=$(WORKERS) $(PY) -m app.serving.serve

# One dated file in instance/backups/: the database (a consistent copy), the instance folder's
# secrets and the decks. `.venv/bin/flask --app wsgi restore FILE` puts it back (README, "Upgrading").
backup: install
	$(VENV)/bin/flask --app wsgi backup

# The contracts: ruff over the whole repository, mypy (strict) over the whole of app/ (and the
# sample game); the settings are in pyproject.toml.
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The whole suite: rules, terminal, web (test client), real server processes and real browsers.
# Two workers, each given a file at a time, the longest first (tests/conftest.py says how).
DIST = -n 2 --dist loadgroup --no-loadscope-reorder
test: install-dev bytecode browser-deps lint
	$(PY) -m pytest $(DIST) $(PYTEST_ARGS)

# Everything but the browser tests and the slow ones (over about 5 s each: whole games through
# the web, live servers, long property and fuzz runs).
test-fast: install-dev bytecode
	$(PY) -m pytest $(DIST) -m "not browser and not slow" $(PYTEST_ARGS)

# Debian's chromium for the Playwright tests (Playwright cannot download browsers here).
browser-deps:
	@scripts/ensure-chromium

# The languages' catalogues (translations/<lang>/LC_MESSAGES/): the house's words extracted
# (babel.cfg) into translations/messages.pot and the games' (scripts/games_catalogue.py) into games.pot, each language's messages.po brought up to date
# (then translate what is new or fuzzy), and every domain's .po compiled into the .mo the server
# reads (the .mo files are committed, so `make run` needs no step of its own;
# tests/web/test_translations.py checks each matches its .po and that every message is translated).
# A new language: `$(VENV)/bin/pybabel init -i translations/messages.pot -d translations -l <code>`
# and its name in config.py's LANGUAGES.
translations: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k lazy_gettext --no-location --sort-output \
	  --project "Card Table" --copyright-holder "" -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations -D messages --ignore-obsolete
	$(PY) scripts/games_catalogue.py  # the games' own words: translations/games.pot and each games.po
	for po in translations/*/LC_MESSAGES/*.po; do $(VENV)/bin/pybabel compile -i $$po -o $${po%.po}.mo || exit 1; done

bench: install-dev
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts .mypy_cache .ruff_cache
	rm -f app/games/seahaven/_solver_native*.so
