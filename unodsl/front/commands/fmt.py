"""`unodsl fmt`: lay rules files out in the one canonical format (rewrite, check or show a diff)."""
from __future__ import annotations

import difflib
import os
import sys
import tempfile
from pathlib import Path

from .common import EXIT_FAIL, EXIT_OK, UsageError

NAME = "fmt"
HELP = "lay rules files out in the canonical format"
DESCRIPTION = ("Rewrites each rules file in the canonical layout (folders: every .uno file in them). "
               "A file that does not parse is left alone and its mistakes are shown. "
               "`-` formats standard input to standard output.")


def arguments(p) -> None:
    p.add_argument("paths", nargs="+", metavar="FILE|FOLDER", help="rules files, folders of them, or - for standard input")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    p.add_argument("--diff", action="store_true", help="change nothing; show what would change as a unified diff")


def run(args) -> int:
    if "-" in args.paths:
        if len(args.paths) > 1:
            raise UsageError("`-` (standard input) cannot be mixed with files")
        return _stdin(args)
    files = _collect(args.paths)
    changed = broken = 0
    for path in files:
        result = _format_file(path)
        if not result.ok:
            broken += 1
            _report(result, path)
            continue
        if not result.changed:
            continue
        changed += 1
        if args.diff:
            sys.stdout.writelines(_diff(result, str(path)))
        if args.check:
            print(f"{path}: would be reformatted")
        elif not args.diff:
            _write(path, result.text)
            print(f"{path}: reformatted")
    print(_summary(len(files), changed, broken, dry=args.check or args.diff))
    return EXIT_FAIL if broken or (args.check and changed) else EXIT_OK


def _stdin(args) -> int:
    from ...lang.format import format_text
    result = format_text(sys.stdin.read(), "<stdin>")
    if not result.ok:
        _report(result, "<stdin>")
        sys.stdout.write(result.original)
        return EXIT_FAIL
    if args.diff:
        sys.stdout.writelines(_diff(result, "<stdin>"))
    elif not args.check:
        sys.stdout.write(result.text)
    return EXIT_FAIL if args.check and result.changed else EXIT_OK


def _collect(paths) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    files: list[Path] = []
    for p in map(Path, paths):
        found = sorted(p.rglob("*.uno")) if p.is_dir() else [p]
        files.extend(f for f in found if f not in files)
    return files


def _format_file(path: Path):
    from ...compile.loader import read_source
    from ...lang.format import format_source
    return format_source(read_source(path, display=str(path)))


def _report(result, name) -> None:
    from ...lang.source import Source
    sources = {str(name): Source(str(name), result.original)}
    for d in result.diagnostics:
        print(d.render(sources), file=sys.stderr)
    errors = sum(d.severity == "error" for d in result.diagnostics)
    print(f"{name}: not formatted, {errors} error{'s' * (errors != 1)}", file=sys.stderr)


def _diff(result, name: str):
    return difflib.unified_diff(result.original.splitlines(keepends=True), result.text.splitlines(keepends=True),
                                name, f"{name} (formatted)")


def _write(path: Path, text: str) -> None:
    """Write through a temporary file and a rename, keeping the file's permissions."""
    mode = path.stat().st_mode
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _summary(total: int, changed: int, broken: int, dry: bool) -> str:
    def files(n):
        return f"{n} file{'s' * (n != 1)}"
    verb = "would be reformatted" if dry else "reformatted"
    parts = [f"{files(changed)} {verb}", f"{files(total - changed - broken)} already formatted"]
    if broken:
        parts.append(f"{files(broken)} not formatted (mistakes above)")
    return ", ".join(parts)
