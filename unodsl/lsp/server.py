"""The language server over LSP (pygls): the protocol side of `analysis`, `hover`, `completion`,
`navigation` and `fixes`.

Positions cross here: LSP counts lines and characters from 0 in the client's units (UTF-16 by
default), spans count from 1 in characters; pygls's position codec converts, with the text of the
file the span is in (an open document, or a bundled file the analysis read).

A change is checked after a short pause (DEBOUNCE), so a burst of keystrokes costs one check;
any request about a document checks it first if its text changed since.
"""
from __future__ import annotations

import asyncio

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from .. import __version__
from ..compile import index as I
from ..lang.format import FormatError, format_text
from .analysis import Documents
from .completion import complete
from .fixes import fixes
from .hover import hover
from .navigation import definition, outline, references

DEBOUNCE = 0.05          # seconds of quiet after a change before it is checked

_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}
_COMPLETION_KIND = {
    "keyword": T.CompletionItemKind.Keyword, I.CARD_KIND: T.CompletionItemKind.Class,
    I.OPTION: T.CompletionItemKind.Property, I.COUNTER: T.CompletionItemKind.Variable,
    I.COLOR: T.CompletionItemKind.Constant, I.TAG: T.CompletionItemKind.Constant,
    I.PROPERTY: T.CompletionItemKind.Property, I.ATTRIBUTE: T.CompletionItemKind.Field,
    I.BUILTIN: T.CompletionItemKind.Variable, I.MODULE: T.CompletionItemKind.Module,
    I.RULESET: T.CompletionItemKind.Module, "variable": T.CompletionItemKind.Variable,
    I.NAMED: T.CompletionItemKind.Function,
}
_SYMBOL_KIND = {"Unit": T.SymbolKind.Namespace, "CardDecl": T.SymbolKind.Class, "OptionDecl": T.SymbolKind.Property,
                "SetOption": T.SymbolKind.Property, "CounterDecl": T.SymbolKind.Variable,
                "Window": T.SymbolKind.Event, "Colors": T.SymbolKind.Enum, "Deck": T.SymbolKind.Array}


class UnodslServer(LanguageServer):
    def __init__(self):
        super().__init__("unodsl", __version__)
        self.documents = Documents()
        self._pending: dict[str, asyncio.Task] = {}

    # -- checking -------------------------------------------------------------------------------
    def analysis(self, uri: str):
        if uri not in self.documents.docs:
            doc = self.workspace.get_text_document(uri)
            self.documents.open(uri, doc.source, doc.version)
        return self.documents.check(uri)

    def check_and_publish(self, uri: str) -> None:
        """Check a document, publish its diagnostics, then those of the open documents built on it."""
        if uri not in self.documents.docs:
            return
        self.publish(uri)
        for other in self.documents.dependents(uri):
            self.publish(other)

    def publish(self, uri: str) -> None:
        analysis = self.documents.check(uri)
        doc = self.documents.docs[uri]
        diags = [self._diagnostic(d, analysis, uri) for d in analysis.diagnostics]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri, diags, doc.version))

    def schedule(self, uri: str) -> None:
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self._pending[uri] = asyncio.get_running_loop().create_task(self._after_pause(uri))

    async def _after_pause(self, uri: str) -> None:
        await asyncio.sleep(DEBOUNCE)
        self._pending.pop(uri, None)
        self.check_and_publish(uri)

    def rules_of(self, uri: str):
        doc = self.documents.docs[uri]
        return lambda unit: (doc.analysis.rulesets.get(unit) or doc.good_rules.get(unit)
                             or doc.analysis.readable.get(unit))

    # -- positions ------------------------------------------------------------------------------
    def lines_of(self, name: str, analysis) -> list[str] | None:
        uri = self.documents.uri_of(name, analysis)
        if uri is not None and uri in self.documents.docs:
            return self.documents.docs[uri].text.splitlines(True)
        text = self.documents.text_of(name, analysis)
        return text.splitlines(True) if text is not None else None

    def to_range(self, span, lines) -> T.Range:
        if span.line <= 0 or lines is None:
            return T.Range(T.Position(0, 0), T.Position(0, 0))
        server = ServerTextRange(ServerTextPosition(span.line - 1, max(0, span.col - 1)),
                                 ServerTextPosition(span.end_line - 1, max(0, span.end_col - 1)))
        return self.workspace.position_codec.range_to_client_units(lines, server)

    def location(self, span, analysis) -> T.Location | None:
        uri = self.documents.uri_of(span.file, analysis)
        if uri is None:
            return None
        return T.Location(uri, self.to_range(span, self.lines_of(span.file, analysis)))

    def position(self, uri: str, pos: T.Position) -> tuple[int, int]:
        server = self.workspace.get_text_document(uri).position_from_client_units(pos)
        return server.line + 1, server.character + 1

    def _diagnostic(self, d, analysis, uri: str) -> T.Diagnostic:
        own = d.span.file == analysis.source.name
        lines = self.lines_of(analysis.source.name, analysis)
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        related = [T.DiagnosticRelatedInformation(loc, note) for span, note in d.related
                   if (loc := self.location(span, analysis)) is not None]
        if own:
            rng = self.to_range(d.span, lines)
        else:                # in a parent: shown on the `extends` (or the first line), pointing there
            unit = analysis.units[0] if analysis.units else None
            anchor = unit.extends_span if unit is not None and unit.extends_span is not None else None
            rng = self.to_range(anchor, lines) if anchor is not None else T.Range(T.Position(0, 0), T.Position(0, 1))
            place = f"{d.span.file}:{d.span.line}" if d.span.line > 0 else d.span.file
            message = f"in {place}: {message}"
            loc = self.location(d.span, analysis)
            if loc is not None:
                related.insert(0, T.DiagnosticRelatedInformation(loc, d.message))
        return T.Diagnostic(rng, message, severity=_SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
                            code=d.code or None, source="unodsl", related_information=related or None)


server = UnodslServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: UnodslServer, params: T.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    ls.documents.open(doc.uri, doc.text, doc.version)
    ls.check_and_publish(doc.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: UnodslServer, params: T.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    ls.documents.change(uri, doc.source, params.text_document.version)
    ls.schedule(uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: UnodslServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    dependents = ls.documents.dependents(uri)
    ls.documents.close(uri)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri, []))
    for other in dependents:
        ls.publish(other)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def on_hover(ls: UnodslServer, params: T.HoverParams) -> T.Hover | None:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    line, col = ls.position(uri, params.position)
    found = hover(analysis, ls.rules_of(uri), line, col)
    if found is None:
        return None
    rng = ls.to_range(found.span, ls.lines_of(analysis.source.name, analysis))
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, found.markdown), rng)


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
def on_completion(ls: UnodslServer, params: T.CompletionParams) -> T.CompletionList:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    line, col = ls.position(uri, params.position)
    unit = analysis.units[0].name if analysis.units else None
    rules = ls.rules_of(uri)(unit) if unit else None
    items = complete(analysis, rules, ls.documents.docs[uri].text, line, col)
    return T.CompletionList(False, [T.CompletionItem(i.label, kind=_COMPLETION_KIND.get(i.kind),
                                                     detail=i.detail or i.kind, sort_text=f"{n:04d}")
                                    for n, i in enumerate(items)])


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: UnodslServer, params: T.DefinitionParams) -> list[T.Location]:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    line, col = ls.position(uri, params.position)
    return [loc for span in definition(analysis, line, col) if (loc := ls.location(span, analysis))]


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: UnodslServer, params: T.ReferenceParams) -> list[T.Location]:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    line, col = ls.position(uri, params.position)
    spans = references(analysis, line, col, params.context.include_declaration)
    return [loc for span in spans if (loc := ls.location(span, analysis))]


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_document_symbol(ls: UnodslServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    lines = ls.lines_of(analysis.source.name, analysis)

    def symbol(entry) -> T.DocumentSymbol:
        return T.DocumentSymbol(entry.label, _SYMBOL_KIND.get(entry.kind, T.SymbolKind.Function),
                                ls.to_range(entry.span, lines), ls.to_range(entry.name_span, lines),
                                children=[symbol(c) for c in entry.children] or None)
    return [symbol(e) for e in outline(analysis)]


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def on_formatting(ls: UnodslServer, params: T.DocumentFormattingParams) -> list[T.TextEdit]:
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    try:
        result = format_text(text, uri)
    except FormatError as err:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Error, str(err)))
        return []
    if not result.ok or not result.changed:
        return []
    lines = text.splitlines(True)
    end = T.Position(len(lines), 0)
    return [T.TextEdit(T.Range(T.Position(0, 0), end), result.text)]


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def on_code_action(ls: UnodslServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    uri = params.text_document.uri
    analysis = ls.analysis(uri)
    text = ls.documents.docs[uri].text
    lines = text.splitlines(True)
    asked = ls.workspace.get_text_document(uri).range_from_client_units(params.range)
    actions = []
    for d in analysis.diagnostics:
        if d.span.file != analysis.source.name or not _overlaps(d.span, asked):
            continue
        for fix in fixes(d, text):
            edit = T.TextEdit(ls.to_range(fix.span, lines), fix.new_text)
            actions.append(T.CodeAction(fix.title, kind=T.CodeActionKind.QuickFix, is_preferred=len(actions) == 0,
                                        diagnostics=[ls._diagnostic(d, analysis, uri)],
                                        edit=T.WorkspaceEdit(changes={uri: [edit]})))
    return actions


def _overlaps(span, asked) -> bool:
    """Whether a diagnostic's place meets the range an editor asks about (its end excluded)."""
    start = ServerTextPosition(span.line - 1, span.col - 1)
    end = ServerTextPosition(span.end_line - 1, span.end_col - 1)
    return start < asked.end and asked.start < end or start == asked.start


def serve() -> None:
    """Speak LSP on standard input and output until the client says exit."""
    server.start_io()
