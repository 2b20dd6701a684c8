# One command sets up and runs the main job (`make run`); one sets up and passes the
# tests (`make test`). Both build .venv from requirements.lock the first time.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test lab app bench lock lint clean

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv==0.13.8
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/memory-lab main

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lab: $(STAMP)
	$(BIN)/jupyter lab --no-browser --ip 127.0.0.1 --allow-root notebooks/

app: $(STAMP)
	$(BIN)/memory-lab app

bench: $(STAMP)
	$(BIN)/memory-lab bench --quick

lint: $(STAMP)
	$(BIN)/ruff check memory_lab memlab_cli evals datasets/memlab_datasets benchmarks app.py app_ui

# Re-resolve the pinned set after editing requirements.in.
lock: $(STAMP)
	$(BIN)/uv pip compile requirements.in -o requirements.lock --python-version 3.11

clean:
	rm -rf $(VENV) .pytest_cache
