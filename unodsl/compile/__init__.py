"""The compiler: composed syntax tree -> an immutable `Ruleset` (+ its generated turn loop).

`loader` finds, parses, composes and compiles rules files (the front door: `load`, `check`);
`compiler` checks names and types and builds the card tables; `expressions` and `effects` turn
expressions and statements into closures and programs; `ruleset` is the result; `decisions`
holds the Decision and Action the engine trades; `codegen` writes each ruleset's turn loop out
as Python source.

May import: unodsl.lang.
"""
