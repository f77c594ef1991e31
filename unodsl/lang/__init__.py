"""The language: rules text -> checked, composed syntax tree.

`source` (texts and spans), `diagnostics` (every mistake with its place and hint), `ast` (frozen
nodes), `parser` (Lark grammar -> AST, recovering from syntax errors), `compose` (`extends`,
`uses` and house-rule modules into one list of declarations), `resources` (where the grammar and
the bundled rulesets are), `files` (reading what users give with bounds, writing files whole, text
safe for a terminal, InputError for input that cannot be used), `cache` (the user's private cache
folder) and `kept_parses` (the parses of the bundled files, and of files read from disk, kept there
between runs).

May import: nothing else of unodsl. Everything else builds on this package.
"""
