"""Far calls: the big functions a ruleset's native module calls, called through their addresses.

numba links into each compiled function's machine code every function it calls, and optimises
and emits the whole again: a function's code is worked on once for itself and once more in every
function above it in the call graph. A ruleset's module is a deep graph (the games, a round, an
offer out of turn, a play, what a play calls, the runtime's primitives ...), so most of a first
compile went to working on the same code four or five times. A far call (`runtime.far`) calls a
function through the address of its machine code, kept in the game's memory (the region `far`,
filled by the engine as it sets a game up): the caller is compiled without its callee, and each
far function once.

`split(source)` rewrites a module's text: the module's calls of every function (the module's own
or the runtime's) whose code, with all it links, comes to more than `FAR_LINES` lines become far
calls, when every argument but the game's memory is a number: a far function is compiled for
int64 arguments, so that the engine can ask for its machine code without compiling its callers.
The small ones stay ordinary calls, which LLVM inlines into their callers and a far call rules
out; so do the runtime's calls of its own functions.
"""
from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from .lower import int64_cast

FAR_LINES = 60      # a function whose code, with all it links, is longer is called far
RUNTIME = "R"       # the name a module imports the runtime as


class Function(NamedTuple):
    """What the split needs of one compiled function."""
    node: ast.FunctionDef
    lines: int              # its own lines
    inlined: bool           # numba inlines it into its callers
    calls: frozenset        # the compiled functions it calls (the runtime's as "R.name")
    arrays: frozenset       # the places of its parameters that are, or may be, arrays


def split(source: str) -> str:
    """The module's text with far calls, and `FAR`: the far functions as (name, number of
    parameters) in the order their addresses lie in the region `far`, the runtime's as "R.name"."""
    graph = call_graph(source)
    module = {name: f for name, f in graph.items() if not name.startswith(RUNTIME + ".")}

    @lru_cache(maxsize=None)
    def body(name: str) -> tuple[int, frozenset]:
        """Lines compiled as `name` (its own and those numba inlines into it) and the functions
        it links."""
        f = graph[name]
        lines, linked = f.lines, set()
        for callee in f.calls:
            if graph[callee].inlined:
                more, theirs = body(callee)
                lines += more
                linked |= theirs
            else:
                linked.add(callee)
        return lines, frozenset(linked)

    @lru_cache(maxsize=None)
    def reach(name: str) -> frozenset:
        """Every function a call of `name` may come to, through any calls."""
        seen, todo = set(), list(graph[name].calls)
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo.extend(graph[f].calls)
        return frozenset(seen)

    def library(name: str) -> int:
        seen, todo, total = set(), [name], 0
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                lines, linked = body(f)
                total += lines
                todo.extend(linked)
        return total

    called = {callee for name, f in module.items() for callee in f.calls if callee != name}
    far = sorted(name for name in called if _callable_far(graph[name]) and library(name) > FAR_LINES)
    if not far:
        return source
    rewrite = _FarCalls({name: i for i, name in enumerate(far)})
    lines = source.splitlines()
    for name, f in sorted(module.items(), key=lambda item: item[1].node.lineno, reverse=True):
        # a call round a circle back to its caller (a play that plays another card) stays an
        # ordinary one: numba types it as the recursion it is
        rewrite.kept = {callee for callee in rewrite.slot if callee == name or name in reach(callee)}
        if f.calls & rewrite.slot.keys():
            head = f.node.lineno - 1              # the function again, its decorators kept as written
            rewrite.visit(f.node)
            f.node.decorator_list = []
            lines[head:f.node.end_lineno] = ast.unparse(ast.fix_missing_locations(f.node)).splitlines()
    listed = tuple((name, len(graph[name].node.args.args)) for name in far)
    return "\n".join(lines) + f"\n\nFAR = {listed!r}\n"


def call_graph(source: str) -> dict:
    """The compiled functions of a module's text and of the runtime, by name (the runtime's as
    "R.name"): what each calls in the ordinary way, and its lines."""
    runtime = _runtime()
    module = _functions(ast.parse(source), _module_callee, known={name: f.arrays for name, f in runtime.items()})
    return {**runtime, **module}


def far_targets(node: ast.FunctionDef) -> set:
    """The functions a compiled function calls far (`R.far(f, ...)`), as FAR names them."""
    return {ast.unparse(call.args[0]) for call in ast.walk(node)
            if isinstance(call, ast.Call) and _module_callee(call) == f"{RUNTIME}.far"}


