"""The bundled rules files, parsed once and kept on disk between runs.

Every load reads every bundled file (a name may be any bundled ruleset or module, and `extends`
or `uses` may reach any of them), and parsing them was half of a command's start. Their syntax
trees and diagnostics are therefore kept in one pickle in the cache folder (`lang.cache`), named
by a hash of everything a tree depends on: the files' names and texts, the grammar, the code of
this package (the tree's classes and the parser that builds them), and the Lark and Python
versions. Any change of any of them names another file, so a stale tree is never read; a file
that cannot be read back is parsed again, and only one bundle is kept.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from .cache import cache_dir
from .resources import grammar_text

PREFIX = "bundled-"


def _key(sources: list) -> str:
    import lark
    h = hashlib.sha256()
    h.update(f"{lark.__version__} {sys.version_info[:3]}\0".encode())
    h.update(grammar_text().encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    for source in sources:
        h.update(f"\0{source.name}\0{source.text}".encode())
    return h.hexdigest()[:32]


def _path(sources: list) -> Path | None:
    folder = cache_dir("parsed")
    return folder / f"{PREFIX}{_key(sources)}.pickle" if folder is not None else None


def load(sources: list) -> dict | None:
    """{source name: (tree, diagnostics)} for these sources as stored by `store`, or None."""
    path = _path(sources)
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            found = pickle.load(f)
    except Exception:            # a truncated or foreign file: parse again, and write it anew
        return None
    if not isinstance(found, dict) or set(found) != {s.name for s in sources}:
        return None
    return found


def store(sources: list, parsed: dict) -> None:
    """Keep the parsed sources for the next run (atomically; older bundles are removed)."""
    path = _path(sources)
    if path is None:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as f:
            pickle.dump(parsed, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        for old in path.parent.glob(PREFIX + "*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        tmp.unlink(missing_ok=True)
