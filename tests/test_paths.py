"""The path guard: ``securemem.paths`` directly (known-answer vectors) and through every command.

A path is accepted only when it names exactly one entry under /memories without decoding or
resolving anything; only duplicate and trailing slashes are rewritten.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from securemem import SecureMemory
from securemem.errors import InvalidPath
from securemem.lookalikes import latin_twin
from securemem.paths import (
    MAX_PATH_BYTES,
    MAX_SEGMENT_BYTES,
    ROOT,
    ancestors,
    canonical,
    is_within,
    name_of,
    parent_of,
)
from securemem.scripts import _LOOKALIKES, _SEPARATOR_LOOKALIKES, letter_lookalike, separator_lookalike

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "path_vectors.json").read_text(encoding="utf-8")
)
ACCEPTED = [v for v in VECTORS if v["ok"]]
REFUSED = [v for v in VECTORS if not v["ok"]]
INVALID = "Error: Invalid path"
ROOT_SPELLINGS = ["/memories", "/memories/", "/memories//", "//memories", "/memories///"]
MUTATIONS = ["create", "str_replace", "insert", "delete", "rename_old", "rename_new"]
COMMANDS = ["view", *MUTATIONS]
SEED = {"/memories/keep.md": "keep me\n", "/memories/dir/inner.md": "inner\n"}


def vector_id(vector: dict[str, Any]) -> str:
    shown = ascii(vector["path"])
    return shown if len(shown) <= 60 else f"{shown[:40]}...({len(vector['path'].encode())}B)"


def command(kind: str, path: str, other: str = "/memories/keep.md") -> dict[str, Any]:
    """A well-formed tool input of ``kind`` naming ``path`` (``other`` is rename's second path)."""
    inputs: dict[str, dict[str, Any]] = {
        "view": {"command": "view", "path": path},
        "create": {"command": "create", "path": path, "file_text": "new\n"},
        "str_replace": {"command": "str_replace", "path": path, "old_str": "keep", "new_str": "gone"},
        "insert": {"command": "insert", "path": path, "insert_line": 0, "insert_text": "top"},
        "delete": {"command": "delete", "path": path},
        "rename_old": {"command": "rename", "old_path": path, "new_path": "/memories/moved.md"},
        "rename_new": {"command": "rename", "old_path": other, "new_path": path},
    }
    return inputs[kind]


def seed(memory: SecureMemory) -> None:
    for path, text in SEED.items():
        assert not memory.execute({"command": "create", "path": path, "file_text": text}).is_error


def refusal(path: object) -> str:
    with pytest.raises(InvalidPath) as caught:
        canonical(path)
    return str(caught.value)


# -- the vectors file ------------------------------------------------------------------------


def test_vectors_file_is_well_formed() -> None:
    assert len(ACCEPTED) >= 20 and len(REFUSED) >= 60
    assert len({v["path"] for v in VECTORS}) == len(VECTORS), "duplicate vectors"
    for vector in VECTORS:
        assert set(vector) == {"path", "ok", "canonical"}
        assert isinstance(vector["path"], str) and isinstance(vector["ok"], bool)
        assert (vector["canonical"] is not None) == vector["ok"]


@pytest.mark.parametrize("vector", ACCEPTED, ids=vector_id)
def test_accepted_vector_has_its_canonical_form(vector: dict[str, Any]) -> None:
    result = canonical(vector["path"])
    assert result == vector["canonical"]
    assert canonical(result) == result


@pytest.mark.parametrize("vector", REFUSED, ids=vector_id)
def test_refused_vector_is_refused_with_a_clear_message(vector: dict[str, Any]) -> None:
    message = refusal(vector["path"])
    assert message.startswith(INVALID + ": ")
    assert "/memories/" in message  # the message says what a valid path looks like
    assert "\x00" not in message and "\n" not in message  # refused characters are shown escaped


# -- why a path is refused -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("memories/x", "is not absolute"),
        ("", "is not absolute"),
        ("/memoriesX/f", "outside /memories"),
        ("/memories_backup", "outside /memories"),
        ("/Memories/x", "outside /memories"),
        ("/", "outside /memories"),
        ("/memories/../secrets.env", "'..' segments are not allowed"),
        ("/memories/.", "'.' segments are not allowed"),
        ("/memories/a/./b", "'.' segments are not allowed"),
        ("/memories/..\\..\\x", "backslashes"),
        ("/memories/%2e%2e%2fsecrets", "no percent-encoding"),
        ("/memories/a%2Fb", "no percent-encoding"),
        ("/memories/100%", "no percent-encoding"),
        ("/memories/...", "names made only of dots"),
        ("/memories/..hidden", "starting with '..'"),
        ("/memories/\u0301x", "starts with a combining mark"),
        ("/memories/\U0001f3fbx", "starts with a combining mark"),  # a skin-tone modifier
        # Drawn blank or apart beside a letter: look-alikes of "reference" (an attacker's round, stop 50)
        ("/memories/reference\U0001d159/x", "look-alike or invisible character U+1D159"),
        ("/memories/ref\U0001f3fberence/x", "may only follow an emoji"),
        ("/memories/\u0701\u0701", "punctuation of another script"),  # Syriac full stops
        ("/memories/\u06d4\u06d4", "punctuation of another script"),  # Arabic full stops
        ("/memories/\u0589", "punctuation of another script"),  # the Armenian full stop
        ("/memories/r\u0435ference", "mixes letters of different scripts"),
        ("/memories/n\u043etes.md", "mixes letters of different scripts"),
        # A Cyrillic extension after a Latin name: "notes.ехе" beside "notes.exe".
        ("/memories/notes.\u0435\u0445\u0435", "mixes letters of different scripts"),
        ("/memories/report.\u041c\u043e\u0441\u043a\u0432\u0430.md", "mixes letters of different scripts"),
        # Cyrillic before Latin words: "е.notes.md" beside "e.notes.md", "сору.of.notes.md" beside "copy.of.notes.md"
        ("/memories/\u0435.notes.md", "mixes letters of different scripts"),
        ("/memories/\u0441\u043e\u0440\u0443.of.notes.md", "mixes letters of different scripts"),
        ("/memories/\u041c\u043e\u0441\u043a\u0432\u0430.backup.md", "mixes letters of different scripts"),
        ("/memories/a\x00b", "U+0000"),
        ("/memories/a\nb", "U+000A"),
        ("/memories/a\u200bb", "U+200B"),
        ("/memories/\u202egnp.exe", "U+202E"),
        ("/memories/cafe\u0301", "not in Unicode NFC form"),
        ("/memories/a\uff0fb", "compatibility characters"),
        ("/memories/\u2024\u2024/x", "compatibility characters"),
        ("/memories/\uff41", "compatibility characters"),
        ("/memories/a\u00a0b", "compatibility characters"),
        ("/memories/reference\u034f/x.md", "invisible character U+034F"),
        ("/memories/reference\ufe00/x.md", "invisible character U+FE00"),
        ("/memories/reference\U000e0100/x.md", "invisible character U+E0100"),
        ("/memories/reference\u4e3fpolicy.md", "reads as a slash or a dot"),
        ("/memories/reference\u30cepolicy.md", "reads as a slash or a dot"),
        ("/memories/policy\u3002md", "reads as a slash or a dot"),
        ("/memories/reference\u30ce\u30cepolicy.md", "reads as a slash or a dot"),
        ("/memories/reference\u4e3f\u30cepolicy.md", "reads as a slash or a dot"),
        ("/memories/reference-\u30ce-policy", "reads as a slash or a dot"),
        ("/memories/reference\u31c0policy.md", "reads as a slash or a dot"),
        ("/memories/john\u30fbsmith.md", "reads as a slash or a dot"),
        ("/memories/ref\u4e00policy.md", "reads as a Latin letter or a dash"),  # Han one, a dash
        ("/memories/he\u1175lo.md", "reads as a Latin letter or a dash"),  # Hangul jamo I, an l
        ("/memories/he\u1175\u1175o.md", "reads as a Latin letter or a dash"),  # jamo in a run
        ("/memories/r\u30edle.md", "reads as a Latin letter or a dash"),  # katakana ro, an o
        ("/memories/\u5de5nvoice.md", "reads as a Latin letter or a dash"),  # Han work, an I
        ("/memories/g\u3007\u3007gle.md", "reads as a Latin letter or a dash"),  # a run inside a Latin word
        ("/memories/b\u53e3\u53e3ks/a.md", "reads as a Latin letter or a dash"),
        ("/memories/r\u30ed\u30edm.md", "reads as a Latin letter or a dash"),
        ("/memories/l\u53e3g.md", "reads as a Latin letter or a dash"),  # Han mouth, an o
        ("/memories/log\u30fc.md", "reads as a Latin letter or a dash"),  # the long vowel mark, a dash
        ("/memories/ab\u3105c.md", "reads as a Latin letter or a dash"),  # Bopomofo b
        # Look-alikes inside one script, which mixed-script detection cannot see.
        ("/memories/r\u1d07ference", "U+1D07 is a phonetic letter"),  # a small capital E
        ("/memories/\u0280eference", "U+0280 is a phonetic letter"),  # a small capital R (IPA block)
        ("/memories/\u1d04\u1d0f\u1d05\u1d07", "U+1D04 is a phonetic letter"),  # small capitals only
        ("/memories/he\u01c0\u01c0o", "U+01C0 is a phonetic letter"),  # dental clicks, two l's
        ("/memories/\u0261it.md", "U+0261 is a phonetic letter"),  # the script g
        ("/memories/no\u0338tes", "combining mark U+0338 disguises"),  # an overlay on an ASCII o
        ("/memories/caf\u00e9\u0338", "combining mark U+0338 disguises"),  # an overlay on any letter
        ("/memories/\u0131\u0307nfo", "combining mark U+0307 disguises"),  # dotless i with a dot: i
        ("/memories/i\u0307nfo", "combining mark U+0307 disguises"),  # no letter i-dot-dot
        ("/memories/m\u0300.md", "combining mark U+0300 disguises"),  # a mark NFC composes with nothing
        ("/memories/re\u2010port", "U+2010 reads as a hyphen"),
        ("/memories/re\u2212port", "U+2212 reads as a hyphen"),  # the minus sign
        ("/memories/re\u02d7port", "U+02D7 reads as a hyphen"),  # the modifier letter minus
        ("/memories/re\u2796port", "U+2796 reads as a hyphen"),  # the heavy minus
        ("/memories/re\u2013port", "U+2013 reads as a hyphen"),  # the en dash
        ("/memories/re\u2e17port", "U+2E17 reads as a hyphen"),  # a dash of Latin script
        ("/memories/re\u301cport", "U+301C reads as a hyphen"),  # the CJK wave dash beside Latin letters
        # NFKC folds these three to '-' or U+2010: refused before any name is looked at.
        ("/memories/re\u2011port", "compatibility characters"),
        ("/memories/re\ufe63port", "compatibility characters"),
        ("/memories/re\uff0dport", "compatibility characters"),
        ("/memories/\u0455\u0441\u043e\u0440\u0435", "reads as a Latin name"),  # Cyrillic "scope"
        ("/memories/\u0455\u0441\u043e\u0440\u0435.md", "reads as a Latin name"),  # with an extension
        ("/memories/\u0455\u0441\u043e\u0301\u0440\u0435", "reads as a Latin name"),  # "scópe"
        ("/memories/\u0410\u0412\u0415", "reads as a Latin name"),  # Cyrillic capitals "ABE"
        ("/memories/\u039a\u0391\u0399", "reads as a Latin name"),  # Greek capitals "KAI"
        ("/memories/\u03bf\u03c1\u03b1", "reads as a Latin name"),  # Greek "opa"
        ("/memories/\u0585\u0570", "reads as a Latin name"),  # Armenian "oh"
        ("/memories/\u13aa\u13a2", "reads as a Latin name"),  # Cherokee "AT"
        ("/memories/a\u200cb.md", "U+200C"),
        ("/memories/reference\u200d/x.md", "U+200D"),
        ("/memories/\u200c\u0645\u06cc.md", "U+200C"),
        ("/memories/ x", "white space"),
        ("/memories/x ", "white space"),
        ("/memories/" + "s" * 256, f"longer than {MAX_SEGMENT_BYTES} bytes"),
        ("/memories/" + "/".join(["s" * 200] * 6), f"longer than {MAX_PATH_BYTES} bytes"),
    ],
)
def test_refusal_names_the_reason(path: str, reason: str) -> None:
    assert reason in refusal(path)


