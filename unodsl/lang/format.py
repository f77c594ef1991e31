"""One canonical layout for rules files: what `unodsl fmt` and the language server's formatting do.

The formatter works from the token stream and the brace structure, not from a printer with a
case per declaration, so a statement or declaration added to the language is laid out without a
change here. The parse tree is used for two facts only: where each item of a brace group (a
declaration, a statement, a card attribute, a deck entry) starts, and which minus signs are
unary. Everything else follows from the tokens:

- two spaces of indentation per open `{`, and two more for a line that continues an item begun
  on an earlier line (plus two per open `(`);
- one space between tokens, none inside `( )`, before `,` and `;`, around `.` and `..`, or after
  a unary minus;
- the author's line breaks are kept, except that a line holding only `{`, or continuing an item
  after a `}` (`} else {`), joins the line before; a text that ends a line longer than WIDTH moves
  to a line of its own, and a long condition breaks before its `and`s and `or`s;
- at most one blank line in a row, none just inside braces, one between rulesets and modules;
- comments stay on their lines; a comment after code keeps its column when the code fits before it.

A file that does not parse is left alone with its diagnostics. The result is checked: its syntax
tree must equal the original's (spans aside), or the formatter refuses to give it.
"""
from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass

from lark import Token, Tree
from lark.exceptions import LarkError

from . import ast as A
from .diagnostics import Diagnostic, Diagnostics, too_deep
from .parser import lark_parser, parse
from .source import NO_SPAN, Source, Span

WIDTH = 100
INDENT = "  "
_TIGHT_AFTER = {"(", "."}
_TIGHT_BEFORE = {")", ",", ";", "."}
_RANGE = ".."
_LOGIC = {"and", "or"}


class FormatError(Exception):
    """The formatter would have changed what a file means: a bug in unodsl, never given to a file."""


@dataclass(frozen=True)
class Formatted:
    """The outcome for one text: the formatted text, or the original with its syntax errors."""

    original: str
    text: str
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def changed(self) -> bool:
        return self.text != self.original

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def format_source(source: Source) -> Formatted:
    """Format one rules file; a file with syntax errors comes back unchanged with them."""
    diags = Diagnostics()
    try:
        before = parse(source, diags)
    except RecursionError:
        return Formatted(source.text, source.text, (too_deep(source),))
    if diags.errors:
        return Formatted(source.text, source.text, tuple(diags.sorted()))
    try:
        text = _Layout(source.text).render()
    except LarkError as err:          # the parser accepted the text, so this is a bug
        raise FormatError(f"{source.name}: the layout pass could not read the file: {err}") from err
    after_diags = Diagnostics()
    after = parse(Source(source.name, text), after_diags)
    if after_diags.errors or meaning(after) != meaning(before):
        raise FormatError(f"{source.name}: formatting would change the rules; the file is left alone")
    return Formatted(source.text, text)


def format_text(text: str, name: str = "<text>") -> Formatted:
    return format_source(Source(name, text))


def meaning(node):
    """A syntax tree with every span blanked: two texts mean the same when these are equal."""
    if isinstance(node, Span):
        return NO_SPAN
    if isinstance(node, tuple):
        return tuple(meaning(x) for x in node)
    if isinstance(node, A.Node) or (dataclasses.is_dataclass(node) and not isinstance(node, type)):
        return dataclasses.replace(node, **{f.name: meaning(getattr(node, f.name))
                                            for f in dataclasses.fields(node) if f.init})
    return node


# ---- the layout pass -----------------------------------------------------------------------

@dataclass
class _Line:
    code: list                  # the line's tokens, comments excluded
    comment: Token | None       # a comment ending the line (or the whole line)
    blank_before: bool          # a blank line came before it in the source
    comment_col: int = 0        # the comment's column in the source, 1-based
    depth: int = 0              # open braces before the line
    parens: int = 0             # open parentheses before the line
    continues: bool = False     # it continues an item begun on an earlier line

    @property
    def first(self) -> Token | None:
        return self.code[0] if self.code else None


