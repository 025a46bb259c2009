# The two commands a newcomer needs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,local
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: install run test lint format bench clean-data

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

install: $(STAMP)

run: install
	$(BIN)/python -m config.launcher run

test: install
	$(BIN)/python -m config.launcher test $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	$(BIN)/python -m config.launcher bench $(BENCH)

clean-data:
	rm -rf .data
