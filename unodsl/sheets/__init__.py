"""Rule sheets: the rules in plain English, rendered with Jinja as HTML, Markdown or PDF.

`describe` renders every declaration, statement and expression as English (split by topic);
`voice` chooses, rule by rule, the one text a sheet prints (the author's words while they hold,
else the generated sentence); `context` makes a rule book's sections of a ruleset (with `deck`
and `pictures` for the cards, `changes` for what a variant changes, `scoring` for the worked
example, `examples` for examples of play, `facts` for `--stats`); `sheet` renders them with the
templates in `templates/`; `user_template` renders a user's own template, sandboxed, in its
folder and within limits; `rules` finds what a sheet is about. `wording` checks the author's
words against the rules (`check_rule_texts`, for `unodsl check` and the language server).

May import: unodsl.sim (for the figures of `--stats`), unodsl.engine, unodsl.compile, unodsl.lang.
"""
from .wording import check_rule_texts

__all__ = ["check_rule_texts"]
