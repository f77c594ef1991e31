"""Printable rule sheets, made from the rules themselves so the sheet and the game never disagree.

`make_sheet` is the whole pipeline: `rules` finds what the sheet is about, `context` makes the
rule book's data (plain dicts, lists and strings), and the Jinja templates in `templates/` render
it as one self-contained HTML file (which WeasyPrint pages into a PDF) or as Markdown; `aid=True`
renders the one-page player aid instead. `--template FILE` renders a user's own template in
Jinja's sandbox with the same data.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from .context import PAPERS, build_context
from .describe import and_list, plural
from .facts import MAX_GAMES
from .rules import load_rules

TEMPLATES = Path(__file__).resolve().parent / "templates"
FORMATS = ("html", "md", "pdf")


class SheetError(ValueError):
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
    """Render a user's own template in Jinja's sandbox; every problem is a SheetError with its line."""
    from jinja2 import (
        ChoiceLoader,
        FileSystemLoader,
        StrictUndefined,
        TemplateError,
        TemplateSyntaxError,
    )
    from jinja2.sandbox import SandboxedEnvironment, SecurityError
    path = Path(path)
    if not path.is_file():
        raise SheetError(f"no such template file: {path}")
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise SheetError(f"{path}: the template is not UTF-8 text (byte {err.start})") from None
    folder = path.resolve().parent
    env = SandboxedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(str(folder)), FileSystemLoader(str(TEMPLATES))]),
        autoescape=lambda name: _escape_for(name, fmt), undefined=StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(_filters())
    for unsafe in ("cycler", "joiner", "lipsum"):
        env.globals.pop(unsafe, None)
    display = str(path)
    try:
        template = env.get_template(path.name)
        return template.render(**ctx)
    except TemplateSyntaxError as err:
        where = _where(err.filename or display, err.lineno, path)
        raise SheetError(f"{where}: template error: {err.message}") from None
    except SecurityError as err:
        where = _where(display, _template_line(path), path)
        raise SheetError(f"{where}: the template tried something the sandbox forbids: {err}") from None
    except TemplateError as err:
        where = _where(display, _template_line(path), path)
        raise SheetError(f"{where}: template error: {err}") from None
    except RecursionError:
        raise SheetError(f"{display}: the template recurses too deeply") from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError, OverflowError) as err:
        where = _where(display, _template_line(path), path)
        raise SheetError(f"{where}: template error: {type(err).__name__}: {err}") from None


def _where(filename, line, path) -> str:
    name = str(path) if filename and Path(filename).name == path.name else (filename or str(path))
    return f"{name}:{line}" if line else name


def _template_line(path) -> int | None:
    """The template line being rendered when an error was raised (from the rewritten traceback)."""
    tb = sys.exc_info()[2]
    line = None
    want = str(path.resolve())
    while tb is not None:
        code = tb.tb_frame.f_code
        try:
            if Path(code.co_filename).resolve() == Path(want) or code.co_filename == path.name:
                line = tb.tb_lineno
        except (OSError, ValueError):
            pass
        tb = tb.tb_next
    return line


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
    text = render_user(ctx, template, fmt) if template else render_builtin(ctx, fmt, aid)
    if fmt == "pdf":
        return to_pdf(text)
    return text
