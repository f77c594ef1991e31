"""Rule sheets: the rules in plain English, rendered with Jinja as HTML, Markdown or PDF.

`describe` renders every declaration, statement and expression as English (split by topic);
`sheet` gathers a ruleset's sheet and renders it with the templates in `templates/`;
`user_template` renders a user's own template, sandboxed, in its folder and within limits.

May import: unodsl.sim (for the figures of `--stats`), unodsl.engine, unodsl.compile, unodsl.lang.
"""