class _Layout:
    def __init__(self, text: str):
        self.text = text
        parser = lark_parser()
        self.tokens = [t for t in parser.lex(text, dont_ignore=True) if t.type != "WS"]
        tree = parser.parse(text)
        self.item_starts: set[int] = set()
        self.unary: set[int] = set()
        self.infix_logic: set[int] = set()
        self._positions = [t.start_pos for t in self.tokens]
        self._scan(tree)

    # -- facts from the parse tree
    def _scan(self, tree: Tree) -> None:
        """Record where the items of every brace group start, and every unary minus."""
        stack = [tree]
        self.item_starts.update(_start(c) for c in tree.children)       # units at the top
        while stack:
            node = stack.pop()
            kids = [c for c in node.children if isinstance(c, (Tree, Token))]
            if not getattr(node.meta, "empty", True):
                first = self._token_at(node.meta.start_pos)
                if first is not None and first.type == "MINUS":
                    self.unary.add(first.start_pos)
                for lo, hi in self._own_braces(node, kids):
                    self.item_starts.update(_start(c) for c in kids if lo < _start(c) < hi)
                self._infix(node, kids)
            stack.extend(c for c in kids if isinstance(c, Tree))

    def _infix(self, node: Tree, kids) -> None:
        """Note the `and` / `or` written between two operands of one node: the operators a long
        condition may break before (not the `and` of `return it and turn another`)."""
        trees = [c for c in kids if isinstance(c, Tree)]
        for left, right in zip(trees, trees[1:]):
            i = bisect.bisect_left(self._positions, _end(left))
            while i < len(self.tokens) and self._positions[i] < _start(right):
                if self.tokens[i].value in _LOGIC:
                    self.infix_logic.add(self._positions[i])
                i += 1

    def _token_at(self, pos: int) -> Token | None:
        i = bisect.bisect_left(self._positions, pos)
        return self.tokens[i] if i < len(self.tokens) and self._positions[i] == pos else None

    def _own_braces(self, node: Tree, kids) -> list[tuple[int, int]]:
        """(open, close) positions of the brace pairs that belong to this node, not to a child."""
        spans = sorted((_start(c), _end(c)) for c in kids)
        i = bisect.bisect_left(self._positions, node.meta.start_pos)
        out, opened = [], []
        while i < len(self.tokens) and self._positions[i] < node.meta.end_pos:
            pos = self._positions[i]
            k = bisect.bisect_right(spans, (pos, float("inf"))) - 1
            inside_child = k >= 0 and spans[k][0] <= pos < spans[k][1]
            if not inside_child:
                if self.tokens[i] == "{":
                    opened.append(pos)
                elif self.tokens[i] == "}" and opened:
                    out.append((opened.pop(), pos))
            i += 1
        return out

    # -- lines
    def _lines(self) -> list[_Line]:
        lines: list[_Line] = []
        last_line = 0
        for tok in self.tokens:
            if tok.line != last_line:
                lines.append(_Line([], None, last_line > 0 and tok.line > last_line + 1))
                last_line = tok.line
            if tok.type == "COMMENT":
                lines[-1].comment, lines[-1].comment_col = tok, tok.column
            else:
                lines[-1].code.append(tok)
        depth = parens = 0
        for line in lines:
            line.depth, line.parens = depth, parens
            first = line.first
            if first is not None:
                line.continues = first.start_pos not in self.item_starts and first not in ("}", ")")
            for tok in line.code:
                depth += (tok == "{") - (tok == "}")
                parens += (tok == "(") - (tok == ")")
        return lines

    def _joined(self, lines: list[_Line]) -> list[_Line]:
        """A line holding `{`, or going on after a `}` (`} else {`), joins the code line before."""
        out: list[_Line] = []
        for line in lines:
            prev = out[-1] if out else None
            if (prev is not None and line.code and prev.code and prev.comment is None
                    and (line.first == "{" or (line.continues and prev.code[-1] == "}"))):
                prev.code.extend(line.code)
                prev.comment, prev.comment_col = line.comment, line.comment_col
                continue
            out.append(line)
        return out

    def render(self) -> str:
        lines = self._joined(self._lines())
        leads = self._unit_leads(lines)
        out: list[str] = []
        prev: _Line | None = None
        for n, line in enumerate(lines):
            if prev is not None and self._blank_between(prev, line, n in leads, any(ln.code for ln in lines[:n])):
                out.append("")
            if line.code:
                out.extend(self._render_code(line))
            else:
                out.append(self._indent_of_comment(lines, n) + line.comment.value)
            prev = line
        return "\n".join(out) + "\n" if out else ""

    @staticmethod
    def _blank_between(prev: _Line, line: _Line, leads_unit: bool, code_before: bool) -> bool:
        """A blank line goes between two lines where the source had one, but never just inside
        braces; and always before a ruleset or module (with its comments) that follows code."""
        if leads_unit and code_before:
            return True
        if prev.code and prev.code[-1] == "{":
            return False
        if line.code and line.first == "}":
            return False
        return line.blank_before

    @staticmethod
    def _unit_leads(lines: list[_Line]) -> set[int]:
        """Indexes of the first line of each top-level unit, its comments just above included."""
        leads = set()
        for n, line in enumerate(lines):
            if line.code and line.depth == 0 and not line.continues:
                k = n
                while k > 0 and not lines[k - 1].code and not lines[k].blank_before:
                    k -= 1
                leads.add(k)
        return leads

    def _indent_of_comment(self, lines, n) -> str:
        nxt = next((ln for ln in lines[n + 1:] if ln.code), None)
        if nxt is None:
            return INDENT * max(0, lines[n].depth)
        if nxt.first == "}":
            return INDENT * (nxt.depth)
        return self._indent(nxt)

    def _indent(self, line: _Line, first: Token | None = None, continues: bool | None = None) -> str:
        """Two spaces per open brace; a continuation two more (four when it starts with `and` or
        `or`), and two per open parenthesis."""
        first = line.first if first is None else first
        continues = line.continues if continues is None else continues
        depth = line.depth - (1 if first == "}" else 0)
        extra = 0
        if continues:
            extra = 1 + line.parens + (1 if first.start_pos in self.infix_logic else 0)
        return INDENT * (max(0, depth) + extra)

    def _render_code(self, line: _Line) -> list[str]:
        pieces = self._split(line)
        out = [self._indent(line, toks[0], line.continues or k > 0) + self._join_tokens(toks)
               for k, toks in enumerate(pieces)]
        if line.comment is not None:
            code = out[-1]
            col = line.comment_col - 1 if line.comment_col - 1 > len(code) else len(code) + 2
            out[-1] = code + " " * (col - len(code)) + line.comment.value
        return out

    def _split(self, line: _Line) -> list[list]:
        """The line's tokens as one piece, or several when it is longer than WIDTH: a text that
        ends the line goes to a line of its own, then a condition breaks before `and` / `or`."""
        toks = list(line.code)
        if self._fits(line, toks, toks[0], line.continues):
            return [toks]
        tail = []
        if toks[-1].type == "STRING" and len(toks) >= 3 and toks[-2] not in ("=", ","):
            toks, tail = toks[:-1], [toks[-1]]
        pieces, start = [], 0
        cuts = [i for i, t in enumerate(toks) if i > 0 and t.start_pos in self.infix_logic]
        for k, cut in enumerate(cuts):
            nxt = cuts[k + 1] if k + 1 < len(cuts) else len(toks)
            if not self._fits(line, toks[start:nxt], toks[start], line.continues or start > 0):
                pieces.append(toks[start:cut])
                start = cut
        pieces.append(toks[start:])
        return pieces + ([tail] if tail else [])

    def _fits(self, line: _Line, toks, first, continues) -> bool:
        return len(self._indent(line, first, continues)) + len(self._join_tokens(toks)) <= WIDTH

    def _join_tokens(self, toks) -> str:
        out = ""
        prev = None
        for tok in toks:
            if prev is not None and self._space(prev, tok):
                out += " "
            out += tok.value
            prev = tok
        return out

    def _space(self, prev: Token, tok: Token) -> bool:
        if prev.value in _TIGHT_AFTER or tok.value in _TIGHT_BEFORE:
            return False
        if _RANGE in (prev.value, tok.value):
            return False
        if tok.value == "(" and prev.type == "NAME":       # a named statement: `punish(next, 2)`
            return False
        if prev.type == "MINUS" and prev.start_pos in self.unary:
            return False
        return True


def _start(node) -> int:
    return node.start_pos if isinstance(node, Token) else node.meta.start_pos


def _end(node) -> int:
    return node.end_pos if isinstance(node, Token) else node.meta.end_pos