@pytest.mark.parametrize(
    "path",
    [
        "/memories/ノート.md",
        "/memories/\u041c\u043e\u0441\u043a\u0432\u0430.md",  # Moscow in Cyrillic, with ASCII extensions
        "/memories/\u043e\u0442\u0447\u0451\u0442.2024.md",
        "/memories/メモノ.md",
        "/memories/報告。md",
        "/memories/東京/議事録.md",
        "/memories/한.md",
        "/memories/ジョン・スミス.md",
        "/memories/Python入門.md",  # Latin beside Han and kana words, look-alikes among them
        "/memories/エラーlog.md",
        "/memories/Pythonノート.md",
        "/memories/ハローworld.md",
        "/memories/PlayStationソニー.md",  # a run of look-alikes at the edge of a Latin name is a word
        "/memories/data人口.md",
        "/memories/メモ一覧abc.md",
        "/memories/一覧.md",
        "/memories/第2工場.md",
        "/memories/Tシャツ.md",
        "/memories/A型.md",
        "/memories/kim이름.md",
        "/memories/\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.md",  # Persian: ZWNJ is spelling
        # Cyrillic and Greek names with letters of their own: nothing Latin to read them as.
        "/memories/\u041c\u043e\u0441\u043a\u0432\u0430/\u0437\u0430\u043c\u0435\u0442\u043a\u0438.md",
        "/memories/\u041f\u0440\u0438\u0432\u0435\u0442",
        "/memories/\u0434\u0430\u043d\u043d\u044b\u0435",
        "/memories/\u043a\u043e\u0442.md",  # "кот": к is a small-capital shape, not a k
        "/memories/\u043c\u043e\u0440\u0435",  # "море": м is not an m
        "/memories/\u0391\u03b8\u03ae\u03bd\u03b1.md",
        "/memories/\u03c0\u03c1\u03cc\u03b3\u03c1\u03b1\u03bc\u03bc\u03b1",
        "/memories/\u03ba\u03b1\u03b9",  # "και": κ is a small-capital shape
        "/memories/\u10e1\u10d0\u10ee\u10da\u10d8.md",  # Georgian
        "/memories/\u0540\u0561\u0575\u0561\u057d\u057f\u0561\u0576.md",  # Armenian
        # Marks that spell: on letters that are not ASCII, stress in Russian, tones in Yoruba and Vietnamese.
        "/memories/\u1eb9\u0301k\u1ecd\u0301.md",
        "/memories/\u043c\u043e\u0301\u0440\u0435.md",
        "/memories/ti\u1ebfng-vi\u1ec7t.md",
        "/memories/\u0131l\u0131k.md",  # Turkish dotless i, with no mark on it
        # Script-owned hyphens in their script, the CJK wave dash in CJK text.
        "/memories/\u05d1\u05d9\u05ea\u05be\u05e1\u05e4\u05e8.md",  # the Hebrew maqaf
        "/memories/1\u6708\u301c3\u6708.md",
        "/memories/\u30e1\u30e2\u301c\u30ce\u30fc\u30c8",
        "/memories/\u0dc1\u0dca\u200d\u0dbb\u0dd3.md",  # Sinhala: ZWJ is spelling
    ],
)
def test_names_whose_script_needs_these_characters_still_work(path: str) -> None:
    assert canonical(path) == path


