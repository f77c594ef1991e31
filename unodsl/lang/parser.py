"""Rules text -> AST, with every syntax error reported and the rest of the file still checked.

Lark parses with LALR and keeps positions. On a syntax error the declaration that holds it is
blanked out (newlines kept, so positions stay true) and the file is parsed again, up to a bound:
each mistake gets one diagnostic, and the declarations that are fine still reach the checker.
"""
from __future__ import annotations

import re
from functools import lru_cache

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from . import ast as A
from .cache import cache_dir
from .diagnostics import Diagnostics, suggest
from .resources import grammar_text
from .source import Source, Span

# Words that start a declaration inside a ruleset or module: used to find where a broken
# declaration ends, and to suggest a keyword for a misspelt one.
DECL_WORDS = ("about", "players", "deal", "option", "set", "colors", "card", "remove", "deck",
              "match", "honest", "renege", "on", "starter", "window", "highest", "teams", "requires",
              "counter", "play", "after", "uses", "suits", "group", "ranks", "faces", "pair", "when",
              "blocked", "whenever", "define")
UNIT_WORDS = ("ruleset", "module")
MAX_RECOVERIES = 60
MAX_NESTING = 60           # brackets and braces inside each other; deeper is refused, not recursed
MAX_NUMBER = 999_999_999   # the largest number a rules file may write


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, built once per process; Lark also caches the built tables on disk (in the
    user's private cache folder, checked against a hash of the grammar), which halves the
    start-up time."""
    options = dict(parser="lalr", propagate_positions=True, maybe_placeholders=False)
    folder = cache_dir("parser")
    if folder is not None:
        try:
            return Lark(grammar_text(), cache=str(folder / "lark-tables.pickle"), **options)
        except OSError:           # the folder went away: build it in memory
            pass
    return Lark(grammar_text(), **options)


def lark_parser() -> Lark:
    """The Lark parser of the language, for tools that need its tokens or its parse tree
    (the formatter, the language server's completion)."""
    return _lark()


def keywords() -> set[str]:
    return {t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and t.pattern.value.isalpha()}


_TOKEN_NAMES = {"LBRACE": "`{`", "RBRACE": "`}`", "LPAR": "`(`", "RPAR": "`)`", "COMMA": "`,`",
                "SEMICOLON": "`;`", "EQUAL": "`=`", "DOT": "`.`", "NAME": "a name", "INT": "a number",
                "STRING": "a quoted text", "$END": "the end of the file", "COMPARE": "a comparison",
                "PLUS": "`+`", "MUL_OP": "`*`, `/` or `%`", "MINUS": "`-`"}


def _describe_terminal(name: str) -> str:
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    for t in _lark().terminals:
        if t.name == name and t.pattern.type == "str":
            return f"`{t.pattern.value}`"
    return name.lower()


def _words_expected(expected) -> set[str]:
    """The keywords the parser would take where it stopped: a hint names one of them, never a
    word that is as wrong there (`opens after draw` is told of `play`, not of `draws`)."""
    values = {t.name: t.pattern.value for t in _lark().terminals if t.pattern.type == "str"}
    return {values[name] for name in expected if values.get(name, "").isalpha()}


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    return f"`{tok.value}`"


class _Blanker:
    """Finds the declaration around a syntax error, so that it can be cut out and parsing resumed."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")

    def _first_word(self, i: int) -> str:
        m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_-]*)", self.lines[i])
        return m.group(1) if m else ""

    def _is_decl_line(self, i: int) -> bool:
        return self._first_word(i) in DECL_WORDS + UNIT_WORDS

    def region(self, line: int, at_line_start: bool) -> tuple[int, int]:
        """0-based [first, last) line range of the broken declaration around 1-based `line`."""
        i = line - 1
        if at_line_start and self._is_decl_line(i) and i > 0:
            i -= 1                      # the previous declaration is the one left unfinished
        start = i
        while start > 0 and not self._is_decl_line(start):
            start -= 1
        if self._first_word(start) in UNIT_WORDS and start == line - 1 - (1 if at_line_start else 0):
            return start, start + 1
        return start, self._end_of(start, i)

    def _end_of(self, start: int, at_least: int) -> int:
        """The line after the declaration that starts at `start`: where its braces balance, or
        before the next declaration; never past a `}` that closes the enclosing ruleset."""
        depth, opened = 0, False
        for k in range(start, len(self.lines)):
            if k > start and not opened and self._is_decl_line(k):
                return max(k, at_least + 1)
            for ch in re.sub(r'"([^"\\]|\\.)*"', "", self.lines[k].split("#", 1)[0]):
                if ch == "{":
                    depth, opened = depth + 1, True
                elif ch == "}":
                    depth -= 1
                    if depth < 0:          # the enclosing ruleset's own closing brace
                        return max(k, at_least + 1) if k > start else k + 1
            if opened and depth <= 0 and k >= at_least:
                return k + 1
        return len(self.lines)

    def blank(self, first: int, last: int) -> str:
        lines = list(self.lines)
        for k in range(first, last):
            lines[k] = " " * len(lines[k])
        return "\n".join(lines)


def _unclosed_brace(text: str, first: int, last: int) -> int | None:
    """1-based line of a `{` in lines [first, last) that those lines never close. A `}` that
    starts its line and lines up with an outer `{`'s line closes that one: the author left the
    braces opened inside it open, and the first of those is named rather than the outer one."""
    stack, left_open = [], []           # (line, indentation) of each `{` still open
    for n, line in enumerate(text.split("\n")[first:last], start=first + 1):
        code = re.sub(r'"([^"\\]|\\.)*"', "", line.split("#", 1)[0])
        indent = len(line) - len(line.lstrip())
        for at, ch in enumerate(code):
            if ch == "{":
                stack.append((n, indent))
            elif ch == "}" and stack:
                if not code[:at].strip():
                    aligned = [k for k, (_, opened) in enumerate(stack) if opened == indent]
                    if aligned and aligned[-1] < len(stack) - 1:
                        left_open += [opened_at for opened_at, _ in stack[aligned[-1] + 1:]]
                        del stack[aligned[-1] + 1:]
                stack.pop()
    if left_open:
        return min(left_open)
    return stack[0][0] if stack else None


def _too_deep(source: Source, diags: Diagnostics) -> bool:
    """Refuse absurd nesting before parsing it: every later stage walks the tree recursively."""
    depth = 0
    for n, line in enumerate(source.text.split("\n"), start=1):
        code = re.sub(r'"([^"\\]|\\.)*"', "", line.split("#", 1)[0])
        for col, ch in enumerate(code, start=1):
            if ch in "({":
                depth += 1
                if depth > MAX_NESTING:
                    diags.error("E104", f"brackets and braces are nested more than {MAX_NESTING} deep",
                                source.span(n, col), "split the rule into simpler parts")
                    return True
            elif ch in ")}":
                depth = max(0, depth - 1)
    return False


def parse(source: Source, diags: Diagnostics) -> A.File:
    """Parse a whole file; syntax errors go to `diags` and the declarations around them are dropped."""
    text = source.text
    if text.startswith("\ufeff"):          # a byte-order mark some editors write: read as a blank
        text = " " + text[1:]
    if _too_deep(source, diags):
        return A.File(source.span(1, 1), ())
    for _ in range(MAX_RECOVERIES):
        try:
            tree = _lark().parse(text)
            builder = _ToAst(source)
            result = builder.transform(tree)
            for p in builder.problems:
                diags.error(p.code, p.message, p.span, p.hint)
            return result
        except UnexpectedInput as err:
            text = _recover(source, text, err, diags)
            if text is None:
                break
        except VisitError as err:           # a transformer check (e.g. a rank range) failed
            inner = err.orig_exc
            if isinstance(inner, _SyntaxProblem):
                diags.error(inner.code, inner.message, inner.span, inner.hint)
                blank = _Blanker(text)
                first, last = blank.region(inner.span.line, False)
                text = blank.blank(first, last)
            else:
                raise
    return A.File(source.span(1, 1), ())


def _recover(source: Source, text: str, err: UnexpectedInput, diags: Diagnostics) -> str | None:
    line, col = getattr(err, "line", 1) or 1, getattr(err, "column", 1) or 1
    blank = _Blanker(text)
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        opened = _unclosed_brace(text, 0, len(blank.lines))
        last = max(1, len(text.rstrip().split("\n")))
        span = source.span(last, max(1, len(blank.lines[last - 1]) + 1))
        if opened is not None:
            diags.error("E102", "the file ends before a block is closed", span,
                        f"the `{{` on line {opened} has no matching `}}`")
            return text + "\n" + "}" * _depth(text)
        expected = sorted({_describe_terminal(t) for t in err.expected})
        diags.error("E101", "the file ends in the middle of a declaration", span,
                    "expected " + ", ".join(expected[:6]))
        return None
    if isinstance(err, UnexpectedCharacters):
        span = source.span(line, col)
        ch = text.split("\n")[line - 1][col - 1:col] if line - 1 < len(blank.lines) else "?"
        diags.error("E100", f"unexpected character `{ch}`", span,
                    "names use letters, digits, `_` and `-`; texts go in double quotes")
        lines = text.split("\n")
        row = lines[line - 1]
        lines[line - 1] = row[: col - 1] + " " + row[col:]
        return "\n".join(lines)
    else:
        tok = err.token
        span = Span(source.name, line, col, tok.end_line or line, (tok.end_column or col + 1))
        if set(err.expected) <= {"RULESET", "MODULE", "$END"}:     # outside every ruleset and module
            stray = _stray_brace(text, line, col) if tok.type != "RBRACE" else (line, col)
            if stray is not None:
                sline, scol = stray
                diags.error("E107", "unexpected `}`: nothing left to close", source.span(sline, scol, sline, scol + 1),
                            "remove this `}`" + ("" if tok.type == "RBRACE" else
                                                 f": the declarations after it (line {line}) belong inside the "
                                                 "ruleset or module it closes"))
                rows = text.split("\n")
                rows[sline - 1] = rows[sline - 1][: scol - 1] + " " + rows[sline - 1][scol:]
                return "\n".join(rows)
        prefix = blank.lines[line - 1][: col - 1]
        at_line_start = not prefix.strip()
        expected = {_describe_terminal(t) for t in err.expected}
        message = f"unexpected {_describe_token(tok)}"
        hint = ""
        if at_line_start and tok.value in DECL_WORDS and "`}`" in expected:
            first, _ = blank.region(line, True)
            opened = _unclosed_brace(text, first, line - 1)
            if opened is not None:
                diags.error("E102", "a block is not closed before the next declaration", span,
                            f"add `}}` to close the `{{` on line {opened}")
                return _insert_brace(text, line)
        verbs = {"`draws`", "`chooses`", "`plays`", "`scores`"}
        if tok.type in ("RBRACE", "SEMICOLON") and verbs & expected:
            before = _word_before(text, line, col)
            if before is not None:
                (bline, bcol, word) = before
                diags.error("E101", f"the statement ends after `{word}` without saying what happens",
                            Span(source.name, bline, bcol, bline, bcol + len(word)),
                            "add what happens, for example `" + word + " draws 2` or `skip " + word + "`")
                first, last = blank.region(line, at_line_start)
                return blank.blank(first, last)
        if tok.type == "NAME" or re.fullmatch(r"[a-z]+", str(tok.value)):   # a name, or a keyword out of place
            decl_word = suggest(tok.value, DECL_WORDS, limit=1) if at_line_start else ""
            wanted = _words_expected(err.expected) - {tok.value}
            # a keyword out of place is offered only the words that may stand there
            close = decl_word or suggest(tok.value, wanted if wanted or tok.value in keywords() else keywords())
            if close:
                message = f"unknown word `{tok.value}` here"
                hint = close
            if decl_word:
                diags.error("E101", message, span, hint)
                fixed = re.search(r"`([^`]+)`", decl_word).group(1)
                return _replace_word(text, line, col, tok.value, fixed)
        if not hint:
            hint = "expected " + ", ".join(sorted(expected)[:8])
        diags.error("E101", message, span, hint)
    at_start = isinstance(err, UnexpectedToken) and not blank.lines[line - 1][: col - 1].strip()
    if at_start and "RBRACE" in err.expected:
        # the parser could have ended what came before: the mistake starts on this line
        first, last = line - 1, blank._end_of(line - 1, line - 1)
    else:
        first, last = blank.region(line, at_start)
    if all(not blank.lines[k].strip() for k in range(first, last)):
        return None
    return blank.blank(first, last)


def _stray_brace(text: str, line: int, col: int):
    """(line, col) of the `}` that closed the last ruleset or module before a position, when a
    declaration follows it: the author wrote one `}` too many somewhere above."""
    depth, last = 0, None
    for n, row in enumerate(text.split("\n")[:line], start=1):
        code = re.sub(r'"([^"\\]|\\.)*"', lambda m: " " * len(m.group(0)), row.split("#", 1)[0])
        if n == line:
            code = code[: col - 1]
        for c, ch in enumerate(code, start=1):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    last = (n, c)
    word = re.match(r"\s*([A-Za-z_][\w-]*)", text.split("\n")[line - 1][col - 1:])
    return last if last is not None and word and word.group(1) in DECL_WORDS else None


def _word_before(text: str, line: int, col: int):
    """(line, col, word) of the last word before a position, skipping blanks and comments."""
    lines = text.split("\n")
    row, limit = line - 1, col - 1
    while row >= 0:
        code = lines[row][:limit].split("#", 1)[0]
        found = list(re.finditer(r"[A-Za-z_][A-Za-z0-9_.-]*", code))
        if found:
            m = found[-1]
            return row + 1, m.start() + 1, m.group(0)
        row -= 1
        limit = None
    return None


def _insert_brace(text: str, line: int) -> str:
    """Close a block at the end of the last non-blank line before 1-based `line`."""
    lines = text.split("\n")
    k = line - 2
    while k > 0 and not lines[k].split("#", 1)[0].strip():
        k -= 1
    body, sep, comment = lines[k].partition("#")
    lines[k] = body.rstrip() + " }" + (" " + sep + comment if sep else "")
    return "\n".join(lines)


def _replace_word(text: str, line: int, col: int, old: str, new: str) -> str:
    """Put the keyword the author probably meant in place of a misspelt one, and parse on."""
    lines = text.split("\n")
    row = lines[line - 1]
    lines[line - 1] = row[: col - 1] + new + row[col - 1 + len(old):]
    return "\n".join(lines)


def _depth(text: str) -> int:
    depth = 0
    for line in text.split("\n"):
        code = re.sub(r'"([^"\\]|\\.)*"', "", line.split("#", 1)[0])
        depth += code.count("{") - code.count("}")
    return max(0, depth)


class _Range:
    """`from LOW [to HIGH]` of an option, on its way into the OptionDecl."""
    def __init__(self, low, high):
        self.low, self.high = low, high


class _SyntaxProblem(Exception):
    def __init__(self, code: str, message: str, span: Span, hint: str = ""):
        super().__init__(message)
        self.code, self.message, self.span, self.hint = code, message, span, hint


def _unquote(tok: Token) -> str:
    body = tok.value[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds frozen AST nodes; each node gets the span Lark recorded for its rule."""

    def __init__(self, source: Source):
        super().__init__()
        self.src = source
        self.problems: list = []       # mistakes found while building, reported once the file parses

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False) or not hasattr(meta, "line"):
            return self.src.span(1, 1)
        return Span(self.src.name, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.src.name, tok.line, tok.column, tok.end_line, tok.end_column)

    def _int(self, tok: Token) -> int:
        """A number as written; past MAX_NUMBER it is reported and read as MAX_NUMBER, so that
        no later stage meets a giant and the declaration holding it is still checked."""
        digits = tok.value.lstrip("0")
        if len(digits) > len(str(MAX_NUMBER)) or (digits and int(digits) > MAX_NUMBER):
            shown = tok.value if len(tok.value) <= 20 else tok.value[:12] + "…"
            self.problems.append(_SyntaxProblem("E106", f"the number {shown} is too large", self._tok_span(tok),
                                                f"numbers in rules files are at most {MAX_NUMBER:,}"))
            return MAX_NUMBER
        return int(tok.value)

    # -- file and units
    def start(self, meta, children):
        return A.File(self._span(meta), tuple(children))

    def _unit(self, kind, meta, children):
        name = children[0]
        rest = children[1:]
        title = ""
        extends = None
        ext_span = None
        decls = []
        for c in rest:
            if isinstance(c, Token) and c.type == "STRING":
                title = _unquote(c)
            elif isinstance(c, tuple) and c and c[0] == "extends":
                extends, ext_span = c[1], c[2]
            else:
                decls.append(c)
        return A.Unit(self._span(meta), kind, str(name), title, extends, ext_span, tuple(decls))

    def ruleset(self, meta, children):
        return self._unit("ruleset", meta, children)

    def module(self, meta, children):
        return self._unit("module", meta, children)

    def extends(self, meta, children):
        return ("extends", str(children[0]), self._tok_span(children[0]))

    # -- declarations
    def about(self, meta, c):
        return A.About(self._span(meta), _unquote(c[0]))

    def players(self, meta, c):
        return A.Players(self._span(meta), self._int(c[0]), self._int(c[1]))

    def deal(self, meta, c):
        return A.Deal(self._span(meta), c[0])

    def option(self, meta, c):
        name, default = str(c[0]), c[1]
        choices, doc, low, high = (), "", None, None
        for x in c[2:]:
            if isinstance(x, _Range):
                low, high = x.low, x.high
            elif isinstance(x, tuple):
                choices = x
            elif isinstance(x, Token):
                doc = _unquote(x)
        return A.OptionDecl(self._span(meta), name, default, choices, doc, low, high)

    def choices(self, meta, c):
        return tuple(c)

    def option_range(self, meta, c):
        return _Range(c[0], c[1] if len(c) > 1 else None)

    def set_option(self, meta, c):
        return A.SetOption(self._span(meta), str(c[0]), c[1])

    def requires(self, meta, c):
        return A.Requires(self._span(meta), tuple(c))

    def colors(self, meta, c):
        return A.Colors(self._span(meta), tuple(c))

    def suits(self, meta, c):
        return A.Colors(self._span(meta), tuple(c), "suit")

    def group(self, meta, c):
        return A.Group(self._span(meta), str(c[0]), tuple(str(t) for t in c[1:]),
                       tuple(self._tok_span(t) for t in c[1:]))

    def ranks(self, meta, c):
        return A.Ranks(self._span(meta), tuple(c))

    def rank_def(self, meta, c):
        name, rank = str(c[0]), int(c[1])
        code = next((str(x) for x in c[2:] if x.type == "NAME"), str(rank))
        title = next((_unquote(x) for x in c[2:] if x.type == "STRING"), name.replace("_", " ").title())
        return A.RankDef(self._span(meta), name, rank, code, title)

    def faces(self, meta, c):
        return A.Faces(self._span(meta), tuple(c))

    def face_def(self, meta, c):
        title = _unquote(c[1]) if len(c) > 1 else str(c[0]).replace("_", " ").title()
        return A.FaceDef(self._span(meta), str(c[0]), title)

    def pair_random(self, meta, c):
        return A.PairFaces(self._span(meta), "random")

    def pair_in_order(self, meta, c):
        return A.PairFaces(self._span(meta), "order")

    def pair_table(self, meta, c):
        return A.PairFaces(self._span(meta), "table", tuple(c))

    def face_pair(self, meta, c):
        return (_unquote(c[0]), _unquote(c[1]), self._span(meta))

    def see_other_faces(self, meta, c):
        return A.Sees(self._span(meta), "other faces", self._doc(c))

    def see_every_hand(self, meta, c):
        return A.Sees(self._span(meta), "every hand", self._doc(c))

    def see_stock_top(self, meta, c):
        return A.Sees(self._span(meta), "stock top", self._doc(c))

    def runs(self, meta, c):
        return A.Runs(self._span(meta), c[0], "each acts" in c, self._doc(c[1:]))

    def each_acts(self, meta, c):
        return "each acts"

    def flip(self, meta, c):
        return A.Flip(self._span(meta), bool(c))

    def played_flag(self, meta, c):
        return A.Builtin(self._span(meta), "played")

    def current_face(self, meta, c):
        return A.Builtin(self._span(meta), "face")
    def color_def(self, meta, c):
        title = _unquote(c[2]) if len(c) > 2 else str(c[0]).replace("_", " ").title()
        return A.ColorDef(self._span(meta), str(c[0]), str(c[1]), title)

    def card(self, meta, c):
        name = str(c[0])
        ranks, title, attrs = None, "", []
        for x in c[1:]:
            if isinstance(x, A.CardAttr):
                attrs.append(x)
            elif isinstance(x, Token) and x.type == "STRING":
                title = _unquote(x)
            elif isinstance(x, tuple):
                ranks = x
        return A.CardDecl(self._span(meta), name, ranks, title or name.replace("_", " ").title(), tuple(attrs))

    def remove_card(self, meta, c):
        return A.RemoveCard(self._span(meta), str(c[0]))

    def rank_range(self, meta, c):
        low = self._int(c[0])
        high = self._int(c[1]) if len(c) > 1 else low
        if high < low:
            raise _SyntaxProblem("E103", f"the range {low}..{high} is empty", self._span(meta),
                                 f"write the smaller number first: {high}..{low}")
        return (low, high)

    def colored(self, meta, c):
        return A.CardAttr(self._span(meta), "colored", str(c[0]) if c else True)

    def colorless(self, meta, c):
        return A.CardAttr(self._span(meta), "colored", False)

    def code(self, meta, c):
        return A.CardAttr(self._span(meta), "code", _unquote(c[0]))

    def points(self, meta, c):
        return A.CardAttr(self._span(meta), "points", c[0])

    def card_name(self, meta, c):
        return A.CardAttr(self._span(meta), "name", _unquote(c[0]))

    def tags(self, meta, c):
        return A.CardAttr(self._span(meta), "tags", tuple(str(t) for t in c))

    def prop(self, meta, c):
        return A.CardAttr(self._span(meta), "let", (str(c[0]), c[1]))

    def deck(self, meta, c):
        face = str(c[0]) if c and isinstance(c[0], Token) else None
        return A.Deck(self._span(meta), tuple(x for x in c if not isinstance(x, Token)), face)

    def deck_each(self, meta, c):
        group = str(c[0]) if c and isinstance(c[0], Token) else None
        return A.DeckEach(self._span(meta), tuple(x for x in c if not isinstance(x, Token)), group)

    def deck_count(self, meta, c):
        count = self._int(c[0]) if c[0].type == "INT" else str(c[0])
        return A.DeckCount(self._span(meta), count, c[1])

    def uses(self, meta, c):
        return A.Uses(self._span(meta), tuple(str(t) for t in c), tuple(self._tok_span(t) for t in c))

    def cancel(self, meta, c):
        return A.Cancel(self._span(meta))

    def round_number(self, meta, c):
        return A.Builtin(self._span(meta), "round")

    def kind_sel(self, meta, c):
        return A.KindSel(self._span(meta), str(c[0]), c[1] if len(c) > 1 else None)

    def code_sel(self, meta, c):
        return A.CodeSel(self._span(meta), _unquote(c[0]))

    def _doc(self, c):
        docs = [x for x in c if isinstance(x, Token) and x.type == "STRING"]
        return _unquote(docs[0]) if docs else ""

    def match(self, meta, c):
        return A.Match(self._span(meta), c[0], self._doc(c[1:]))

    def honest(self, meta, c):
        return A.Honest(self._span(meta), c[0], c[1], self._doc(c[2:]))

    def renege(self, meta, c):
        return A.Renege(self._span(meta), c[0], self._doc(c[1:]))

    def deals_first(self, meta, c):
        return A.DealsFirst(self._span(meta), c[0], self._doc(c[1:]))

    def teams(self, meta, c):
        return A.Teams(self._span(meta), c[0], self._doc(c[1:]))

    def on_play(self, meta, c):
        sels = tuple(x for x in c if isinstance(x, (A.KindSel, A.CodeSel)))
        return A.OnPlay(self._span(meta), sels, self._doc(c), c[-1])

    def on_draw(self, meta, c):
        return A.OnDraw(self._span(meta), self._doc(c), c[-1])

    def on_round_end(self, meta, c):
        return A.OnRoundEnd(self._span(meta), self._doc(c), c[-1])

    def starter(self, meta, c):
        sels = tuple(x for x in c if isinstance(x, (A.KindSel, A.CodeSel)))
        return A.Starter(self._span(meta), sels, self._doc(c), c[-1])

    def starter_otherwise(self, meta, c):
        return A.Starter(self._span(meta), None, self._doc(c), c[-1])

    def window(self, meta, c):
        name = str(c[0])
        title = _unquote(c[1]) if len(c) > 1 and isinstance(c[1], Token) else name
        items = tuple(x for x in c[1:] if not isinstance(x, Token))
        return A.Window(self._span(meta), name, title, items)

    def opens(self, meta, c):
        return A.Opens(self._span(meta), c[0] if c else None)

    def opens_when(self, meta, c):
        return A.Opens(self._span(meta), c[0], False)

    def define(self, meta, c):
        params = next((x for x in c[1:] if isinstance(x, list)), [])
        return A.Define(self._span(meta), str(c[0]), tuple(params), self._doc(c[1:]), c[-1])

    def define_params(self, meta, c):
        return [str(t) for t in c]

    def call(self, meta, c):
        return A.Call(self._span(meta), str(c[0]), tuple(c[1:]))

    def whenever(self, meta, c):
        return A.Whenever(self._span(meta), c[0], self._doc(c[1:]), c[-1])

    def closes(self, meta, c):
        return A.Closes(self._span(meta))

    def turn_order(self, meta, c):
        return A.TurnOrder(self._span(meta))

    def window_action(self, meta, c):
        test = next((x for x in c[2:-1] if not isinstance(x, Token)), None)
        return A.WindowAction(self._span(meta), str(c[0]), str(c[1]), self._doc(c[2:]), c[-1], test)

    def counter(self, meta, c):
        hidden = any(isinstance(x, Token) and x.type == "HIDDEN" for x in c[2:])
        return A.CounterDecl(self._span(meta), str(c[0]), c[1], self._doc(c[2:]), hidden)

    def play_only(self, meta, c):
        return A.PlayOnly(self._span(meta), c[0], self._doc(c[1:]))

    def after_play(self, meta, c):
        return A.AfterPlay(self._span(meta), self._doc(c), c[-1])

    def on_round_start(self, meta, c):
        return A.OnRoundStart(self._span(meta), self._doc(c), c[-1])

    def set_counter(self, meta, c):
        return A.SetCounter(self._span(meta), str(c[0]), c[1])

    def add_counter(self, meta, c):
        return A.AddCounter(self._span(meta), str(c[1]), c[0])

    def may_play_card(self, meta, c):
        return A.MayPlayCard(self._span(meta), c[0], c[1])

    def plays_card(self, meta, c):
        return A.PlaysCard(self._span(meta), c[0], c[1])

    def race(self, meta, c):
        prompt = _unquote(c[1]) if isinstance(c[1], Token) and c[1].type == "STRING" else ""
        name = [x for x in c if isinstance(x, Token) and x.type == "NAME"][-1]
        return A.Race(self._span(meta), c[0], prompt, str(name), c[-1])

    def chance(self, meta, c):
        prompt = self._doc(c[1:2])
        rest = [x for x in c[1:] if not isinstance(x, Token)]
        first = rest[0]
        high = next((x[1] for x in rest[1:] if isinstance(x, tuple) and x[0] == "to"), None)
        where = next((x[1] for x in rest[1:] if isinstance(x, tuple) and x[0] == "where"), None)
        if high is not None:
            return A.Chance(self._span(meta), str(c[0]), prompt, first, high, None, where)
        return A.Chance(self._span(meta), str(c[0]), prompt, None, None, first, where)

    def chance_to(self, meta, c):
        return ("to", c[0])

    def chance_where(self, meta, c):
        return ("where", c[0])

    def set_color(self, meta, c):
        return A.SetColor(self._span(meta), c[0])

    def may_choose_color(self, meta, c):
        return A.ChooseColor(self._span(meta), c[0], optional=True)

    def may_pick(self, meta, c):
        return A.Picks(self._span(meta), c[0], str(c[1]), c[2], c[3] if len(c) > 3 else None, True)

    def stock_pile(self, meta, c):
        return "stock"

    def discard_pile(self, meta, c):
        return "discard"

    def put_on_top(self, meta, c):
        return A.PutCard(self._span(meta), c[0], c[1], c[2], False)

    def put_at_bottom(self, meta, c):
        return A.PutCard(self._span(meta), c[0], c[1], c[2], True)

    def turn_over(self, meta, c):
        return A.TurnOver(self._span(meta), c[0])

    def shuffle_pile(self, meta, c):
        return A.ShufflePile(self._span(meta), c[0])

    def shuffle_into(self, meta, c):
        keep = any(x == "except_top" for x in c[2:])
        where = next((x for x in c[2:] if isinstance(x, A.Node)), None)
        return A.ShufflePile(self._span(meta), c[0], c[1], keep, where)

    def except_top(self, meta, c):
        return "except_top"

    def blocked(self, meta, c):
        return A.Blocked(self._span(meta), c[0], self._doc(c[1:]))

    def stock_out(self, meta, c):
        return A.StockOut(self._span(meta), self._doc(c), c[-1])

    def all_colors(self, meta, c):
        return A.Builtin(self._span(meta), "colors")

    def while_stmt(self, meta, c):
        return A.While(self._span(meta), c[0], c[1])

    def discards_card(self, meta, c):
        return A.DiscardsCard(self._span(meta), c[0], c[1])

    def redeal(self, meta, c):
        return A.Redeal(self._span(meta), c[0])

    def swap_seats(self, meta, c):
        return A.SwapSeats(self._span(meta), c[0], c[1])

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def draws(self, meta, c):
        return A.Draws(self._span(meta), c[0], c[1])

    def draws_until(self, meta, c):
        return A.DrawsUntil(self._span(meta), c[0], c[1])

    def skip(self, meta, c):
        return A.Skip(self._span(meta), c[0])

    def reverse(self, meta, c):
        return A.Reverse(self._span(meta))

    def choose_color(self, meta, c):
        return A.ChooseColor(self._span(meta), c[0], str(c[1]) if len(c) > 1 else None)

    def picks(self, meta, c):
        return A.Picks(self._span(meta), c[0], str(c[1]), c[2], c[3] if len(c) > 3 else None)

    def swap_hands(self, meta, c):
        return A.SwapHands(self._span(meta), c[0], c[1])

    def pass_hands(self, meta, c):
        return A.PassHands(self._span(meta))

    def if_stmt(self, meta, c):
        test, then, rest = c[0], c[1], c[2:]
        other = rest[-1][1] if rest and rest[-1][0] == "else" else ()
        chain = [x for x in rest if x[0] == "else if"]
        if len(chain) > MAX_NESTING:
            raise _SyntaxProblem("E104", f"more than {MAX_NESTING} `else if` in a row", self._span(meta),
                                 "split the rule into simpler parts, for example one rule per card")
        for _, span, t, body in reversed(chain):       # folded from the last: no recursion
            other = (A.If(span, t, body, other),)
        return A.If(self._span(meta), test, then, other)

    def else_if(self, meta, c):
        return ("else if", self._span(meta), c[0], c[1])

    def else_block(self, meta, c):
        return ("else", c[0])

    def ask(self, meta, c):
        question = _unquote(c[1]) if isinstance(c[1], Token) else ""
        answers = tuple(x for x in c[1:] if isinstance(x, A.Answer))
        return A.Ask(self._span(meta), c[0], question, answers)

    def answer(self, meta, c):
        return A.Answer(self._span(meta), str(c[0]), self._doc(c[1:]), c[-1])

    def reveal(self, meta, c):
        until = "round" if len(c) > 2 and "round" in str(c[2]) else "turn"
        return A.Reveal(self._span(meta), c[0], c[1], until)

    def scores(self, meta, c):
        return A.Scores(self._span(meta), c[0], c[1])

    def eliminate(self, meta, c):
        return A.Eliminate(self._span(meta), c[0], len(c) > 1)

    def starts(self, meta, c):
        return A.Starts(self._span(meta), c[0])

    def plays_again(self, meta, c):
        return A.PlaysAgain(self._span(meta), c[0])

    def return_starter(self, meta, c):
        return A.ReturnStarter(self._span(meta))

    def as_if_played(self, meta, c):
        card = c[1] if len(c) > 1 and not (isinstance(c[1], A.Builtin) and c[1].id == "it") else None
        return A.AsIfPlayed(self._span(meta), c[0], card)

    def may_play_it(self, meta, c):
        return A.PlayDrawn(self._span(meta), c[0], False)

    def must_play_it(self, meta, c):
        return A.PlayDrawn(self._span(meta), c[0], True)

    def for_each(self, meta, c):
        return A.ForEach(self._span(meta), str(c[0]), c[1], c[2])

    def let_stmt(self, meta, c):
        return A.Let(self._span(meta), str(c[0]), c[1])

    def end_game(self, meta, c):
        return A.EndGame(self._span(meta), str(c[2]))

    def end_round(self, meta, c):
        return A.EndRound(self._span(meta))

    def discard_matching(self, meta, c):
        return A.DiscardMatching(self._span(meta), c[0], str(c[1]), c[2], c[3])

    # -- expressions
    def int_lit(self, meta, c):
        return A.Literal(self._span(meta), self._int(c[0]))

    def neg_int_lit(self, meta, c):
        return A.Literal(self._span(meta), -self._int(c[-1]))

    def str_lit(self, meta, c):
        return A.Literal(self._span(meta), _unquote(c[0]))

    def yes(self, meta, c):
        return A.Literal(self._span(meta), True)

    def no(self, meta, c):
        return A.Literal(self._span(meta), False)

    def none_lit(self, meta, c):
        return A.Literal(self._span(meta), None)

    def name(self, meta, c):
        return A.Name(self._span(meta), str(c[0]))

    def current_color(self, meta, c):
        return A.Builtin(self._span(meta), "color")

    def player_count(self, meta, c):
        return A.Builtin(self._span(meta), "players")

    def it(self, meta, c):
        return A.Builtin(self._span(meta), "it")

    def attr(self, meta, c):
        name = str(c[1].children[0]) if hasattr(c[1], "children") else str(c[1])
        # `card.suit` is `card.color` in a ruleset whose colors are suits (`suits { }`)
        return A.Attr(self._span(meta), c[0], "color" if name == "suit" else name)

    def attr_name(self, meta, c):
        return str(c[0])

    def not_op(self, meta, c):
        return A.Unary(self._span(meta), "not", c[0])

    def neg(self, meta, c):
        return A.Unary(self._span(meta), "-", c[-1])

    def or_op(self, meta, c):
        return A.Binary(self._span(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return A.Binary(self._span(meta), "and", c[0], c[1])

    def compare_op(self, meta, c):
        return A.Binary(self._span(meta), str(c[1]), c[0], c[2])

    def arith(self, meta, c):
        return A.Binary(self._span(meta), str(c[1]), c[0], c[2])

    def in_op(self, meta, c):
        return A.Binary(self._span(meta), "in", c[0], c[1])

    def is_op(self, meta, c):
        return A.Is(self._span(meta), c[0], str(c[1]), False)

    def is_not_op(self, meta, c):
        return A.Is(self._span(meta), c[0], str(c[1]), True)

    def cond_expr(self, meta, c):
        return A.Cond(self._span(meta), c[0], c[1], c[2])

    def some(self, meta, c):
        return A.Quantifier(self._span(meta), "some", str(c[0]), c[1], c[2] if len(c) > 2 else None)

    def count(self, meta, c):
        return A.Quantifier(self._span(meta), "count", str(c[0]), c[1], c[2] if len(c) > 2 else None)

    def total(self, meta, c):
        return A.Quantifier(self._span(meta), "total", str(c[1]), c[2], c[3] if len(c) > 3 else None, c[0])
