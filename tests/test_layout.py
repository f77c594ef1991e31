"""The package layout: imports run one way, from the front ends down to the language.

Each package of unodsl says in its `__init__` docstring which other packages it may import
("May import: unodsl.compile, unodsl.lang."); this test reads those lines and checks every
import of every module against them, so the documentation and the code cannot drift apart.
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "unodsl"


def _packages() -> dict[str, set[str]]:
    """Each subpackage of unodsl -> the subpackages its docstring allows it to import."""
    allowed = {}
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        name = init.parent.name
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        line = re.search(r"May import: (.*)", doc.replace("\n", " "))
        assert line, f"unodsl/{name}/__init__.py does not say what it may import"
        words = line.group(1)
        if words.startswith("every other package"):
            allowed[name] = {"*"}
        elif words.startswith("nothing else"):
            allowed[name] = set()
        else:
            allowed[name] = set(re.findall(r"unodsl\.(\w+)", words))
    return allowed


def _imports(path: Path) -> set[str]:
    """The unodsl subpackages a module imports (relative or absolute, at any depth)."""
    rel = path.relative_to(PACKAGE)
    here = list(rel.parent.parts)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                target = base + (node.module.split(".") if node.module else [])
                if not target:          # `from .. import x` at the top: x is the subpackage
                    target = [a.name for a in node.names]
                    found.update(t for t in target if (PACKAGE / t).is_dir())
                    continue
                found.add(target[0])
            elif node.module and node.module.startswith("unodsl."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("unodsl."):
                    found.add(a.name.split(".")[1])
    return {f for f in found if (PACKAGE / f).is_dir()}


def test_every_package_says_what_it_may_import():
    packages = _packages()
    assert {"lang", "compile", "engine", "sheets", "sim", "front"} <= set(packages)


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if len(p.relative_to(PACKAGE).parts) > 1),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_one_way(path):
    allowed = _packages()
    package = path.relative_to(PACKAGE).parts[0]
    wrong = {p for p in _imports(path) - {package} if "*" not in allowed[package] and p not in allowed[package]}
    assert not wrong, (f"unodsl/{path.relative_to(PACKAGE)} imports unodsl.{', unodsl.'.join(sorted(wrong))}, "
                       f"which unodsl/{package} may not import")


def test_the_layers_have_no_cycle():
    allowed = _packages()
    order = []
    pending = dict(allowed)
    while pending:
        ready = [p for p, deps in pending.items() if "*" in deps or not (deps & set(pending) - {p})]
        ready = [p for p in ready if "*" not in pending[p]] or ready
        assert ready, f"the packages' allowed imports form a cycle: {pending}"
        for p in ready:
            order.append(p)
            del pending[p]
    assert order.index("lang") < order.index("compile") < order.index("engine") < order.index("front")


def test_checking_rules_does_not_load_the_engine():
    """`unodsl check` imports the language and the compiler only: it starts fast."""
    code = ("import sys; from unodsl.front.cli import main; main(['check', 'classic']); "
            "print(sorted(m for m in sys.modules if m.startswith('unodsl.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.strip().splitlines()[-1]
    assert "unodsl.engine" not in loaded and "unodsl.compile.codegen" not in loaded, loaded
    assert "unodsl.compile.loader" in loaded


def test_every_package_is_installed():
    """pyproject.toml lists the packages a wheel holds: a package missing there breaks installs."""
    tomllib = pytest.importorskip("tomllib")
    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(("unodsl",) + p.parent.relative_to(PACKAGE).parts) for p in PACKAGE.rglob("__init__.py")}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
