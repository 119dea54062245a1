# The two commands of the quick start: `make demo` and `make test`. Both build .venv from
# pyproject.toml (dev tools pinned by dev-constraints.txt) on first use, so a fresh machine needs
# only Python 3.11+ and make. `make clean` removes the venv and every cache.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CONSTRAINTS := dev-constraints.txt

# The interpreter the venv is built from (version and path), checked before anything else: an
# older Python would leave pip's resolver spinning for minutes before it fails.
PY_ID := $(shell $(PYTHON) -c 'import os, sys; print(sys.version.split()[0] + " " + os.path.realpath(sys.executable))' 2>/dev/null)
PY_OK := $(shell $(PYTHON) -c 'import sys; print(int(sys.version_info >= (3, 11)))' 2>/dev/null)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),demo)),)
ifeq ($(PY_ID),)
$(error securemem needs Python 3.11 or newer; $(PYTHON) was not found (try: make PYTHON=python3.11))
endif
ifneq ($(PY_OK),1)
$(error securemem needs Python 3.11 or newer; $(PYTHON) is $(firstword $(PY_ID)) (try: make PYTHON=python3.11))
endif
endif

# The stamp names everything the venv is built from: another interpreter (or Python version),
# another pyproject.toml or other pins, and the venv is rebuilt from scratch.
STAMP := $(VENV)/.installed-$(shell printf '%s\n' '$(PY_ID)' | cat - pyproject.toml $(CONSTRAINTS) | sha1sum | cut -c1-12)

.PHONY: demo test check bench-smoke clean

$(STAMP): pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv --clear $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c $(CONSTRAINTS) -e '.[dev]'
	touch $@

demo: $(STAMP)
	$(VENV)/bin/securemem demo

test: $(STAMP)
	scripts/check

bench-smoke: $(STAMP)
	$(PY) bench/run_all.py --smoke

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis
