"""Rules files, parsed once and kept on disk between runs.

Parsing a rules file is a good part of a command's start (about 0.2 s for a ruleset the size of
classic, the parser's tables loaded), and most commands read files that have not changed since the
last one. Their syntax trees and diagnostics are therefore kept as
pickles in the cache folder (`lang.cache`), each named by a hash of everything a tree depends on:
the files' names and texts, the grammar, the code of this package (the tree's classes and the
parser that builds them), and the Lark and Python versions. Any change of any of them names another
file, so a stale tree is never read; a file that cannot be read back is parsed again.

Two kinds are kept:

- `bundled`: every bundled file, in one pickle, since every load reads them all (a name may be
  any bundled ruleset or module, and `extends` or `uses` may reach any of them). Only the latest
  bundle is kept.
- `file`: a rules file a command read from disk by its path, one pickle each. The 64 most
  recently read are kept (KEPT) and older ones removed, so that a folder of drafts cannot fill
  the disk.

Texts an editor holds are not read from disk and never kept: each keystroke would write one.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from .cache import cache_dir
from .resources import grammar_text

KEPT = {"bundled": 1, "file": 64}       # kind -> how many pickles of that kind are kept


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


def _path(sources: list, kind: str) -> Path | None:
    folder = cache_dir("parsed")
    return folder / f"{kind}-{_key(sources)}.pickle" if folder is not None else None


def load(sources: list, kind: str = "bundled") -> dict | None:
    """{source name: (tree, diagnostics)} for these sources as stored by `store`, or None."""
    path = _path(sources, kind)
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as f:
            found = pickle.load(f)
        os.utime(path)                # recently used: removed last
    except Exception:            # a truncated or foreign file: parse again, and write it anew
        return None
    if not isinstance(found, dict) or set(found) != {s.name for s in sources}:
        return None
    return found


def store(sources: list, parsed: dict, kind: str = "bundled") -> None:
    """Keep the parsed sources for the next run (atomically), then remove the least recently used
    pickles of the kind beyond the number kept (KEPT)."""
    path = _path(sources, kind)
    if path is None:
        return
    try:
        data = pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)
    except (RecursionError, pickle.PicklingError):     # a tree too deep to pickle: parsed every run
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
        _forget_old(path, kind)
    except OSError:
        tmp.unlink(missing_ok=True)


def _forget_old(kept: Path, kind: str) -> None:
    others = []
    for old in kept.parent.glob(f"{kind}-*.pickle"):
        if old != kept:
            try:
                others.append((old.stat().st_mtime, old))
            except OSError:          # removed meanwhile by another run
                pass
    others.sort(reverse=True)
    for _, old in others[KEPT[kind] - 1:]:
        old.unlink(missing_ok=True)
