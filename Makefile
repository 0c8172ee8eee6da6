# Everyday commands. `make run` and `make test` are all a newcomer needs.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# Reinstalls the requirements only when requirements.txt is newer than this file.
STAMP := $(VENV)/requirements.stamp
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: venv run test lint format ci browser clean

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (python3.11 or python3)"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "$(PYTHON) is older than Python 3.11"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

run: venv
	$(PY) manage.py migrate
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: venv
	$(PY) -m pytest $(ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

ci:
	bash .ci/run

# Browser tests drive Debian's Chromium; Playwright's own browser download is not used.
browser:
	@if [ -x /usr/bin/chromium ]; then \
		echo "Chromium is installed: /usr/bin/chromium"; \
	else \
		$(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
