# Any Python 3.11 or newer on PATH: the newest pythonX.Y, else python3 when it is new enough
# (or say which: make PYTHON=/path/to/python ...).
ifeq ($(origin PYTHON), undefined)
PYTHON := $(shell for p in python3.14 python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && { echo $$p; break; }; done)
endif
NEED_PYTHON = { echo "need Python 3.11 or newer on PATH (or run: make PYTHON=/path/to/python ...)"; exit 2; }
VENV := .venv
BIN := $(VENV)/bin
# The real llama.cpp server for the local-tier integration tests, from a wheel in RUNTIMES.
RUNTIMES ?= ../shared/runtimes
LLM_WHEEL := $(firstword $(wildcard $(RUNTIMES)/llama_cpp_python-*.whl))
LLM_VENV := .venv-llm
# Arize Phoenix, the trace viewer the OTLP export is read back by (tests/engine/test_otlp_phoenix.py).
PHOENIX_VENV := .venv-phoenix
PHOENIX_PIN := arize-phoenix==20.26.1

.PHONY: play test test-lowest test-setup browser cosmos-server check install install-test llm-runtime phoenix bench clean

$(BIN)/python:
	@[ -n "$(PYTHON)" ] && command -v $(PYTHON) >/dev/null 2>&1 || $(NEED_PYTHON)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The dev tools are PEP 735 dependency groups (pyproject.toml), not a public extra.
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e . --group dev
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

play: install
	$(BIN)/worldforge play

# Its own venv, so the game's never carries the server's dependencies. Where the wheel is
# missing or will not install, the real-server tests skip and say why.
llm-runtime:
ifeq ($(LLM_WHEEL),)
	@echo "no llama_cpp_python wheel in $(RUNTIMES): the real llama.cpp tests will skip"
else
	@$(MAKE) --no-print-directory $(LLM_VENV)/.installed
endif

$(LLM_VENV)/.installed: $(LLM_WHEEL)
	@[ -n "$(PYTHON)" ] && command -v $(PYTHON) >/dev/null 2>&1 || $(NEED_PYTHON)
	@$(PYTHON) -m venv $(LLM_VENV) && $(LLM_VENV)/bin/python -m pip install --quiet \
		"$(LLM_WHEEL)[server]" gguf numpy && touch $@ \
	|| { rm -rf $(LLM_VENV); echo "llama_cpp_python did not install: the real llama.cpp tests will skip"; }

phoenix: $(PHOENIX_VENV)/.installed

$(PHOENIX_VENV)/.installed:
	@[ -n "$(PYTHON)" ] && command -v $(PYTHON) >/dev/null 2>&1 || $(NEED_PYTHON)
	@$(PYTHON) -m venv $(PHOENIX_VENV) && $(PHOENIX_VENV)/bin/python -m pip install --quiet \
		"$(PHOENIX_PIN)" && touch $@ \
	|| { rm -rf $(PHOENIX_VENV); echo "arize-phoenix did not install: the trace viewer test will skip"; }

# What the tests need beyond the venvs, installed here and never by a test: a test whose part is
# missing skips with one reason. Each step only says so where the machine does not allow it.
test-setup: install-test llm-runtime phoenix browser cosmos-server

# Chromium for the browser test (tests/tui/test_serve.py), from the OS packages where we are root.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	     && { apt-get update -q >/dev/null 2>&1; \
	          DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; } \
	|| echo "chromium not installed (needs root and apt-get): the browser test will skip"

# The Cosmos DB server (npm @vercel/cosmosdb-server) for tests/cosmos, into the tests' cache.
cosmos-server: install-test
	@command -v npm >/dev/null 2>&1 && $(BIN)/python -m tests.servers.cosmos_server install \
	|| echo "npm missing: the Cosmos tests will skip"

# The whole suite in parallel, one worker more than there are cores (TEST_WORKERS=0 runs it in one
# process): tests that wait on purpose (the soak's hung and trickled calls, a frozen server's
# timeout, a subprocess starting, a server answering) leave their worker's core idle, and the extra
# worker's tests take it up (one worker a core left ~40 % of two cores idle over the suite). A
# module's tests stay on one worker, so its module-scoped fixtures (a balance sweep) run once.
# Modules are handed out in the order tests/conftest.py sets (the long ones first).
TEST_WORKERS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))
DIST := --dist loadscope --no-loadscope-reorder
test: test-setup
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(DIST)

# The dependency floors: the suite in a venv resolved to each direct dependency's lowest allowed
# version (uv's lowest-direct resolution); `make test` covers the newest the caps allow.
LOW_VENV := .venv-lowest
test-lowest: install-test
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile -q --native-tls pyproject.toml --group dev --resolution lowest-direct \
		--python-version 3.11 -o $(LOW_VENV).txt
	$(BIN)/uv venv -q --allow-existing -p $(PYTHON) $(LOW_VENV)
	$(BIN)/uv pip sync -q --native-tls --compile-bytecode --python $(LOW_VENV)/bin/python $(LOW_VENV).txt
	$(BIN)/uv pip install -q --native-tls --no-deps --python $(LOW_VENV)/bin/python -e .
	$(LOW_VENV)/bin/python -m pytest -n $(TEST_WORKERS) $(DIST)

check: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: install
	$(BIN)/python -m bench.venture --json

clean:
	rm -rf $(VENV) $(LLM_VENV) $(LOW_VENV) $(LOW_VENV).txt build *.egg-info