@pytest.mark.parametrize("value", [None, 5, b"/memories/x", ["/memories/x"]])
def test_non_string_paths_are_refused(value: object) -> None:
    assert "must be a string" in refusal(value)


@pytest.mark.parametrize(
    "path, secret",
    [
        ("/memories/" + "x" * 300, "x" * 20),
        ("memories/jane.doe@example.com.md", "jane.doe"),
        ("/memoriesX/jane.doe@example.com.md", "jane.doe"),
        ("/memories/ jane.doe@example.com", "jane.doe"),
        ("/memories/../jane.doe@example.com", "jane.doe"),
        # Look-alike refusals name a code point, never the name nor its Latin reading.
        ("/memories/jane.d\u1d0fe@example.com", "jane"),
        ("/memories/jane\u2010doe@example.com", "jane"),
        ("/memories/jane\u0338doe@example.com", "jane"),
        ("/memories/\u0455\u0441\u043e\u0440\u0435", "\u0455\u0441\u043e"),
        ("/memories/\u0455\u0441\u043e\u0440\u0435", "scope"),
    ],
)
def test_refused_paths_are_never_quoted_back(path: str, secret: str) -> None:
    # The guard runs before the PII layer: quoting a refused path could put PII in a message.
    message = refusal(path)
    assert message.startswith("Error: Invalid path:") and secret not in message


