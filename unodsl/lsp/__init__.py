"""The language server (`unodsl lsp`): errors as you type, hover, completion, go to definition,
references, outline, formatting and quick fixes, for any editor that speaks LSP.

Everything it says comes from the rest of unodsl: diagnostics from the checker (`loader.analyze`,
the same codes, places and hints as `unodsl check`), what a name is from the compiler's index of
names, the English of a rule from the sheets' `Describer`, a keyword's meaning from
docs/language.md, layout from `lang.format`, and the keywords allowed at the cursor from the
grammar's own LALR parser. `analysis` keeps the open documents and their checks, `hover`,
`completion`, `navigation` and `fixes` answer one kind of request each, without knowing the
protocol; `server` is the only module that speaks it (pygls, the optional extra `lsp`).

May import: unodsl.sheets, unodsl.compile, unodsl.lang.
"""
