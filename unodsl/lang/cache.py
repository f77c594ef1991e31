"""The user's cache folder: what unodsl keeps between runs so that the next one starts sooner.

Three things live there, each in its own folder: the parser's tables (`parser`), the rules
files already parsed (`parsed`) and the native engine's modules with their machine code
(`native`). All of them are read back as pickles or imported as code, so a folder is used only
when it belongs to this user and no one else may write to it: `$UNODSL_CACHE` when set, else the
user's cache folder (XDG), else a private folder in the temporary directory. When none of them
will do, `cache_dir` says None and the caller works without a cache (slower, never wrong).
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def _candidates() -> list[Path]:
    base = os.environ.get("UNODSL_CACHE")
    if base:
        return [Path(base)]
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return [Path(xdg) / "unodsl", Path(tempfile.gettempdir()) / f"unodsl-{uid}"]


def _private(folder: Path) -> bool:
    """Whether the folder exists (made if need be), is ours, is writable, and no one else may
    write to it (on systems with owners and permission bits)."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.stat()
        if hasattr(os, "getuid"):
            if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return False
        probe = folder / f".probe.{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_dir(kind: str) -> Path | None:
    """The private folder for one kind of cached thing (`parser`, `parsed`, `native`), or None
    when no folder is safe to use."""
    for root in _candidates():
        folder = root / kind
        if _private(root) and _private(folder):
            return folder
    return None