# -- byte limits, measured in UTF-8 bytes -------------------------------------------------------


def name_of_bytes(size: int, char: str) -> str:
    """A name of exactly ``size`` UTF-8 bytes made of ``char`` (padded with ASCII to the size)."""
    width = len(char.encode())
    return char * (size // width) + "a" * (size % width)


@pytest.mark.parametrize("char", ["a", "é", "日", "\U0001f600"])
def test_segment_limit_is_255_bytes(char: str) -> None:
    fits, over = name_of_bytes(255, char), name_of_bytes(256, char)
    assert len(fits.encode()) == 255 and len(over.encode()) == 256
    assert canonical(f"/memories/{fits}") == f"/memories/{fits}"
    assert canonical(f"/memories/{fits}/x") == f"/memories/{fits}/x"
    assert "longer than 255 bytes" in refusal(f"/memories/{over}")
    assert "longer than 255 bytes" in refusal(f"/memories/{over}/x")
    if char != "a":  # bytes, not characters: 128 characters of a multi-byte letter are over 255 bytes
        assert "longer than 255 bytes" in refusal(f"/memories/{char * 128}")


def path_of_bytes(size: int, char: str) -> str:
    """A path of exactly ``size`` UTF-8 bytes whose names are each at most 255 bytes."""
    names, left = [], size - len("/memories")
    while left > 0:
        take = min(MAX_SEGMENT_BYTES, left - 1)
        names.append(name_of_bytes(take, char))
        left -= take + 1
    return "/memories/" + "/".join(names)


@pytest.mark.parametrize("char", ["a", "é", "日", "\U0001f600"])
def test_path_limit_is_1024_bytes(char: str) -> None:
    fits, over = path_of_bytes(1024, char), path_of_bytes(1025, char)
    assert len(fits.encode()) == 1024 and len(over.encode()) == 1025
    assert canonical(fits) == fits
    assert "longer than 1024 bytes" in refusal(over)


def test_path_limit_applies_to_the_path_as_sent() -> None:
    # Slashes that canonicalisation would drop still count: the limit is on untrusted input.
    assert "longer than 1024 bytes" in refusal("/memories/a" + "/" * 1014)
    assert canonical("/memories/a" + "/" * 1013) == "/memories/a"


def test_exactly_1024_bytes_works_through_create_and_view(mem: SecureMemory) -> None:
    path = path_of_bytes(1024, "日")
    assert not mem.execute({"command": "create", "path": path, "file_text": "deep"}).is_error
    view = mem.execute({"command": "view", "path": path})
    assert not view.is_error and "     1\tdeep" in view.text


# -- the pure helpers --------------------------------------------------------------------------


def test_path_helpers() -> None:
    assert parent_of("/memories/a/b") == "/memories/a" and parent_of("/memories/a") == ROOT
    assert name_of("/memories/a/b.md") == "b.md"
    assert ancestors("/memories/a/b/c") == ["/memories", "/memories/a", "/memories/a/b"]
    assert ancestors("/memories") == []
    assert is_within("/memories/a/b", "/memories/a") and is_within("/memories/a", "/memories/a")
    assert not is_within("/memories/ab", "/memories/a")
    assert not is_within("/memories/a-b/c", "/memories/a")


def test_a_whole_script_look_alike_reads_as_its_latin_twin() -> None:
    assert latin_twin("\u0455\u0441\u043e\u0440\u0435") == "scope"
    assert latin_twin("\u0455\u0441\u043e\u0440\u0435-2.md") == "scope-2.md"
    assert latin_twin("\u0451\u043e") == "eo"  # "ёо": the mark of ё is set aside
    for name in ["notes", "\u041c\u043e\u0441\u043a\u0432\u0430", "\u0391\u03b8\u03ae\u03bd\u03b1", "\U0001f600.md"]:
        assert latin_twin(name) is None


# Every dash, and the signs drawn as one (U+2010 was accepted while U+2011 was refused).
DASHES = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Pd" and c != ord("-")]


@pytest.mark.parametrize("dash", [*DASHES, "\u2212", "\u02d7", "\u2796", "\u2043"], ids=lambda c: f"U+{ord(c):04X}")
def test_no_dash_but_the_ascii_hyphen_joins_latin_words(dash: str) -> None:
    assert refusal(f"/memories/re{dash}port").startswith(INVALID)


# -- properties --------------------------------------------------------------------------------

TRICKY = st.sampled_from(
    [
        "/",
        "/",
        "//",
        ".",
        "..",
        "%2e",
        "%2F",
        "%",
        "\\",
        "\x00",
        "\n",
        " ",
        "\u00a0",
        "\u200b",
        "\u202e",
        "\uff0f",
        "\u2024",
        "\u0301",
        "e\u0301",
        "memories",
        "a",
        "é",
        "日",
        "\U0001f600",
        "node_modules",
        ".h",
        "~",
        "\ud800",
    ]
)
PATHS = st.one_of(
    st.text(),
    st.lists(st.one_of(TRICKY, st.text(max_size=4)), max_size=12).map("".join),
    st.lists(st.one_of(TRICKY, st.text(max_size=4)), max_size=12).map(lambda parts: "/memories/" + "".join(parts)),
    st.lists(st.one_of(TRICKY, st.text(min_size=1, max_size=6)), max_size=8).map(
        lambda parts: "/memories/" + "/".join(parts)
    ),
)


@settings(max_examples=400, deadline=None)
@given(PATHS)
def test_accepted_paths_are_canonical_and_inside_the_root(path: str) -> None:
    try:
        result = canonical(path)
    except InvalidPath as exc:
        assert str(exc).startswith(INVALID)
        return
    assert result == ROOT or result.startswith(ROOT + "/")
    segments = result.split("/")[1:]
    assert all(segment not in ("", ".", "..") for segment in segments)
    assert "\\" not in result and not re.search("%[0-9A-Fa-f]{2}", result)
    assert canonical(result) == result
    assert len(result.encode("utf-8")) <= MAX_PATH_BYTES
    # Canonicalising only drops slashes: the names are exactly those that were sent.
    assert segments == [s for s in path.split("/") if s]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=PATHS, kind=st.sampled_from(COMMANDS))
