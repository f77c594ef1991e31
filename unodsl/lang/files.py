"""Reading the files people give unodsl, and writing the ones it keeps, without surprises.

Every file a user names (rules, scenarios, saves, logs, templates) is read through `read_text`:
only a regular file is opened (a directory, a FIFO or a device such as /dev/zero is refused by
name before anything is read), and at most `limit` bytes are read, so a huge or endless file
costs nothing. `atomic_write` writes a file under a temporary name and renames it over the old
one with Ctrl-C held back, so an interrupted write leaves the old file whole and no temporary
file behind. `printable` is what any text from a file must pass through before it reaches a
terminal: escape sequences and other control bytes are shown, never obeyed.
"""
from __future__ import annotations

import os
import re
import signal
import stat
import threading
from contextlib import contextmanager
from pathlib import Path


class InputError(ValueError):
    """A file or value the user gave cannot be used; the message says why, in plain words.

    `where` names the file (or the option) and `reason` says what is wrong with it, so that a
    caller with its own way of naming places can reuse the reason. The command line answers it
    with exit code 2, like any other mistake in its input."""

    def __init__(self, where, reason: str | None = None):
        if reason is None:                   # one message that names its place itself
            where, reason = "", str(where)
        self.where, self.reason = str(where), reason
        super().__init__(f"{where}: {reason}" if where else reason)


class UnknownName(InputError, LookupError):
    """A name that names nothing known (a ruleset, a module); the message suggests the nearest."""


def describe_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or InputError.

    The file is checked before it is opened (a FIFO would block the open) and again once open
    (it may have been swapped in between); the read itself stops after `limit + 1` bytes, so
    a file that grows, lies about its size or never ends is refused as too large."""
    p = Path(path)
    try:
        mode = os.stat(p).st_mode
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except OSError as err:
        raise InputError(p, f"cannot read: {err.strerror}") from None
    if not stat.S_ISREG(mode):
        raise InputError(p, f"{describe_kind(mode)}, not a {what}")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise InputError(p, f"cannot read: {err.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(p, f"{describe_kind(mode)}, not a {what}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise InputError(p, f"cannot read: {err.strerror}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise InputError(p, f"larger than a {what} may be ({limit:,} bytes)")
    return b"".join(chunks)


def decode(data: bytes, name: str) -> str:
    """UTF-8 text, or InputError naming the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(name, f"not UTF-8 text (byte {err.start})") from None


def read_text(path, limit: int, what: str = "file") -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes, or InputError."""
    return decode(read_bytes(path, limit, what), str(path))


def read_stream(stream, limit: int, name: str, what: str = "file") -> str:
    """At most `limit` bytes of text from an open binary stream (standard input, `-`)."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(name, f"larger than a {what} may be ({limit:,} bytes)")
    return decode(data, name)


def check_writable(path, what: str = "file") -> None:
    """Refuse up front a path that cannot be written: its folder is missing or read-only, or it
    names a directory. Checked before a game starts, so that no game is lost at its end."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise InputError(p, f"a directory; give a file name for the {what}")
    if not folder.is_dir():
        raise InputError(p, f"cannot write the {what} here: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(p, f"cannot write the {what} here: permission denied")


@contextmanager
def interrupts_held():
    """Hold Ctrl-C back for the duration of the block, then deliver it: whatever the block
    writes or changes is done whole or not at all. Elsewhere than the main thread (where no
    signal arrives) it does nothing."""
    if threading.current_thread() is not threading.main_thread() or _holding or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield                   # no signal here, or an outer block already holds it back
        return
    caught = []

    def hold(signum, frame):
        caught.append(signum)
    previous = signal.signal(signal.SIGINT, hold)
    _holding.append(True)
    try:
        yield
    finally:
        _holding.pop()
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


_holding: list = []            # non-empty while a block holds Ctrl-C back (blocks nest)


def atomic_write(path, data: str | bytes) -> None:
    """Write a file whole: a temporary file in the same folder, flushed to disk, renamed over
    the old one. An error or Ctrl-C at any moment leaves the old file and no temporary one."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    with interrupts_held():
        try:
            with open(tmp, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text safe to show on a terminal: control characters (escape sequences, bells, carriage
    returns, bidirectional overrides) are written as visible escapes like `\\x1b`; line breaks
    and tabs are kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", str(text))


MAX_JSON_DEPTH = 64
MAX_NUMBER_DIGITS = 100


def strict_json(text: str, name: str):
    """JSON as unodsl writes it, or InputError saying what is wrong: no `NaN` or `Infinity`,
    no number of more than MAX_NUMBER_DIGITS digits, no nesting deeper than MAX_JSON_DEPTH."""
    import json

    def constant(word):
        raise InputError(name, f"`{word}` is not a number unodsl writes")

    def integer(digits):
        if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
            raise InputError(name, f"a number of {len(digits.lstrip('-')):,} digits is too long")
        return int(digits)

    def real(digits):
        if len(digits) > MAX_NUMBER_DIGITS:
            raise InputError(name, f"a number of {len(digits):,} characters is too long")
        value = float(digits)
        if value in (float("inf"), float("-inf")):
            raise InputError(name, f"`{digits}` is too large a number")
        return value
    if _nesting(text) > MAX_JSON_DEPTH:
        raise InputError(name, f"nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text, parse_constant=constant, parse_int=integer, parse_float=real)
    except InputError:
        raise
    except json.JSONDecodeError as err:
        raise InputError(name, f"not JSON (line {err.lineno}: {err.msg})") from None
    except (ValueError, RecursionError) as err:
        raise InputError(name, f"not JSON ({err})") from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest, strings left out (before json reads it, so
    that nesting too deep for Python's recursion is refused rather than crashed on)."""
    deepest = level = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        level += 1 if m.group() in "[{" else -1
        deepest = max(deepest, level)
    return deepest
