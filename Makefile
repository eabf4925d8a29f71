# Two commands for a newcomer: `make run` and `make test`. Everything they
# need is installed inside the checkout (.venv/, tools/node_modules/, .web/)
# from PyPI, npm and Debian; nothing else is downloaded. `make run` installs
# only what the site needs (setup); `make test` and `make bench` add what the
# tests and benchmarks need (setup-test). Independent installs run in parallel
# (a sub-make with -j), the frontend build as soon as its tools are there.
SHELL := /bin/bash
.DEFAULT_GOAL := run

PORT ?= 3000
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# $(PYTHON) as found without the venv's bin/ on PATH (below): it makes the venv and puts uv in it with its
# own pip; the venv's python3, first on PATH once it exists, has none.
BASE_PYTHON := $(shell PATH='$(subst $(CURDIR)/$(VENV)/bin:,,$(PATH))' command -v $(PYTHON))
# Node >= 22.22 and bun, project-local from the npm registry (Reflex wants both).
export PATH := $(CURDIR)/tools/node_modules/.bin:$(CURDIR)/$(VENV)/bin:$(PATH)
export REFLEX_USE_SYSTEM_BUN := 1
export PYTHONDONTWRITEBYTECODE := 1
# uv (from PyPI) installs the Python packages, its cache inside the checkout; never a Python of its own.
UV_VERSION := 0.13.8
UV := $(VENV)/bin/uv
export UV_CACHE_DIR := $(CURDIR)/.cache/uv
export UV_PYTHON_DOWNLOADS := never
# Byte-compiled at install (as pip did): with PYTHONDONTWRITEBYTECODE every start would compile again.
# jamdict-data and unidic-lite come as source archives holding 325 and 250 MB dictionaries: their wheels
# are built without compression (a fresh setup spent about 25 s of CPU deflating jamdict-data's).
UV_INSTALL := $(UV) pip install --quiet --python $(PY) --compile-bytecode \
	--config-settings-package jamdict-data:--build-option=--compression=stored \
	--config-settings-package unidic-lite:--build-option=--compression=stored
PARALLEL := $(MAKE) --no-print-directory -j4

APP_SOURCES := rxconfig.py $(shell find manga_app assets -type f -not -name '*.pyc' -not -path 'assets/external/*' -not -name antd.css -not -name antd_map_token.json 2>/dev/null) reflex.lock/package.json
# Separate build folders let several builds (e.g. parallel e2e runs) coexist.
WEB_DIR ?= .web
export REFLEX_WEB_WORKDIR := $(WEB_DIR)
BUILD_STAMP := $(WEB_DIR)/.built-for-port-$(PORT)
DEMO_DIR := data/demo
DEMO_STAMP := data/.demo-imported

.PHONY: run ready dev dev-assets dev-serve test bench import setup setup-test build demo clean clean-data system-packages \
	test-system-packages operator

## run: set everything up and serve the production build with the demo catalogue on $(PORT)
run: ready
	@$(AVIF_IN_BACKGROUND)
	$(PY) -m manga_app.serve --port $(PORT)

# The demo is imported with its JPEG and WebP copies only (--defer-avif: the AVIF encodes were two thirds
# of the import, so the first `make run` serves sooner); `reencode` makes the AVIF copies in the background,
# at idle priority (SCHED_IDLE: CPU time nothing else wants; nice 10 still took a share from a starting
# server, whose second start went from 16 to 26 s), and publishes them when all are made (the site picks
# them up within 30 s). Until the store has them (its marker), each `make run` or `make dev` starts it
# again: it goes on where it stopped, and a second one leaves the work to the first. Its progress is in
# DATA_DIR/reencode.log.
AVIF_DATA = $(or $(DATA_DIR),data)
IDLE_PRIORITY = $(if $(shell command -v chrt),chrt --idle 0,nice -n 19)
AVIF_IN_BACKGROUND = test -e $(AVIF_DATA)/media/.avif-v1 || { echo "The demo's AVIF copies are being made in the background \
	($(AVIF_DATA)/reencode.log)"; $(IDLE_PRIORITY) $(PY) -m manga_app.catalogue reencode > $(AVIF_DATA)/reencode.log 2>&1 & }