def test_execute_never_raises_for_any_path(mem: SecureMemory, path: str, kind: str) -> None:
    result = mem.execute(command(kind, path))
    assert isinstance(result.is_error, bool)
    try:
        canonical(path)
    except InvalidPath:
        assert result.is_error and result.text.startswith(INVALID)


NAMES = st.text(alphabet=st.characters(blacklist_characters="/"), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, slashes=st.lists(st.integers(1, 3), min_size=3, max_size=3))
def test_every_spelling_of_an_accepted_path_names_one_entry(mem: SecureMemory, name: str, slashes: list[int]) -> None:
    a, b, c = ("/" * n for n in slashes)
    spelled = f"{a}memories{b}d{c}{name}{c}"
    try:
        path = canonical(spelled)
    except InvalidPath:
        return
    assert path == f"/memories/d/{name}"
    target = mem.in_namespace("spelling")
    target.execute({"command": "delete", "path": "/memories/d"})
    created = target.execute({"command": "create", "path": spelled, "file_text": "x"})
    if c:  # written as a directory's name: no file is made under it (the rest of the spelling counts)
        assert created.is_error and "names a directory" in created.text
        created = target.execute({"command": "create", "path": spelled.rstrip("/"), "file_text": "x"})
    assert created.content == f"File created successfully at: {path}"
    assert target.execute({"command": "view", "path": path}).text.endswith("     1\tx")
    listing = target.execute({"command": "view", "path": "/memories/d"}).text
    assert (f"1B\t{path}" in listing.splitlines()) != (name.startswith(".") or name == "node_modules")


