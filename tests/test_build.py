"""The build: make checks the Python version first, rebuilds a stale venv, pins the dev tools."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def fake_python(tmp_path: Path, version: str, ok: bool) -> Path:
    """A stand-in interpreter answering the Makefile's two questions (its version, and whether it is 3.11+)."""
    script = tmp_path / f"python{version}"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$2" in *version_info*) echo {int(ok)};; *) echo "{version} /opt/python{version}/bin/python3";; esac\n'
    )
    script.chmod(0o755)
    return script


def make(*args: str) -> subprocess.CompletedProcess[str]:
    """``make -n``: what make would run, nothing run. Clean of the make that may be running the tests."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE") and k != "MFLAGS"}
    return subprocess.run(
        ["make", "-n", "--no-print-directory", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@needs_make
@pytest.mark.parametrize("goal", ["test", "demo", ""])
def test_make_refuses_an_old_python_in_one_line_before_anything_else(tmp_path: Path, goal: str) -> None:
    old = fake_python(tmp_path, "3.9.18", ok=False)
    done = make(f"PYTHON={old}", *([goal] if goal else []))
    assert done.returncode != 0 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert f"securemem needs Python 3.11 or newer; {old} is 3.9.18 (try: make PYTHON=python3.11)" in line


@needs_make
def test_make_clean_needs_no_python(tmp_path: Path) -> None:
    done = make(f"PYTHON={tmp_path / 'missing'}", "clean")
    assert done.returncode == 0 and "rm -rf .venv" in done.stdout


@needs_make
def test_a_venv_built_by_another_interpreter_is_rebuilt(tmp_path: Path) -> None:
    # The stamp names the interpreter: with another one, make plans a fresh venv (venv --clear).
    other = fake_python(tmp_path, "3.13.1", ok=True)
    done = make(f"PYTHON={other}", f"VENV={tmp_path / 'venv'}", "test")
    assert done.returncode == 0, done.stderr
    assert f"{other} -m venv --clear {tmp_path / 'venv'}" in done.stdout
    assert "-c dev-constraints.txt -e '.[dev]'" in done.stdout


def test_the_dev_tools_are_pinned_to_exact_versions() -> None:
    pins = {}
    for line in (ROOT / "dev-constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert re.fullmatch(r"\d+(\.\d+)+(\.post\d+)?", version), line  # exact, post releases too
            pins[name.lower().replace("_", "-")] = version
    assert {"ruff", "mypy", "pytest", "hypothesis", "pydantic"} <= set(pins)
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert {re.split(r"[<>=\[]", spec)[0].lower() for spec in dev} <= set(
        pins
    )  # every dev tool is pinned (extras dropped)


def test_the_license_file_matches_pyproject() -> None:
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == {"text": "Apache-2.0"}
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text and len(text.splitlines()) > 190  # the full text


def test_every_package_of_securemem_is_in_the_distribution() -> None:
    """A subpackage missing from [tool.setuptools] packages works in an editable install and is
    absent from a built one: every admin command would then fail."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "securemem").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found <= listed, sorted(found - listed)


def test_the_cli_and_a_policy_load_without_the_scanner() -> None:
    """The scanner's modules (several hundred patterns) load on first use: importing the CLI, loading a
    policy and checking its phone regions import none of them; the first detect() does."""
    probe = (
        "import sys\n"
        "import securemem.cli\n"
        "from securemem.policy import load_policy\n"
        "load_policy('regulated')\n"
        "print(sorted(name for name in ('securemem.pii.detectors', 'securemem.pii.contact', 'securemem.pii.scrub')"
        " if name in sys.modules))\n"
        "from securemem.pii import detect\n"
        "found = detect('mail jane.doe@example.org or call +44 20 7946 0958')\n"
        "print([f.type for f in found], 'securemem.pii.detectors' in sys.modules)\n"
    )
    assert _fresh_interpreter(probe) == ["[]", "['EMAIL', 'PHONE'] True"]


def test_loading_a_policy_compiles_none_of_the_catalogues_patterns_and_a_scan_compiles_them_once() -> None:
    """The catalogue's 200 patterns are compiled when a scan first reads them, not when a policy names their types
    (most CLI commands load a policy and never scan), and a rule keeps the pattern it compiled."""
    probe = (
        "from securemem.policy import load_policy\n"
        "from securemem.pii.catalogue import KEYED, RULES\n"
        "load_policy('regulated')\n"
        "print(sum(rule._compiled is not None for rule in (*RULES, *KEYED)))\n"
        "from securemem.pii import detect\n"
        "found = detect('token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')\n"
        "first = RULES[0].pattern\n"
        "print([f.type for f in found], first is RULES[0].pattern, first.pattern == RULES[0].expression)\n"
    )
    assert _fresh_interpreter(probe) == ["0", "['GITHUB_PAT'] True True"]


def test_the_pii_package_lists_and_serves_the_names_it_loads_on_first_use() -> None:
    """dir() and help() list the names the scanner's modules provide before they load; a submodule is an
    attribute of the package as it was when the package imported them all; a wrong name is an AttributeError."""
    probe = (
        "import sys\n"
        "import securemem.pii as pii\n"
        "print(sorted(set(pii.__all__) - set(dir(pii))), 'securemem.pii.scrub' in sys.modules)\n"
        "print(pii.scrub.__name__, pii.Scrubber is pii.scrub.Scrubber)\n"
        "try:\n"
        "    pii.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print(type(exc).__name__)\n"
    )
    assert _fresh_interpreter(probe) == ["[] False", "securemem.pii.scrub True", "AttributeError"]


def _fresh_interpreter(probe: str) -> list[str]:
    """The lines ``probe`` prints, run in an interpreter of its own (nothing of securemem imported before)."""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_ascii_paths_are_judged_without_the_unicode_tables_and_others_with_them() -> None:
    """The ``regex`` package and its 170 script patterns load when a name that is not ASCII is first judged, not
    when securemem is imported (every CLI command would pay for them), and they judge as they did."""
    probe = (
        "import sys\n"
        "import securemem.cli\n"
        "from securemem.scripts import invisible_char, is_mixed_script\n"
        "print('regex' in sys.modules, is_mixed_script('notes.md'), invisible_char('notes.md'))\n"
        "print(is_mixed_script('r\\u0435ference.md'), is_mixed_script('メモ.md'),\n"
        "      invisible_char('ref\\u034f') == '\\u034f')\n"
        "print('regex' in sys.modules)\n"
    )
    assert _fresh_interpreter(probe) == ["False False None", "True False True", "True"]