# What `make run` serves: the installs in parallel, the build as soon as what it needs is there; then
# the demo. Not beside the build: with the import's workers on both cores, React Router's prerender
# of the build timed out (a fresh make run at load 9).
ready:
	@$(PARALLEL) setup build
	@$(MAKE) --no-print-directory demo

## dev: the site with hot reload (Reflex's dev mode: Vite on $(PORT), the backend on $(PORT)+1). A saved
## edit under manga_app/ or assets/ shows in the open page; pages are drawn in the browser, not on the
## server (`make run` serves the server's first HTML). Its own build folder, so `make run` keeps its build.
DEV_WEB_DIR ?= .web-dev
dev: setup dev-assets demo
	@$(MAKE) --no-print-directory dev-serve

# What the dev server needs besides the venv and the demo: the antd stylesheet the app links
# (the benchmark of the edit loop makes it too, before its own dev-serve).
dev-assets: assets/css/antd.css assets/antd_map_token.json

# The page is on Vite's port but /media is the backend's: make dev reads the catalogue from its own data
# folder (DATA_DIR/dev-PORT: the media and content key linked, the lists published again at each start)
# whose image URLs name the backend's origin. Only the backend reloads on a save, and only for what it runs.
DEV_BACKEND_PORT = $(shell echo $$(($(PORT) + 1)))
DEV_DATA_DIR = $(or $(DATA_DIR),data)/dev-$(PORT)
DEV_ENV = DATA_DIR=$(DEV_DATA_DIR) MEDIA_BASE_URL=http://localhost:$(DEV_BACKEND_PORT)/media \
	REFLEX_WEB_WORKDIR=$(DEV_WEB_DIR) REFLEX_HOT_RELOAD_OVERRIDE_PATHS=$(CURDIR)/manga_app:$(CURDIR)/assets:$(CURDIR)/rxconfig.py
dev-serve:
	@$(AVIF_IN_BACKGROUND)
	mkdir -p $(DEV_DATA_DIR) && ln -sfn ../media $(DEV_DATA_DIR)/media && ln -sfn ../content_key $(DEV_DATA_DIR)/content_key
	$(DEV_ENV) $(PY) -m manga_app.catalogue publish
	$(DEV_ENV) $(PY) -m reflex run --env dev --frontend-port $(PORT) --backend-port $(DEV_BACKEND_PORT)

## test: set everything up and run every test (unit, then end-to-end in Chromium)
# The end-to-end suite in E2E_WORKERS processes, each with its own server, build and port, given
# whole modules (tests/e2e/conftest.py): 12.5-13 min on a 2-core machine against 25 in one process
# with the old harness (README, "Tests").
E2E_WORKERS ?= 2
test:
	@$(PARALLEL) setup-test
	$(PY) -m pytest tests/unit -n 2 --dist loadfile --durations=15
	$(PY) -m pytest tests/e2e -n $(E2E_WORKERS) --dist loadscope --no-loadscope-reorder --durations=40

## bench: run the benchmarks; results go to benchmarks/results/
bench:
	@$(PARALLEL) setup-test
	$(PY) -m benchmarks

## import: import comic archives, e.g. make import SRC=~/comics
import: setup
	@test -n "$(strip $(SRC))" || { echo 'usage: make import SRC=<folder of series, or one archive>' >&2; exit 2; }
	$(PY) -m manga_app.catalogue import "$(SRC)"

## demo: generate the demo library and import it through the real importer (once)
demo: $(DEMO_STAMP)

# Its pictures need fonts-noto-cjk (system-packages).
$(DEMO_STAMP): | $(VENV)/.installed system-packages
	$(PY) -m manga_app.demo $(DEMO_DIR)
	$(PY) -m manga_app.catalogue import --defer-avif $(DEMO_DIR)
	$(PY) -m manga_app.demo.view_counts
	touch $@

