"""The open documents and their checks: what the editor holds, checked as `unodsl check` would.

A rules file builds on bundled rulesets and modules (`extends classic`, `uses progressive`) and on
its own units, never on another file. So the only documents whose edits change another
document's diagnostics are the bundled files themselves, when they are open (editing
`rulesets/classic.uno` in a checkout): their text then stands in for the file on disk, and
every open document built from them is checked again.

Each document keeps the last rulesets that compiled, so that hover can still put a rule into
English while the text in front of it has a mistake.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..compile.loader import MAX_FILE_BYTES, Analysis, analyze
from ..lang.resources import bundled_files
from ..lang.source import Source


@dataclass
class Document:
    uri: str
    text: str
    version: int | None = None
    analysis: Analysis | None = None
    checked: tuple | None = None            # (text, generation) the analysis was made from
    good_rules: dict = field(default_factory=dict)     # unit name -> last Ruleset that compiled

    @property
    def path(self) -> Path | None:
        return uri_path(self.uri)

    @property
    def name(self) -> str:
        """The name diagnostics carry: the file's path, or the URI of an unsaved buffer."""
        path = self.path
        return str(path) if path is not None else self.uri


def uri_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def path_uri(path: Path) -> str:
    return path.resolve().as_uri()


class Documents:
    """Open documents by URI, their latest checks, and who depends on whom."""

    def __init__(self):
        self.docs: dict[str, Document] = {}
        self.generation = 0            # bumped when the text of an open bundled file changes
        self._bundled = {p.resolve(): p for p in bundled_files()}

    # -- the editor's side ---------------------------------------------------------------------
    def open(self, uri: str, text: str, version: int | None = None) -> Document:
        doc = self.docs.get(uri)
        if doc is None:
            doc = self.docs[uri] = Document(uri, text, version)
        else:
            doc.text, doc.version = text, version
        if self.bundled_name(doc) is not None:
            self.generation += 1
        return doc

    change = open

    def close(self, uri: str) -> None:
        doc = self.docs.pop(uri, None)
        if doc is not None and self.bundled_name(doc) is not None:
            self.generation += 1

    # -- checks --------------------------------------------------------------------------------
    def check(self, uri: str) -> Analysis:
        """The document's analysis for its current text (made now if the text changed)."""
        doc = self.docs[uri]
        key = (doc.text, self.generation)
        if doc.checked != key or doc.analysis is None:
            size = len(doc.text.encode("utf-8", "replace"))
            if size > MAX_FILE_BYTES:          # read as empty, with the reason as its diagnostic
                doc.analysis = analyze(Source(doc.name, ""), self.bundled_texts())
                doc.analysis.diagnostics[:] = [_too_big(doc, size)]
            else:
                doc.analysis = analyze(Source(doc.name, doc.text), self.bundled_texts())
            doc.checked = key
            doc.good_rules.update(doc.analysis.rulesets)
        return doc.analysis

    def dependents(self, uri: str) -> list[str]:
        """Other open documents whose last check read this document (a bundled file)."""
        doc = self.docs.get(uri)
        name = self.bundled_name(doc) if doc is not None else None
        if name is None:
            return []
        return [u for u, d in self.docs.items() if u != uri and d.analysis is not None
                and name in d.analysis.built_from]

    def bundled_texts(self) -> dict[str, str]:
        """Bundled files being edited: path -> the editor's text."""
        out = {}
        for doc in self.docs.values():
            path = doc.path
            if path is not None and path.resolve() in self._bundled:
                out[str(self._bundled[path.resolve()])] = doc.text
        return out

    def bundled_name(self, doc: Document) -> str | None:
        path = doc.path
        if path is None or path.resolve() not in self._bundled:
            return None
        return f"<bundled>/{path.name}"

    def uri_of(self, name: str, analysis: Analysis) -> str | None:
        """The URI of the file a diagnostic or a definition is in (bundled files included)."""
        if name == analysis.source.name:
            for uri, doc in self.docs.items():
                if doc.name == name:
                    return uri
        path = analysis.bundled_paths.get(name)
        if path is not None:
            return path_uri(path)
        return Path(name).resolve().as_uri() if Path(name).is_absolute() else None

    def text_of(self, name: str, analysis: Analysis) -> str | None:
        src = analysis.sources.get(name)
        return src.text if src is not None else None


def _too_big(doc: Document, size: int):
    from ..lang.diagnostics import Diagnostic
    return Diagnostic("", f"the file is {size} bytes; rules files are limited to {MAX_FILE_BYTES}",
                      Source(doc.name, doc.text).span(1, 1), "split it into a ruleset and modules")