# -- through execute, for every command ----------------------------------------------------------


@pytest.mark.parametrize("kind", COMMANDS)
def test_refused_paths_are_refused_by_every_command(mem: SecureMemory, snapshot: Callable[..., Any], kind: str) -> None:
    seed(mem)
    before = snapshot(mem)
    for vector in REFUSED:
        result = mem.execute(command(kind, vector["path"]))
        assert result.is_error, (kind, vector["path"])
        assert result.text.startswith(INVALID), (kind, vector["path"], result.text)
    assert snapshot(mem) == before


@pytest.mark.parametrize("vector", [v for v in ACCEPTED if v["canonical"] != ROOT], ids=vector_id)
def test_accepted_spellings_work_for_every_command(mem: SecureMemory, vector: dict[str, Any]) -> None:
    raw, path = vector["path"], vector["canonical"]

    def run(tool_input: dict[str, Any]) -> str:
        result = mem.execute(tool_input)
        assert not result.is_error, (tool_input, result.content)
        return result.text

    names_a_directory = raw.endswith("/")  # a file cannot be created or moved under such a spelling
    if names_a_directory:
        refused = mem.execute(command("create", raw))
        assert refused.is_error and refused.text.startswith(INVALID)
    assert run(command("create", path if names_a_directory else raw)) == f"File created successfully at: {path}"
    assert run(command("view", raw)) == f"Here's the content of {path} with line numbers:\n     1\tnew"
    run({"command": "str_replace", "path": raw, "old_str": "new", "new_str": "edited"})
    assert run(command("insert", raw)) == f"The file {path} has been edited."
    assert run(command("view", path)).endswith("     1\ttop\n     2\tedited")
    assert run(command("rename_old", raw)) == f"Successfully renamed {path} to /memories/moved.md"
    if names_a_directory:
        refused = mem.execute(command("rename_new", raw, other="/memories/moved.md"))
        assert refused.is_error and refused.text.startswith(INVALID)
    assert (
        run(command("rename_new", path if names_a_directory else raw, other="/memories/moved.md"))
        == f"Successfully renamed /memories/moved.md to {path}"
    )
    assert run(command("delete", raw)) == f"Successfully deleted {path}"
    missing = mem.execute(command("view", raw))
    assert missing.is_error and missing.text == f"The path {path} does not exist. Please provide a valid path."


