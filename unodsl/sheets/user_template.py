"""`sheet --template FILE`: a user's own Jinja template, run so that it can neither read nor exhaust.

A template someone else wrote is untrusted code. Three walls stand around it:

- **Jinja's sandbox** (no attribute starting with `_`, no Python internals), with undefined
  names as errors.
- **Its folder**: every template it extends or includes is looked up in the template's own
  folder or among the bundled templates, and its path is resolved first: a symlink, or a name
  that leads anywhere else, is refused like a missing template.
- **Limits**: numbers the template computes have at most MAX_DIGITS digits; a text or list it
  builds (`'x' * n`, `center(n)`, a range) and its whole output hold at most MAX_OUTPUT
  characters; it renders in a child process that is stopped after TIME_LIMIT seconds and
  refused more than MEMORY_LIMIT bytes of new memory. The message says which limit was reached.

Every problem becomes a SheetError with the template's file and line.
"""
from __future__ import annotations

import math
import os
import pickle
import re
import select
import signal
import sys
import time
from functools import wraps
from pathlib import Path

from ..lang.files import InputError, read_text

MAX_DIGITS = 100
MAX_OUTPUT = 5_000_000
TIME_LIMIT = 5.0
MEMORY_LIMIT = 1 << 30
MAX_TEMPLATE_BYTES = 1_000_000


class LimitReached(Exception):
    """A template went past one of the limits; the message names it."""


def _too_long(n) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n > MAX_OUTPUT


def _check_size(n, what: str) -> None:
    if _too_long(n):
        raise LimitReached(f"{what} would be {n:,} long; the output limit is {MAX_OUTPUT:,} characters")


def _check_number(value) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        raise LimitReached(f"a number in the template has more than {MAX_DIGITS} digits (the integer size limit)")


def _sized(value) -> bool:
    return isinstance(value, (str, list, tuple))


def _check_operation(operator: str, left, right) -> None:
    """Refuse, before it runs, an operation whose result would pass a limit."""
    if operator == "**" and isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
        if right * math.log10(abs(left)) > MAX_DIGITS:
            raise LimitReached(f"{left} ** {right} has more than {MAX_DIGITS} digits (the integer size limit)")
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if _sized(seq) and isinstance(n, int):
                _check_size(len(seq) * n, "a repeated text or list")
    if operator == "+" and _sized(left) and _sized(right):
        _check_size(len(left) + len(right), "a joined text or list")
    if operator == "%" and isinstance(left, str):
        widths = [int(w) for w in re.findall(r"%[-#0 +]*(\d+)", left)]
        precisions = [int(p) for p in re.findall(r"\.(\d+)", left)]
        for w in widths + precisions:
            _check_size(w, "a formatted field")


def _check_arguments(args, kwargs) -> None:
    for value in list(args) + list(kwargs.values()):
        _check_number(value)
        _check_size(value, "a count or width given to a function or filter")


def _limited(fn):
    """A filter or method that refuses arguments asking for more than the output limit."""
    @wraps(fn)
    def guarded(*args, **kwargs):
        _check_arguments(args[1:], kwargs)
        return fn(*args, **kwargs)
    return guarded