## setup: install what `make run` needs (the site's Python packages, Node and bun, the Auth emulator)
setup: $(VENV)/.installed tools/node_modules/.installed tools/firebase/node_modules/.installed system-packages

## setup-test: that and what only the tests and benchmarks need (make test, make bench)
setup-test: setup $(VENV)/.installed-test tools/testing/node_modules/.installed \
	tools/observatory/node_modules/.installed test-system-packages

system-packages:
	@./scripts/ensure_system_packages.sh

# After system-packages: two apt-get at once would wait on each other's lock.
test-system-packages: system-packages
	@./scripts/ensure_system_packages.sh --test

# A venv without ensurepip's pip and setuptools (they took 13-58 s of a fresh setup), uv put into it by
# $(PYTHON)'s own pip, and pip then by uv (for `python -m pip` in the venv).
$(VENV)/.uv-$(UV_VERSION):
	test -x $(PY) || $(BASE_PYTHON) -m venv --without-pip $(VENV)
	$(BASE_PYTHON) -m pip --python $(PY) install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(UV) pip install --quiet --python $(PY) pip
	touch $@

$(VENV)/.installed: requirements.txt requirements.lock | $(VENV)/.uv-$(UV_VERSION)
	$(UV_INSTALL) -r requirements.txt -c requirements.lock
	touch $@

$(VENV)/.installed-test: requirements-test.txt requirements.txt requirements.lock | $(VENV)/.installed
	$(UV_INSTALL) -r requirements.txt -r requirements-test.txt -c requirements.lock
	touch $@

tools/node_modules/.installed: tools/package.json tools/package-lock.json
	cd tools && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The tests' and benchmarks' npm tools: vnu-jar, axe-core, Lighthouse.
tools/testing/node_modules/.installed: tools/testing/package.json tools/testing/package-lock.json
	cd tools/testing && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The Firebase Auth emulator (firebase-tools) for local runs and tests. Without its optional
# dependencies: they are the hosting emulator's re2, a native module compiled from source (about
# two minutes of a fresh setup), and node-gyp to build it; the Auth emulator uses neither.
# Installed by bun (tools/, the npm registry) at the versions package-lock.json pins, which bun
# reads: about 10 s against npm ci's 55-160 s of CPU on a fresh 2-core machine. Dependencies'
# install scripts stay off (bun's default; the one there is protobufjs's version notice).
tools/firebase/node_modules/.installed: tools/firebase/package.json tools/firebase/package-lock.json \
		tools/node_modules/.installed
	cd tools/firebase && bun install --no-save --omit=optional --linker=hoisted --cache-dir=$(CURDIR)/.cache/bun \
		--no-progress --silent
	touch $@

# MDN's HTTP Observatory for the production front's test. Without install scripts: they download from
# outside the npm registry (Mozilla's intermediate certificates: the test trusts its own CA through
# NODE_EXTRA_CA_CERTS instead; Chromium's HSTS preload list: an empty one, the test's host is on no such list).
OBSERVATORY := tools/observatory/node_modules/@mdn/mdn-http-observatory
tools/observatory/node_modules/.installed: tools/observatory/package.json tools/observatory/package-lock.json
	cd tools/observatory && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	test -s $(OBSERVATORY)/conf/hsts-preload.json || echo '{}' > $(OBSERVATORY)/conf/hsts-preload.json
	touch $@

assets/css/antd.css assets/antd_map_token.json &: assets/antd_theme.json tools/extract_antd_css.cjs tools/node_modules/.installed
	node tools/extract_antd_css.cjs assets/antd_theme.json assets/css/antd.css assets/antd_map_token.json

## operator: give EMAIL the console (/admin) on the Auth emulator: the Firebase custom claim admin: true
operator: setup
	@test -n "$(EMAIL)" || { echo "usage: make operator EMAIL=you@example.com"; exit 2; }
	$(PY) -m manga_app.accounts.operators grant "$(EMAIL)"

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
	rm -rf data/manga.db data/media data/published data/demo data/dev-* $(DEMO_STAMP)
