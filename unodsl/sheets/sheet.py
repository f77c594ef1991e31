"""Printable rule sheets, made from the rules themselves so the sheet and the game never disagree.

`make_sheet` is the whole pipeline: `rules` finds what the sheet is about, `context` makes the
rule book's data (plain dicts, lists and strings), and the Jinja templates in `templates/` render
it as one self-contained HTML file (which WeasyPrint pages into a PDF) or as Markdown; `aid=True`
renders the one-page player aid instead. `--template FILE` renders a user's own template in
Jinja's sandbox with the same data.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..lang.files import InputError, printable
from .context import PAPERS, build_context
from .deck import contents  # noqa: F401  (the language server's hover reads a card kind's row)
from .describe import and_list, plural
from .facts import MAX_GAMES
from .rules import load_rules

TEMPLATES = Path(__file__).resolve().parent / "templates"
FORMATS = ("html", "md", "pdf")


class SheetError(InputError):
    """A problem with a sheet request (a template, a format, a missing extra): exit code 2."""


# ---- rendering ----------------------------------------------------------------------------------------

def _md_cell(text) -> str:
    return str(text if text is not None else "").replace("|", "\\|").replace("\n", " ")


def _md_text(text) -> str:
    """Text safe for a Markdown paragraph: characters that would start markup are escaped."""
    s = str(text if text is not None else "")
    s = re.sub(r"([\\`*_\[\]<>|])", r"\\\1", s)
    return s.replace("\n", " ")


def _capfirst(text) -> str:
    s = str(text if text is not None else "")
    return s[:1].upper() + s[1:]


def _filters() -> dict:
    return {"md_cell": _md_cell, "md": _md_text, "and_list": and_list, "plural": plural, "capfirst": _capfirst}


def _escape_for(name: str | None, fmt: str) -> bool:
    base = (name or "").lower()
    for suffix in (".j2", ".jinja", ".jinja2"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    if base.endswith((".html", ".htm", ".xml", ".svg")):
        return True
    if base.endswith((".md", ".markdown", ".txt")):
        return False
    return fmt in ("html", "pdf")


def _bytecode_cache():
    """A private folder for the built-in templates' compiled form (compiling them costs more than
    rendering a sheet): under the user's cache folder, made readable by the user alone; none if
    it cannot be made."""
    import os
    from jinja2 import FileSystemBytecodeCache
    from .. import __version__
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "unodsl", f"templates-{__version__}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.access(folder, os.W_OK) or (hasattr(os, "getuid") and os.stat(folder).st_uid != os.getuid()):
            return None
    except OSError:
        return None
    return FileSystemBytecodeCache(folder)


def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), bytecode_cache=_bytecode_cache(),
                      autoescape=lambda name: _escape_for(name, "html"),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters.update(_filters())
    return env


def render_builtin(ctx: dict, fmt: str, aid: bool = False) -> str:
    env = environment()
    name = ("aid" if aid else "sheet") + (".md.j2" if fmt == "md" else ".html.j2")
    return env.get_template(name).render(**ctx)


def render_user(ctx: dict, path, fmt: str) -> str:
    """Render a user's own template (sandboxed, kept in its folder, within limits: user_template)."""
    from .user_template import render_user as render
    return render(ctx, path, fmt, bundled=TEMPLATES, autoescape=_escape_for, filters=_filters(), error=SheetError)


def _printable(value):
    """The sheet's data with every text's control characters escaped (lang.files.printable)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {k: _printable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_printable(v) for v in value)
    return value


def to_pdf(html_text: str) -> bytes:
    try:
        import weasyprint  # noqa: F401
    except ImportError:
        raise SheetError("PDF output needs WeasyPrint: pip install unodsl[pdf]") from None
    except OSError as err:      # WeasyPrint is there but a system library it needs is not
        raise SheetError(f"WeasyPrint cannot start ({err}); it needs Pango: see its installation notes") from None
    from weasyprint import HTML
    return HTML(string=html_text, base_url=str(TEMPLATES)).write_pdf()


def make_sheet(ref: str, with_=(), options: dict | None = None, fmt: str = "html", paper: str = "a4",
               stats: int = 0, template=None, aid: bool = False, examples=()):
    """The whole pipeline: the sheet (or with aid=True the player aid) as text (html, md) or
    bytes (pdf). `examples` are scenarios for the sheet as data (or a function of the compiled rules
    that returns them), as `unodsl.front.sheet_examples.sheet_examples` finds them."""
    if fmt not in FORMATS:
        raise SheetError(f"unknown format `{fmt}`: use one of {', '.join(FORMATS)}")
    if paper not in PAPERS:
        raise SheetError(f"unknown paper `{paper}`: use a4 or letter")
    if stats and stats > MAX_GAMES:
        raise SheetError(f"--stats plays at most {MAX_GAMES} games, not {stats}")
    src = load_rules(ref, with_, options)
    if callable(examples):
        examples = examples(src.rules)
    ctx = build_context(src.rules, parent=src.parent, modules=src.modules, paper=paper, stats=stats,
                        examples=examples)
    ctx["format"] = fmt
    ctx["kind"] = "aid" if aid else "sheet"
    if fmt == "md":                 # Markdown is read on terminals too: no control character obeyed
        ctx = _printable(ctx)
    text = render_user(ctx, template, fmt) if template else render_builtin(ctx, fmt, aid)
    if fmt == "pdf":
        return to_pdf(text)
    return text