def _callable_far(f: Function) -> bool:
    a = f.node.args
    return (not f.inlined and not f.arrays and bool(a.args) and a.args[0].arg == "g"
            and not (a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs))


@lru_cache(maxsize=1)
def _runtime() -> dict:
    """The runtime's compiled functions, as "R.name" (none of them is inlined)."""
    tree = ast.parse(Path(__file__).with_name("runtime.py").read_text(encoding="utf-8"))
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}

    def qualify(call: ast.Call):
        return f"{RUNTIME}.{call.func.id}" if isinstance(call.func, ast.Name) and call.func.id in names else None
    return _functions(tree, qualify, prefix=RUNTIME + ".")


def _module_callee(call: ast.Call):
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == RUNTIME:
        return f"{RUNTIME}.{f.attr}"
    return None


def _functions(tree: ast.Module, qualify, prefix: str = "", known: dict | None = None) -> dict:
    """The compiled functions of a module's text, by (qualified) name; `known`: the array
    parameters of the functions it calls elsewhere (the runtime's)."""
    defs = {prefix + node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)
            and any("njit" in ast.unparse(d) for d in node.decorator_list)}
    calls = {}
    for name, node in defs.items():
        named = {qualify(n) for n in ast.walk(node) if isinstance(n, ast.Call)}
        calls[name] = frozenset(c for c in named if c is not None and (c in defs or c in (known or {})))
    arrays = _array_parameters(defs, qualify, known or {})
    return {name: Function(node, node.end_lineno - node.lineno,
                           any("inline" in ast.unparse(d) for d in node.decorator_list),
                           calls[name], frozenset(arrays[name])) for name, node in defs.items()}


def _array_parameters(defs: dict, qualify, known: dict) -> dict:
    """For each function, the places of its parameters (but the first) that are, or may be,
    arrays: indexed, sliced, measured or looped over, or handed on to a function whose parameter
    in that place is one."""
    marked = {name: set() for name in defs}
    for name, node in defs.items():
        params = [a.arg for a in node.args.args]
        for n in ast.walk(node):
            used = None
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
                used = n.value.id
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr in ("shape", "size"):
                used = n.value.id
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and n.args
                  and isinstance(n.args[0], ast.Name)):
                used = n.args[0].id
            elif isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.iter, ast.Name):
                used = n.iter.id
            if used in params[1:]:
                marked[name].add(params.index(used))
    changed = True
    while changed:
        changed = False
        for name, node in defs.items():
            params = [a.arg for a in node.args.args]
            for n in ast.walk(node):
                callee = qualify(n) if isinstance(n, ast.Call) else None
                places = marked.get(callee, known.get(callee, set())) if callee else set()
                for place, arg in enumerate(n.args if places else ()):
                    if (place in places and isinstance(arg, ast.Name) and arg.id in params[1:]
                            and params.index(arg.id) not in marked[name]):
                        marked[name].add(params.index(arg.id))
                        changed = True
    return marked


class _FarCalls(ast.NodeTransformer):
    """`f(g, a, b)` (or `R.f(g, a, b)`) of a far function becomes
    `R.far(f, g[O_FAR + k], g, (a, b))`; where the call stays an ordinary one (`kept`), its
    numbers go as int64, `f(g, np.int64(a), np.int64(b))`, so that numba compiles f once, for
    the types a far call hands it."""

    def __init__(self, slot: dict):
        self.slot = slot
        self.kept = set()       # far functions whose calls stay ordinary in the function at hand

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        name = _module_callee(node)
        if not (name in self.slot and not node.keywords and node.args and isinstance(node.args[0], ast.Name)
                and node.args[0].id == "g" and not any(isinstance(a, ast.Starred) for a in node.args)):
            return node
        if name in self.kept:
            node.args[1:] = [int64_cast(a) for a in node.args[1:]]
            return node
        address = ast.Subscript(ast.Name("g", ast.Load()),
                                ast.BinOp(ast.Name("O_FAR", ast.Load()), ast.Add(), ast.Constant(self.slot[name])),
                                ast.Load())
        return ast.Call(ast.Attribute(ast.Name(RUNTIME, ast.Load()), "far", ast.Load()),
                        [node.func, address, ast.Name("g", ast.Load()), ast.Tuple(node.args[1:], ast.Load())], [])