@pytest.mark.parametrize("spelling", ROOT_SPELLINGS)
@pytest.mark.parametrize("kind", MUTATIONS)
def test_the_root_is_never_mutated_in_any_spelling(
    mem: SecureMemory, snapshot: Callable[..., Any], kind: str, spelling: str
) -> None:
    seed(mem)
    before = snapshot(mem)
    result = mem.execute(command(kind, spelling))
    assert result.is_error
    if kind == "rename_new":  # a move onto the root: the destination exists (the reference answer)
        assert result.text == "Error: The destination /memories already exists"
    else:
        assert result.text.startswith("Error: The /memories directory itself cannot be ")
    assert snapshot(mem) == before


@pytest.mark.parametrize("spelling", ROOT_SPELLINGS)
def test_the_root_can_be_viewed_in_any_spelling(mem: SecureMemory, spelling: str) -> None:
    seed(mem)
    result = mem.execute(command("view", spelling))
    assert not result.is_error
    assert result.text.splitlines()[0] == (
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:"
    )
    assert "\t/memories/keep.md" in result.text


@pytest.mark.parametrize("kind", COMMANDS)
def test_the_root_dot_spelling_is_an_invalid_path(mem: SecureMemory, kind: str) -> None:
    result = mem.execute(command(kind, "/memories/."))
    assert result.is_error and result.text.startswith(INVALID)


