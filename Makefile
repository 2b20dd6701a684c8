# One command sets up and runs the main job (`make run`); one sets up and passes the
# tests (`make test`). Both build .venv from requirements.lock the first time.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# llama-cpp-python ships only as source, and uv rebuilds it on every install here
# (the registry sends no cache headers), so it is built once per machine into a
# wheelhouse that later set-ups install from.
WHEELHOUSE ?= $(HOME)/.cache/memory-lab/wheels
LLAMA_PIN := $(shell grep -m1 '^llama-cpp-python' requirements.lock)
LLAMA_VER := $(subst llama-cpp-python==,,$(LLAMA_PIN))

.PHONY: setup run test test-fast soak triggers readme screenshots lab app bench lock lint typecheck clean

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv==0.13.8
	mkdir -p $(WHEELHOUSE)
	flock $(WHEELHOUSE)/.lock sh -c 'ls $(WHEELHOUSE)/llama_cpp_python-$(LLAMA_VER)-*.whl >/dev/null 2>&1 || $(BIN)/pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir $(WHEELHOUSE) "$(LLAMA_PIN)"'
	$(BIN)/uv pip install --quiet --python $(BIN)/python --find-links $(WHEELHOUSE) -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/memory-lab main

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

# The loop while editing: every test folder (unit, contracts, evals, property,
# integration with owner/, app, stress), leaving out what is marked slow or needs
# a browser; `make test` runs those too.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup tests -m "not slow and not browser" $(PYTEST_ARGS)

# The app, property, stress and integration suites, SOAK_ROUNDS times in random
# order (each round's seed recorded) while busy loops keep every core loaded.
SOAK_ROUNDS ?= 20
soak: $(STAMP)
	$(BIN)/python .ci/soak --rounds $(SOAK_ROUNDS)

# Every trigger alone and with D, at 600 and 1,500 tokens, on the main synthetic set
# and the LoCoMo development split: the table and plot the README shows.
triggers: $(STAMP)
	$(BIN)/memory-lab triggers --out evals/results/triggers
	$(BIN)/python -m memlab_evals.readme.tables README.md

# Every generated table and figure in README.md, rewritten from the committed result
# files (evals/results, benchmarks/results); a test fails when they disagree.
readme: $(STAMP)
	$(BIN)/python -m memlab_evals.readme.tables README.md

# The README's app pictures in docs/, taken by the browser tests (a plain test run
# leaves docs/ alone).
screenshots: $(STAMP)
	MEMORY_LAB_DOCS_SHOTS=1 $(BIN)/python -m pytest -p no:cacheprovider tests/app/test_browser.py tests/app/test_browser_chats.py

lab: $(STAMP)
	$(BIN)/jupyter lab --no-browser --ip 127.0.0.1 --allow-root notebooks/

app: $(STAMP)
	$(BIN)/memory-lab app

bench: $(STAMP)
	$(BIN)/memory-lab bench --quick

lint: $(STAMP)
	$(BIN)/ruff check memory_lab memlab_cli evals datasets/memlab_datasets benchmarks app.py app_ui

# mypy over the library, at its default strictness ([tool.mypy] in pyproject.toml);
# the test suite runs it too.
typecheck: $(STAMP)
	$(BIN)/mypy

# Re-resolve the pinned set after editing requirements.in.
lock: $(STAMP)
	$(BIN)/uv pip compile requirements.in -o requirements.lock --python-version 3.11

clean:
	rm -rf $(VENV) .pytest_cache
