# Two commands for a newcomer: `make run` and `make test`. Everything they
# need is installed inside the checkout (.venv/, tools/node_modules/, .web/)
# from PyPI, npm and Debian; nothing else is downloaded.
SHELL := /bin/bash
.DEFAULT_GOAL := run

PORT ?= 3000
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Node >= 22.22 and bun, project-local from the npm registry (Reflex wants both).
export PATH := $(CURDIR)/tools/node_modules/.bin:$(CURDIR)/$(VENV)/bin:$(PATH)
export REFLEX_USE_SYSTEM_BUN := 1
export PYTHONDONTWRITEBYTECODE := 1

APP_SOURCES := rxconfig.py $(shell find manga_app assets -type f -not -name '*.pyc' -not -path 'assets/external/*' -not -name antd.css -not -name antd_map_token.json 2>/dev/null) reflex.lock/package.json
# Separate build folders let several builds (e.g. parallel e2e runs) coexist.
WEB_DIR ?= .web
export REFLEX_WEB_WORKDIR := $(WEB_DIR)
BUILD_STAMP := $(WEB_DIR)/.built-for-port-$(PORT)
DEMO_DIR := data/demo
DEMO_STAMP := data/.demo-imported

.PHONY: run dev test bench import setup build demo clean clean-data system-packages

## run: set everything up and serve the production build with the demo catalogue on $(PORT)
run: setup build demo
	$(PY) -m manga_app.serve --port $(PORT)

## dev: the site with hot reload (Reflex's dev mode: Vite on $(PORT), the backend on $(PORT)+1). A saved
## edit under manga_app/ or assets/ shows in the open page; pages are drawn in the browser, not on the
## server (`make run` serves the server's first HTML). Its own build folder, so `make run` keeps its build.
DEV_WEB_DIR ?= .web-dev
dev: setup assets/css/antd.css assets/antd_map_token.json demo
	REFLEX_WEB_WORKDIR=$(DEV_WEB_DIR) $(PY) -m reflex run --env dev --frontend-port $(PORT) --backend-port $$(($(PORT) + 1))

## test: set everything up and run every test (unit, then end-to-end in Chromium)
test: setup
	@./scripts/ensure_system_packages.sh --test
	$(PY) -m pytest

## bench: run the benchmarks; results go to benchmarks/results/
bench: setup
	@./scripts/ensure_system_packages.sh --test
	$(PY) -m benchmarks

## import: import comic archives, e.g. make import SRC=~/comics
import: setup
	@test -n "$(strip $(SRC))" || { echo 'usage: make import SRC=<folder of series, or one archive>' >&2; exit 2; }
	$(PY) -m manga_app.catalogue import "$(SRC)"

## demo: generate the demo library and import it through the real importer (once)
demo: $(DEMO_STAMP)

$(DEMO_STAMP): | $(VENV)/.installed
	$(PY) -m manga_app.demo $(DEMO_DIR)
	$(PY) -m manga_app.catalogue import $(DEMO_DIR)
	$(PY) -m manga_app.demo.view_counts
	touch $@

setup: $(VENV)/.installed tools/node_modules/.installed tools/firebase/node_modules/.installed system-packages

system-packages:
	@./scripts/ensure_system_packages.sh

$(VENV)/.installed: requirements.txt requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt -c requirements.lock
	touch $@

tools/node_modules/.installed: tools/package.json tools/package-lock.json
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The Firebase Auth emulator (firebase-tools) for local runs and tests.
tools/firebase/node_modules/.installed: tools/firebase/package.json tools/firebase/package-lock.json
	cd tools/firebase && npm ci --no-audit --no-fund --loglevel=error
	touch $@

assets/css/antd.css assets/antd_map_token.json &: assets/antd_theme.json tools/extract_antd_css.cjs tools/node_modules/.installed
	node tools/extract_antd_css.cjs assets/antd_theme.json assets/css/antd.css assets/antd_map_token.json

## build: compile the frontend for $(PORT), only when a source changed
build: $(BUILD_STAMP)

$(BUILD_STAMP): $(APP_SOURCES) assets/css/antd.css assets/antd_map_token.json $(VENV)/.installed
	rm -f $(WEB_DIR)/.built-for-port-*
	REFLEX_API_URL=http://localhost:$(PORT) $(PY) -m reflex export --frontend-only --no-zip --loglevel warning
	touch $@

clean:
	rm -rf .web .states assets/css/antd.css assets/antd_map_token.json

## clean-data: forget the local database, media and demo (the next make run re-imports)
clean-data:
	rm -rf data/manga.db data/media data/published data/demo $(DEMO_STAMP)
