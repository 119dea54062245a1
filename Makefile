# The two commands of the quick start: `make demo` and `make test`. Both build .venv from
# pyproject.toml on first use, so a fresh machine needs only python3 (3.11+) and make.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: demo test check bench-smoke clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

demo: $(STAMP)
	$(VENV)/bin/securemem demo

test: $(STAMP)
	scripts/check

bench-smoke: $(STAMP)
	$(PY) bench/run_all.py --smoke

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis
