# Everyday commands. `make run` and `make test` are all a newcomer needs; `make test-fast`
# is the inner loop while changing code.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# Reinstalls the requirements only when requirements.txt is newer than this file.
STAMP := $(VENV)/requirements.stamp
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: venv run test test-fast lint format ci browser clean translations messages

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (python3.11 or python3)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "$(PYTHON) is older than Python 3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

run: venv translations
	$(PY) manage.py migrate
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

# Every test, browser tests included, spread over one worker per core (pytest-xdist); each
# worker has a test database of its own. A worker that runs out of tests takes some of
# another's (`worksteal`), so that neither waits for the other's last long tests.
test: venv translations
	$(PY) -m pytest -n auto --dist worksteal $(ARGS)

# The inner loop, under a minute: the engine and the log converter (tests/engine), the
# seating planner, the hand judge and the app's tests, leaving out the tests marked slow.
# Each worker's test database is made from the models, without running the migrations
# (`make test` runs them, and tests the one migration that moves data).
FAST ?= tests/engine tests/seating tests/handvalue tests/tournaments
test-fast: venv translations
	$(PY) -m pytest -n auto --dist worksteal -m "not slow" --nomigrations $(FAST) $(ARGS)

# pytest rewrites the asserts of every test module before importing it and keeps the result
# beside the module's bytecode; with PYTHONDONTWRITEBYTECODE set (as many container images
# do) it rewrites them again in every worker of every run, about 6 s of CPU each here.
test test-fast: export PYTHONDONTWRITEBYTECODE =

# The .mo files Django reads, compiled from locale/*/LC_MESSAGES/*.po; they are not kept
# in git. Django's compilemessages when gettext's msgfmt is installed (.ci/run installs
# it), otherwise the same compilation in pure Python, so a fresh clone needs nothing more.
translations: venv
	@if command -v msgfmt >/dev/null; then \
		$(PY) manage.py compilemessages --ignore=.venv --ignore=staticfiles; \
	else \
		echo "gettext's msgfmt is not installed: compiling the catalogues in pure Python"; \
		$(PY) manage.py compile_translations; \
	fi

# After changing translatable text: collect every string of the templates and the Python
# code into locale/ja/LC_MESSAGES/django.po, take the translations of the part files
# (locale/ja/parts/*.po) where the catalogue has none, then compile. Needs gettext's tools.
LOCALE_PO := locale/ja/LC_MESSAGES/django.po
messages: venv
	@command -v xgettext >/dev/null || $(SUDO) apt-get update
	@command -v xgettext >/dev/null || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y gettext
	$(PY) manage.py makemessages -l ja --no-obsolete --extension=html,txt,svg,py \
		--ignore=.venv --ignore=staticfiles \
		--ignore=tests --ignore=docs --ignore=locale
	@if ls locale/ja/parts/*.po >/dev/null 2>&1; then \
		msgcat --use-first -o $(LOCALE_PO).all locale/ja/parts/*.po $(LOCALE_PO) && \
		msgmerge --quiet --no-fuzzy-matching --no-wrap -o $(LOCALE_PO).new \
			$(LOCALE_PO).all $(LOCALE_PO) && \
		msgattrib --no-obsolete --no-wrap -o $(LOCALE_PO) $(LOCALE_PO).new; \
		rm -f $(LOCALE_PO).all $(LOCALE_PO).new; \
	fi
	$(PY) manage.py compile_translations --force

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

ci:
	bash .ci/run

# Browser tests drive Debian's Chromium; Playwright's own browser download is not used.
# PDFs of Japanese pages need a Japanese font (IPA Gothic), installed here too.
browser:
	@if [ -x /usr/bin/chromium ]; then \
		echo "Chromium is installed: /usr/bin/chromium"; \
	else \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi
	@# Printed sheets in Japanese need a Japanese font, or the PDF shows empty boxes.
	@if [ -d /usr/share/fonts/opentype/ipafont-gothic ]; then \
		echo "A Japanese font is installed: IPA Gothic"; \
	else \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-ipafont-gothic; \
	fi

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
