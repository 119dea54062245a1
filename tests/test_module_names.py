"""No module of the package binds one name twice at module level by accident: a later definition silently wins, and
the first one's readers read the second (twice in stop 59 a new pattern shadowed an older one of the same name in
securemem/pii/secrets.py, and the older one's readers changed meaning). A name may be declared, then bound
(``_HINTS: tuple[str, ...]`` then ``_HINTS = ...``), or bound again from itself (``_HINTS = tuple(... _HINTS ...)``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "securemem"


def _bindings(tree: ast.Module) -> list[tuple[str, int, ast.AST | None]]:
    """(name, line, value) of each module-level binding; value None for a bare annotation."""
    found: list[tuple[str, int, ast.AST | None]] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            found += [(target.id, node.lineno, node.value) for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append((node.target.id, node.lineno, node.value))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            _named(decorator, "overload") for decorator in node.decorator_list
        ):
            found.append((node.name, node.lineno, None))  # a typing overload declares the function defined after it
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.name, node.lineno, node))
    return found


def _named(node: ast.AST, name: str) -> bool:
    """``node`` is ``name`` or ``<module>.name`` (a decorator as written)."""
    return (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)


def _refers_to(value: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(value))


def shadowed(source: str) -> list[str]:
    seen: dict[str, int] = {}
    problems = []
    for name, line, value in _bindings(ast.parse(source)):
        if value is None or name.startswith("__"):
            continue
        if name in seen and not _refers_to(value, name):
            problems.append(f"{name} (line {seen[name]}, again at line {line})")
        seen[name] = line
    return problems


def test_no_module_binds_a_name_twice() -> None:
    found = {
        str(path.relative_to(PACKAGE.parent)): problems
        for path in sorted(PACKAGE.rglob("*.py"))
        if (problems := shadowed(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_check_sees_a_shadowed_name_and_lets_a_refinement_pass() -> None:
    assert shadowed("_A = 1\n_B = 2\n_A = 3\n") == ["_A (line 1, again at line 3)"]
    assert shadowed("def f(): pass\nf = 2\n") == ["f (line 1, again at line 2)"]
    assert shadowed("_H: tuple[str, ...]\n_H = ('a',)\n_H = tuple(h.upper() for h in _H)\n") == []
    # typing overloads declare the function defined after them; a second definition of it is still caught
    overloads = "@overload\ndef f(x: int) -> int: ...\n@typing.overload\ndef f(x: str) -> str: ...\ndef f(x): ...\n"
    assert shadowed(overloads) == []
    assert shadowed(overloads + "def f(x): return 2\n") == ["f (line 5, again at line 6)"]