def test_traversal_cannot_reach_another_namespace_or_outside(mem: SecureMemory) -> None:
    other = mem.in_namespace("other")
    assert not other.execute({"command": "create", "path": "/memories/secret", "file_text": "s"}).is_error
    for path in [
        "/memories/../other/memories/secret",
        "/memories/%2e%2e/secret",
        "/other/memories/secret",
        "/memories/..\\secret",
        "/memories\uff0f..\uff0fsecret",
    ]:
        result = mem.execute({"command": "view", "path": path})
        assert result.is_error and result.text.startswith(INVALID)
    assert mem.execute({"command": "view", "path": "/memories/secret"}).is_error


def test_a_path_ending_in_a_slash_names_a_directory(mem: SecureMemory, snapshot: Callable[..., Any]) -> None:
    """create makes no file under a name written as a directory's, and rename moves no file to one;
    a directory may be renamed with either spelling, and the other commands read the slash as noise."""
    seed(mem)
    before = snapshot(mem)
    for tool_input in [
        command("create", "/memories/notes/"),
        command("create", "/memories/dir/inner.md/"),
        command("create", "/memories/new//"),
        command("rename_new", "/memories/archive/", other="/memories/keep.md"),
    ]:
        result = mem.execute(tool_input)
        assert result.is_error and result.text.startswith(INVALID), (tool_input, result.text)
        assert "names a directory" in result.text
    onto = mem.execute(command("rename_new", "/memories/dir/", other="/memories/keep.md"))
    assert onto.text == "Error: The destination /memories/dir already exists"  # the reference answer first
    assert snapshot(mem) == before
    moved = mem.execute({"command": "rename", "old_path": "/memories/dir/", "new_path": "/memories/moved/"})
    assert moved.text == "Successfully renamed /memories/dir to /memories/moved"
    assert mem.execute(command("view", "/memories/keep.md/")).text.endswith("     1\tkeep me")


def test_messages_name_the_canonical_path(mem: SecureMemory) -> None:
    result = mem.execute({"command": "delete", "path": "/memories//nope///"})
    assert result.text == "Error: The path /memories/nope does not exist"


def test_no_ascii_character_is_a_lookalike_the_ascii_names_skip() -> None:
    """An ASCII name is not checked for separator or letter look-alikes: every such character is of
    another script, so the checks could only pass it."""
    assert not any(char.isascii() for char in _LOOKALIKES | _SEPARATOR_LOOKALIKES)
    every_ascii = "".join(chr(code) for code in range(32, 127))
    assert separator_lookalike(every_ascii) is None
    assert letter_lookalike(every_ascii) is None


@pytest.mark.parametrize("path", ["/memories/notes\U0001f525.md", "/memories/\U0001f44d\U0001f3fb.md"])
def test_emoji_and_a_skin_tone_after_an_emoji_stay_allowed(path: str) -> None:
    assert canonical(path) == path
