"""`unodsl lsp`: the language server, speaking LSP on standard input and output."""
from __future__ import annotations

from .common import UsageError

NAME = "lsp"
HELP = "run the language server for editors (LSP over standard input and output)"
DESCRIPTION = ("Errors as you type, hover, completion, go to definition, references, outline, "
               "formatting and quick fixes for .uno files. Editors start it themselves; "
               "docs/editors.md says how. Needs: pip install 'unodsl[lsp]'.")


def arguments(p) -> None:
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")


def run(args) -> int:
    try:
        from ...lsp.server import serve
    except ImportError as err:
        if "pygls" not in str(err) and "lsprotocol" not in str(err):
            raise
        raise UsageError("the language server needs pygls: pip install 'unodsl[lsp]'") from None
    serve()
    return 0