def _environment(folder: Path, bundled: Path, autoescape, filters: dict):
    from jinja2 import BaseLoader, ChoiceLoader, StrictUndefined, TemplateNotFound
    from jinja2.loaders import split_template_path
    from jinja2.sandbox import SandboxedEnvironment

    class FolderLoader(BaseLoader):
        """Templates of one folder, and only of it: each path is resolved before it is read."""

        def __init__(self, root: Path):
            self.root = root.resolve()

        def get_source(self, environment, template):
            path = self.root.joinpath(*split_template_path(template))
            try:
                real = path.resolve()
            except (OSError, RuntimeError):
                raise TemplateNotFound(template) from None
            if not real.is_relative_to(self.root) or not real.is_file():
                raise TemplateNotFound(template)
            try:
                text = read_text(real, MAX_TEMPLATE_BYTES, "template")
            except InputError:
                raise TemplateNotFound(template) from None
            return text, str(path), lambda: True

    class LimitedSandbox(SandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

        def call_binop(self, context, operator, left, right):
            _check_operation(operator, left, right)
            result = super().call_binop(context, operator, left, right)
            _check_number(result)
            return result

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (Jinja's own signature)
            _check_arguments(args, kwargs)
            result = super().call(__context, __obj, *args, **kwargs)
            _check_number(result)
            return result

    env = LimitedSandbox(loader=ChoiceLoader([FolderLoader(folder), FolderLoader(bundled)]),
                         autoescape=autoescape, undefined=StrictUndefined,
                         trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(filters)
    env.filters = {name: _limited(f) for name, f in env.filters.items()}
    for unsafe in ("cycler", "joiner", "lipsum"):
        env.globals.pop(unsafe, None)
    return env


def render_user(ctx: dict, path, fmt: str, *, bundled: Path, autoescape, filters: dict, error) -> str:
    """Render a user's template with the sheet's data; `error` is the exception class to raise
    (the sheet's SheetError), with the template's file and line and what went wrong."""
    path = Path(path)
    try:
        read_text(path, MAX_TEMPLATE_BYTES, "template")
    except InputError as err:
        raise error(str(err)) from None
    folder = path.absolute().parent
    env = _environment(folder, bundled, lambda name: autoescape(name, fmt), filters)
    kind, value = _in_child(lambda: _render(env, ctx, path))
    if kind == "error":
        raise error(value if value.startswith(str(path)) else f"{path}: {value}")
    return value


def _render(env, ctx, path: Path):
    """("ok", text) or ("error", message): the rendering itself, run inside the child."""
    from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError
    from jinja2.sandbox import SecurityError
    display = str(path)
    try:
        template = env.get_template(path.name)
        pieces, size = [], 0
        for piece in template.generate(**ctx):
            size += len(piece)
            if size > MAX_OUTPUT:
                raise LimitReached(f"the output reached the output limit of {MAX_OUTPUT:,} characters")
            pieces.append(piece)
        return "ok", "".join(pieces)
    except LimitReached as err:
        return "error", f"{_where(display, _template_line(path), path)}: stopped: {err}"
    except TemplateSyntaxError as err:
        return "error", f"{_where(err.filename or display, err.lineno, path)}: template error: {err.message}"
    except TemplateNotFound as err:
        where = _where(display, _template_line(path), path)
        return "error", (f"{where}: template error: no template `{err.name}` in the template's folder "
                         "or among the bundled ones (a path that leads outside the folder is refused)")
    except SecurityError as err:
        where = _where(display, _template_line(path), path)
        return "error", f"{where}: the template tried something the sandbox forbids: {err}"
    except TemplateError as err:
        return "error", f"{_where(display, _template_line(path), path)}: template error: {err}"
    except RecursionError:
        return "error", f"{display}: the template recurses too deeply"
    except MemoryError:
        return "error", (f"{_where(display, _template_line(path), path)}: stopped: the template needed more "
                         f"than {MEMORY_LIMIT >> 20} MB of memory (the memory limit)")
    except OverflowError as err:
        return "error", f"{_where(display, _template_line(path), path)}: stopped: {err} (a size limit)"
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError) as err:
        return "error", f"{_where(display, _template_line(path), path)}: template error: {type(err).__name__}: {err}"


def _in_child(work):
    """Run `work` in a forked child with the time and memory limits; its result comes back
    through a pipe. Where processes cannot fork, it runs here with the other limits only."""
    if not hasattr(os, "fork"):
        return work()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the child: render, send, leave at once
        status = 0
        try:
            os.close(read_end)
            signal.signal(signal.SIGINT, signal.SIG_IGN)     # the parent answers Ctrl-C
            _limit_memory()
            try:
                result = work()
            except MemoryError:
                result = ("error", f"stopped: the template needed more than {MEMORY_LIMIT >> 20} MB of "
                                   "memory (the memory limit)")
            except Exception as err:               # a failure _render does not foresee
                result = ("error", f"template error: {type(err).__name__}: {err}")
            data = pickle.dumps(result)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
        except BaseException:                       # nothing may escape into the parent's code
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + TIME_LIMIT
    finished = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([read_end], [], [], left)
            if not ready:
                continue
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        if not finished:
            _kill(pid)
    _, status = os.waitpid(pid, 0)
    if not finished:
        return "error", f"stopped: the template ran for more than {TIME_LIMIT:g} s (the time limit)"
    try:
        return pickle.loads(b"".join(chunks))
    except Exception:
        how = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else "stopped"
        return "error", (f"stopped: the template's process was {how}; it probably needed more than "
                         f"{MEMORY_LIMIT >> 20} MB of memory (the memory limit)")


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _limit_memory() -> None:
    """Cap the child's address space at what it has now plus MEMORY_LIMIT."""
    try:
        import resource
        with open("/proc/self/statm") as fh:
            current = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (ImportError, OSError, ValueError):
        return
    cap = current + MEMORY_LIMIT
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _where(filename, line, path: Path) -> str:
    name = str(path) if filename and Path(filename).name == path.name else (filename or str(path))
    return f"{name}:{line}" if line else name


def _template_line(path: Path) -> int | None:
    """The template line being rendered when an error was raised (from the rewritten traceback)."""
    tb = sys.exc_info()[2]
    line = None
    want = {path.absolute(), path.resolve()}
    while tb is not None:
        code = tb.tb_frame.f_code
        try:
            if Path(code.co_filename).absolute() in want or code.co_filename == path.name:
                line = tb.tb_lineno
        except (OSError, ValueError):
            pass
        tb = tb.tb_next
    return line
